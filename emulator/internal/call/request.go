package call

import "net/http"

// Principal is the authenticated caller of a private endpoint.
type Principal struct {
	Account string
	APIKey  string
	// Rights is shared by every principal of the key: read it, never
	// write it.
	Rights map[string]bool
}

// Request is what a handler sees.
type Request struct {
	HTTP      *http.Request
	Params    Params
	Principal *Principal // nil on public endpoints
	path      map[string]string
}

// NewRequest is a request for h whose path parameters are path; the router
// fills in Params and Principal.
func NewRequest(h *http.Request, path map[string]string) *Request {
	return &Request{HTTP: h, path: path}
}

// PathValue returns the path parameter {name}.
func (r *Request) PathValue(name string) string { return r.path[name] }
