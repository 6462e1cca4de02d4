package load

import (
	"fmt"
	"net/url"
	"strings"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// ParseBase checks a target's REST base URL (before /api/3) and returns it
// without a trailing slash.
func ParseBase(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimRight(raw, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("target %q: want an http(s) base URL such as https://api.example.com", raw)
	}
	if strings.Contains(u.Path, "/api/") {
		return nil, fmt.Errorf("target %q: give the base URL without /api/3", raw)
	}
	return u, nil
}

// origin is scheme://host of u, the only place a run may send to.
func origin(u *url.URL) string { return u.Scheme + "://" + u.Host }

// Confine wraps a targeter so that it fails (which stops the attack) as
// soon as it builds a request for anywhere but base's scheme and host. The
// scenarios build every URL from base; this is the guard that keeps a bug
// or a redirect-minded change from aiming the load at anything else.
func Confine(base *url.URL, tr vegeta.Targeter) vegeta.Targeter {
	prefix := origin(base) + "/"
	return func(t *vegeta.Target) error {
		if err := tr(t); err != nil {
			return err
		}
		if !strings.HasPrefix(t.URL, prefix) {
			return fmt.Errorf("load: refusing to send %s %s: not on the target %s", t.Method, t.URL, origin(base))
		}
		return nil
	}
}
