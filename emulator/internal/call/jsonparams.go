package call

import "encoding/json"

// JSONParams decodes a JSON object of parameters (the params of a stream
// request), with the same reading of scalars as a JSON request body. Empty
// or null params are no parameters.
func JSONParams(raw json.RawMessage) (Params, *Error) {
	p := Params{values: map[string]string{}, raw: map[string]json.RawMessage{}}
	if len(raw) == 0 || string(raw) == "null" {
		return p, nil
	}
	return p, p.addJSON(raw)
}
