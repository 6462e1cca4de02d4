// Package api is the emulator's HTTP plumbing shared by every API version:
// the route table, credentials, and the one adapter that writes answers and
// documented error bodies; the types of one call are in package call.
package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/emulator/internal/call"
)

// Authenticator checks the credentials of a request whose body has been read.
type Authenticator interface {
	Authenticate(r *http.Request, body []byte) (*Principal, *Error)
}

// Handler answers a request with a value to encode as JSON, or an error.
type Handler func(*Request) (any, *Error)

// Route is one row of an API version's route table.
type Route struct {
	Method string
	// Path is relative to the version prefix, with {name} segments.
	Path string
	// Public routes need no credentials; others need Right (empty: any key).
	Public bool
	Right  string
	Handle Handler
}

type compiled struct {
	Route
	segs []string
	// params holds, for each segment, the name of its {name} parameter
	// ("" for a literal segment); nparams counts them.
	params  []string
	nparams int
}

// Router serves one API version's route table under its prefix.
type Router struct {
	prefix  string
	routes  []compiled
	auth    Authenticator
	faults  *faults.Set
	log     *slog.Logger
	limiter Limiter
	// messages replace the message of an error code (a version whose
	// error table names a code differently).
	messages map[int]string
}

// SetMessages makes the router answer each error code with its message in
// m (the v2 error table names some codes differently from v3); call it
// before serving.
func (rt *Router) SetMessages(m map[int]string) { rt.messages = m }

// --- rate limits (emulator/internal/limits) ---

// Limiter enforces the rate limits of the v3 Limits section. Each method
// returns the error to answer with (HTTP 429) or nil to go on.
type Limiter interface {
	// AllowIP counts a request by its client address, before routing and
	// authentication, so unknown paths and failed credentials count too.
	// path is relative to the version prefix.
	AllowIP(r *http.Request, path string) *Error
	// AllowAccount counts an authenticated request against its account.
	AllowAccount(r *http.Request, path string, p *Principal) *Error
}

// SetLimiter installs the rate limiter (none by default); call it before
// serving.
func (rt *Router) SetLimiter(l Limiter) { rt.limiter = l }

// --- end of rate limits ---

// NewRouter builds a router; prefix is e.g. "/api/3".
func NewRouter(prefix string, routes []Route, auth Authenticator, f *faults.Set, log *slog.Logger) *Router {
	rt := &Router{prefix: prefix, auth: auth, faults: f, log: log}
	for _, r := range routes {
		c := compiled{Route: r, segs: strings.Split(strings.Trim(r.Path, "/"), "/")}
		c.params = make([]string, len(c.segs))
		for i, s := range c.segs {
			if strings.HasPrefix(s, "{") {
				c.params[i] = strings.Trim(s, "{}")
				c.nparams++
			}
		}
		rt.routes = append(rt.routes, c)
	}
	return rt
}

// splitPath appends the segments of p to dst, as strings.Split(p, "/")
// answers them, without allocating for a short path.
func splitPath(dst []string, p string) []string {
	for {
		seg, rest, ok := strings.Cut(p, "/")
		dst = append(dst, seg)
		if !ok {
			return dst
		}
		p = rest
	}
}

// match finds the first route of the table for the request, and its path
// parameters (nil for a route without any).
func (rt *Router) match(method, path string) (*compiled, map[string]string) {
	var arr [8]string
	segs := splitPath(arr[:0], strings.Trim(path, "/"))
	for i := range rt.routes {
		c := &rt.routes[i]
		if c.Method != method || len(c.segs) != len(segs) || !c.matches(segs) {
			continue
		}
		if c.nparams == 0 {
			return c, nil
		}
		vars := make(map[string]string, c.nparams)
		for j, name := range c.params {
			if name != "" {
				vars[name] = segs[j]
			}
		}
		return c, vars
	}
	return nil, nil
}

// matches reports whether segs (as many as the route's) fit the route: its
// literal segments equal, its parameters not empty.
func (c *compiled) matches(segs []string) bool {
	for j, s := range c.segs {
		if c.params[j] != "" {
			if segs[j] == "" {
				return false
			}
		} else if s != segs[j] {
			return false
		}
	}
	return true
}

