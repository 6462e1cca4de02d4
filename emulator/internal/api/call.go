package api

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"runtime/debug"

	"github.com/conform-harness/conform/emulator/internal/call"
)

// Call runs the route method path (relative to the prefix, path parameters
// filled in) for an already authenticated principal with JSON parameters,
// in process: the streams use it so that a request made over a stream is
// decoded, checked for rights and validated exactly as the same request
// over REST (no copy of the REST rules), without the REST rate limits (the
// streams count their own). It returns what the route answers.
func (rt *Router) Call(method, path string, p *Principal, params json.RawMessage) (v any, e *Error) {
	defer func() {
		if r := recover(); r != nil {
			rt.log.Error("handler panic", "method", method, "path", path, "panic", r, "stack", string(debug.Stack()))
			v, e = nil, Internal("the emulator failed: %v", r)
		}
	}()
	route, vars := rt.match(method, path)
	if route == nil {
		return nil, NotFound(method, path)
	}
	if !route.Public {
		if p == nil {
			return nil, AuthRequired()
		}
		if route.Right != "" && !p.Rights[route.Right] {
			return nil, Forbidden(route.Right)
		}
	}
	if b := bytes.TrimSpace(params); len(b) > 0 && string(b) != "null" && b[0] != '{' {
		return nil, Validation("params must be a JSON object")
	}
	pr, perr := JSONParams(bytes.TrimSpace(params))
	if perr != nil {
		return nil, perr
	}
	// Handlers may look at the HTTP request (only for its method and URL);
	// give them one that says what was called.
	hr := &http.Request{Method: method, URL: &url.URL{Path: rt.prefix + path}, Header: http.Header{}}
	req := call.NewRequest(hr, vars)
	req.Params, req.Principal = pr, p
	return route.Handle(req)
}
