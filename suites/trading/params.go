package trading

import "net/url"

// Params is a request (an order, a query) as a client builds it, every value
// a string.
type Params map[string]string

// With returns a copy of p with the key/value pairs set.
func (p Params) With(kv ...string) Params {
	out := Params{}
	for k, v := range p {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i]] = kv[i+1]
	}
	return out
}

// Without returns a copy of p without the keys.
func (p Params) Without(keys ...string) Params {
	out := p.With()
	for _, k := range keys {
		delete(out, k)
	}
	return out
}

// merged returns a copy of p with every key of q set to q's value.
func (p Params) merged(q Params) Params {
	out := p.With()
	for k, v := range q {
		out[k] = v
	}
	return out
}

// Form is p as a form body or query.
func (p Params) Form() url.Values {
	v := url.Values{}
	for k, x := range p {
		v.Set(k, x)
	}
	return v
}

// booleanParams travel as JSON booleans in a JSON body.
var booleanParams = map[string]bool{"strict_validate": true, "post_only": true, "reduce_only": true, "close_position": true}

// JSON is p as a JSON object: decimals stay strings (Conventions 2), the
// flags that the Order parameters type Boolean become booleans.
func (p Params) JSON() map[string]any {
	out := map[string]any{}
	for k, x := range p {
		if booleanParams[k] && (x == "true" || x == "false") {
			out[k] = x == "true"
			continue
		}
		out[k] = x
	}
	return out
}

func (p Params) String() string { return p.Form().Encode() }

// Encoding is how a POST body is sent; Conventions 3 allows both.
type Encoding int

// Body encodings.
const (
	FormBody Encoding = iota
	JSONBody
)

func (en Encoding) String() string { return [...]string{"form-encoded body", "JSON body"}[en] }