// readBody reads a request body of at most MaxBody bytes (one more tells a
// larger one). A body of announced length is read into a buffer of that
// size; io.ReadAll would grow one from 512 bytes.
func readBody(body io.Reader, size int64) ([]byte, error) {
	if size < 0 || size > MaxBody {
		return io.ReadAll(io.LimitReader(body, MaxBody+1))
	}
	b := make([]byte, 0, size+1) // +1: room for the read that meets the end
	for {
		n, err := body.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		switch {
		case err == io.EOF:
			return b, nil
		case err != nil:
			return b, err
		case len(b) == cap(b): // longer than announced: the rest the long way
			rest, err := io.ReadAll(io.LimitReader(body, MaxBody+1-int64(len(b))))
			return append(b, rest...), err
		}
	}
}

// ServeHTTP implements http.Handler.
func (rt *Router) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	out := &Writer{Faults: rt.faults, Messages: rt.messages}
	defer func() {
		if p := recover(); p != nil {
			rt.log.Error("handler panic", "method", r.Method, "path", r.URL.Path, "panic", p, "stack", string(debug.Stack()))
			out.Error(w, r, Internal("the emulator failed: %v", p))
		}
	}()
	rel, ok := strings.CutPrefix(r.URL.Path, rt.prefix)
	if !ok {
		out.Error(w, r, NotFound(r.Method, r.URL.Path))
		return
	}
	if rt.limiter != nil { // rate limits: per IP, before anything else
		if lerr := rt.limiter.AllowIP(r, rel); lerr != nil {
			out.Error(w, r, lerr)
			return
		}
	}
	route, vars := rt.match(r.Method, rel)
	if route == nil {
		out.Error(w, r, NotFound(r.Method, r.URL.Path))
		return
	}
	body, err := readBody(r.Body, r.ContentLength)
	if err != nil {
		out.Error(w, r, Validation("reading the body: %v", err))
		return
	}
	if len(body) > MaxBody {
		out.Error(w, r, Validation("body larger than %d bytes", MaxBody))
		return
	}
	req := call.NewRequest(r, vars)
	needAuth := !route.Public || rt.faults.On("V3-AUTH-PUBLIC")
	if needAuth {
		p, aerr := rt.auth.Authenticate(r, body)
		switch {
		case aerr != nil && aerr.Code == 1001 && rt.faults.On("V3-AUTH-REQUIRED") && !route.Public && servedBare(rel):
			p = &Principal{Account: "anonymous", Rights: map[string]bool{route.Right: true}}
		case aerr != nil:
			out.Error(w, r, aerr)
			return
		}
		if rt.limiter != nil { // rate limits: per account, once it is known
			if lerr := rt.limiter.AllowAccount(r, rel, p); lerr != nil {
				out.Error(w, r, lerr)
				return
			}
		}
		if !rt.holds(p, route.Right) {
			out.Error(w, r, Forbidden(route.Right))
			return
		}
		req.Principal = p
	}
	params, perr := ParseParams(r, body, rt.faults)
	if perr != nil {
		out.Error(w, r, perr)
		return
	}
	req.Params = params
	v, herr := route.Handle(req)
	if herr != nil {
		out.Error(w, r, herr)
		return
	}
	out.JSON(w, r, rt.successStatus(r), v)
}

// successStatus is 200, or 201 for a POST under the V3-ERR-200 fault (on
// the v2 router, its alias V2-ERR-200).
func (rt *Router) successStatus(r *http.Request) int {
	if r.Method == http.MethodPost && rt.faults.On("V3-ERR-200") {
		return http.StatusCreated
	}
	return http.StatusOK
}

// Writer is the one adapter that writes answers and error bodies. The
// response-shape faults live here, so each breaks its rule everywhere at once.
type Writer struct {
	Faults *faults.Set
	// Messages, when set, name error codes (see Router.SetMessages).
	Messages map[int]string
}

