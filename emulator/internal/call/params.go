package call

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/conform-harness/conform/emulator/faults"
	"github.com/shopspring/decimal"
)

// MaxBody bounds request bodies; a larger one is a validation error.
const MaxBody = 1 << 20

// Params are a request's parameters: the query string for GET, and the body
// (form-encoded or JSON) merged over the query for other methods.
type Params struct {
	values map[string]string
	// raw keeps JSON values that are not scalars (arrays, objects), for
	// endpoints such as order lists that take structured bodies.
	raw map[string]json.RawMessage
}

// ParseParams decodes the parameters of r whose body has already been read.
// The faults V3-CONV-GET-QUERY, V3-CONV-BODY-FORM and V3-CONV-BODY-JSON drop
// the query of GET requests, form bodies and JSON bodies respectively.
func ParseParams(r *http.Request, body []byte, f *faults.Set) (Params, *Error) {
	p := Params{values: make(map[string]string, 8)}
	if r.URL.RawQuery != "" && (!f.On("V3-CONV-GET-QUERY") || r.Method != http.MethodGet) {
		q, err := url.ParseQuery(r.URL.RawQuery)
		if err != nil {
			return p, Validation("malformed query string: %v", err)
		}
		if e := p.addValues(q); e != nil {
			return p, e
		}
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return p, nil
	}
	ctype := r.Header.Get("Content-Type")
	if ctype != formType { // what clients send, needing no parsing
		ctype, _, _ = mime.ParseMediaType(ctype)
	}
	switch {
	case ctype == "application/json" || strings.HasSuffix(ctype, "+json") ||
		(ctype == "" && (body[0] == '{' || body[0] == '[')):
		if f.On("V3-CONV-BODY-JSON") {
			return p, nil
		}
		p.raw = map[string]json.RawMessage{}
		return p, p.addJSON(body)
	default: // form-encoded, which is also what clients send without a type
		if f.On("V3-CONV-BODY-FORM") {
			return p, nil
		}
		form := string(body)
		if p.addPlainForm(form) {
			return p, nil
		}
		v, err := url.ParseQuery(form)
		if err != nil {
			return p, Validation("malformed form body: %v", err)
		}
		return p, p.addValues(v)
	}
}

const formType = "application/x-www-form-urlencoded"

// maxPlainPairs bounds the pairs addPlainForm reads, far below the limit
// url.ParseQuery enforces on their number.
const maxPlainPairs = 64

// addPlainForm adds the pairs of a form body that holds no escapes,
// semicolons or repeated names, as url.ParseQuery and addValues would,
// without building url.Values; it answers false, having added nothing,
// for any other body, which then goes the long way with its errors.
func (p Params) addPlainForm(form string) bool {
	if len(p.values) != 0 || strings.ContainsAny(form, "%+;") || strings.Count(form, "&") >= maxPlainPairs {
		return false
	}
	for form != "" {
		var pair string
		pair, form, _ = strings.Cut(form, "&")
		if pair == "" {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		if _, dup := p.values[k]; dup {
			clear(p.values)
			return false
		}
		p.values[k] = v
	}
	return true
}

func (p Params) addValues(v url.Values) *Error {
	for k, vs := range v {
		if len(vs) > 1 {
			return Validation("parameter %s given %d times", k, len(vs))
		}
		p.values[k] = vs[0]
	}
	return nil
}

func (p Params) addJSON(body []byte) *Error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var obj map[string]json.RawMessage
	if err := dec.Decode(&obj); err != nil {
		return Validation("malformed JSON body: %v", err)
	}
	if dec.More() {
		return Validation("malformed JSON body: trailing data")
	}
	for k, raw := range obj {
		raw = bytes.TrimSpace(raw)
		switch {
		case len(raw) == 0 || string(raw) == "null":
			continue
		case raw[0] == '"':
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				return Validation("parameter %s: %v", k, err)
			}
			p.values[k] = s
		case raw[0] == '{' || raw[0] == '[':
			p.raw[k] = raw
		default: // number or boolean, kept as written
			p.values[k] = string(raw)
		}
	}
	return nil
}

