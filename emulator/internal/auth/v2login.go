package auth

import "github.com/conform-harness/conform/emulator/internal/call"

// Key looks a key pair up by API key, for stream logins that carry the key
// in a message instead of a header.
func (s *Store) Key(apiKey string) (Key, bool) {
	k, ok := s.keys[apiKey]
	return k, ok
}

// Principal is the caller a key authenticates.
func (s *Store) Principal(k Key) *call.Principal { return s.principal(k) }