// Error writes a documented error body.
func (wr *Writer) Error(w http.ResponseWriter, r *http.Request, e *Error) {
	status := e.Status
	switch {
	case (e.Code == 1001 || e.Code == 1002) && wr.Faults.On("V3-ERR-401"):
		status = http.StatusBadRequest
	case e.Code == 1003 && wr.Faults.On("V3-ERR-1003"):
		status = http.StatusUnauthorized
	case e.Code == 2001 && wr.Faults.On("V3-ERR-2001"):
		status = http.StatusNotFound
	case e.Code == 2002 && wr.Faults.On("V3-ERR-2002"):
		e = SymbolNotFound("(currency)")
	case e.Code == 10001 && wr.Faults.On("V3-ERR-MESSAGES"):
		e = &Error{Status: e.Status, Code: e.Code, Message: "Invalid parameters", Description: e.Description}
	case status == http.StatusNotFound && wr.Faults.On("V3-ERR-404"):
		wr.JSON(w, r, http.StatusOK, map[string]any{})
		return
	}
	msg := e.Message
	if m, ok := wr.Messages[e.Code]; ok {
		msg = m
	}
	inner := map[string]any{"code": e.Code, "message": msg}
	if e.Description != "" {
		inner["description"] = e.Description
	}
	var body any = map[string]any{"error": inner}
	if wr.Faults.On("V3-ERR-BODY") {
		body = inner
	}
	wr.write(w, r, status, body)
}

// JSON writes a successful answer.
func (wr *Writer) JSON(w http.ResponseWriter, r *http.Request, status int, v any) {
	if wr.Faults.On("V3-CONV-DECIMAL-STRING") || wr.Faults.On("V3-CONV-TIMESTAMP") || wr.Faults.On("V3-CONV-NUMBER-TYPE") {
		v = wr.mangle(v)
	}
	wr.write(w, r, status, v)
}

// jsonType is every answer's Content-Type, one slice for all: net/http
// only reads a header's values (WriteHeader copies them).
var jsonType = []string{"application/json; charset=utf-8"}

func (wr *Writer) write(w http.ResponseWriter, r *http.Request, status int, v any) {
	bp := bodies.Get().(*[]byte)
	body, err := encode((*bp)[:0], v)
	if err != nil {
		body = fmt.Appendf(body[:0], `{"error":{"code":500,"message":"Internal Server Error","description":%q}}`+"\n", err.Error())
		status = http.StatusInternalServerError
	}
	// The header map is written directly: its keys are canonical already,
	// and Set would canonicalize them again on every answer.
	h := w.Header()
	h["Content-Type"] = jsonType
	// An explicit length lets HTTP/1.0 keep-alive clients keep the connection.
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	if wr.Faults.On("V3-CONV-KEEPALIVE") || (r.ProtoMajor == 1 && r.ProtoMinor == 0 && wr.Faults.On("V3-CONV-KEEPALIVE-HTTP10")) {
		h.Set("Connection", "close")
	}
	w.WriteHeader(status)
	_, _ = w.Write(body)
	if cap(body) <= maxPooled {
		*bp = body
		bodies.Put(bp)
	}
}

var (
	plainDecimal = regexp.MustCompile(`^-?\d+(\.\d+)?$`)
)

// mangle applies the encoding faults to an answer by re-reading it as
// generic JSON.
func (wr *Writer) mangle(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var g any
	if dec.Decode(&g) != nil {
		return v
	}
	return wr.walk(g)
}

func (wr *Writer) walk(g any) any {
	switch t := g.(type) {
	case map[string]any:
		for k, x := range t {
			t[k] = wr.walk(x)
		}
	case []any:
		for i, x := range t {
			t[i] = wr.walk(x)
		}
	case string:
		if wr.Faults.On("V3-CONV-DECIMAL-STRING") && plainDecimal.MatchString(t) {
			return json.Number(t)
		}
		if wr.Faults.On("V3-CONV-TIMESTAMP") {
			if ts, err := time.Parse(time.RFC3339Nano, t); err == nil {
				return ts.Unix()
			}
		}
	case json.Number:
		if wr.Faults.On("V3-CONV-NUMBER-TYPE") && !strings.ContainsAny(string(t), ".eE") {
			return string(t)
		}
	}
	return g
}