// Has reports whether the parameter was sent.
func (p Params) Has(name string) bool {
	_, ok := p.values[name]
	_, okRaw := p.raw[name]
	return ok || okRaw
}

// String returns a scalar parameter.
func (p Params) String(name string) (string, bool) {
	v, ok := p.values[name]
	return v, ok
}

// Raw returns a structured JSON parameter.
func (p Params) Raw(name string) (json.RawMessage, bool) {
	v, ok := p.raw[name]
	return v, ok
}

// List splits a comma-separated parameter; absent or empty gives nil.
func (p Params) List(name string) []string {
	v := strings.TrimSpace(p.values[name])
	if v == "" {
		return nil
	}
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// Enum returns the parameter, which must be one of allowed; def when absent.
func (p Params) Enum(name, def string, allowed ...string) (string, *Error) {
	v, ok := p.values[name]
	if !ok {
		return def, nil
	}
	for _, a := range allowed {
		if v == a {
			return v, nil
		}
	}
	return "", Validation("%s must be one of %s, got %q", name, strings.Join(allowed, ", "), v)
}

// Int returns an integer parameter within [min, max]; def when absent.
func (p Params) Int(name string, def, min, max int64) (int64, *Error) {
	v, ok := p.values[name]
	if !ok {
		return def, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, Validation("%s must be an integer, got %q", name, v)
	}
	if n < min || n > max {
		return 0, Validation("%s must be from %d to %d, got %d", name, min, max, n)
	}
	return n, nil
}

// Bool returns a boolean parameter; def when absent.
func (p Params) Bool(name string, def bool) (bool, *Error) {
	v, ok := p.values[name]
	if !ok {
		return def, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, Validation("%s must be true or false, got %q", name, v)
	}
	return b, nil
}

// Time returns a DateTime parameter (ISO 8601, or Unix milliseconds).
func (p Params) Time(name string) (time.Time, bool, *Error) {
	v, ok := p.values[name]
	if !ok {
		return time.Time{}, false, nil
	}
	t, err := ParseTime(v)
	if err != nil {
		return time.Time{}, false, Validation("%s: %v", name, err)
	}
	return t, true, nil
}

// ParseTime reads an ISO 8601 timestamp or Unix milliseconds.
func ParseTime(v string) (time.Time, error) {
	if ms, err := strconv.ParseInt(v, 10, 64); err == nil {
		if ms < 0 || ms > 253402300799999 {
			return time.Time{}, fmt.Errorf("timestamp %q out of range", v)
		}
		return time.UnixMilli(ms).UTC(), nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, v); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not an ISO 8601 timestamp or Unix milliseconds", v)
}

// Decimal returns a decimal parameter. Exponent forms are refused: finance
// values are plain decimals.
func (p Params) Decimal(name string) (decimal.Decimal, bool, *Error) {
	v, ok := p.values[name]
	if !ok {
		return decimal.Decimal{}, false, nil
	}
	d, err := ParseDecimal(v)
	if err != nil {
		return decimal.Decimal{}, false, Validation("%s: %v", name, err)
	}
	return d, true, nil
}

// ParseDecimal reads a plain decimal (digits, optional sign and point) of
// bounded length, so that a huge value cannot cost unbounded work.
func ParseDecimal(v string) (decimal.Decimal, error) {
	if len(v) == 0 || len(v) > 64 || strings.ContainsAny(v, "eE") {
		return decimal.Decimal{}, fmt.Errorf("%q is not a plain decimal of at most 64 characters", v)
	}
	d, err := decimal.NewFromString(v)
	if err != nil {
		return decimal.Decimal{}, fmt.Errorf("%q is not a decimal", v)
	}
	return d, nil
}
