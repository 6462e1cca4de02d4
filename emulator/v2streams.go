package emulator

import (
	"time"

	"github.com/conform-harness/conform/emulator/internal/jsonrpc"
)

// BearerToken is a token the v2 streams' BEARER login accepts for the key
// pair until exp (beyond the contract: the document's authentication
// service is not shown): a JWT signed HS256 with the secret, whose sub is
// the API key.
func BearerToken(apiKey, secret string, exp time.Time) string {
	return jsonrpc.BearerToken(apiKey, secret, exp)
}
