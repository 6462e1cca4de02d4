package api

import (
	"bytes"
	"encoding/json"
	"sync"
)

// JSONAppender is an answer that writes its own JSON: byte for byte what
// encoding/json (HTML escaping off) writes for the value, without its
// reflection. The writer uses it for answers that no encoding fault
// re-reads; a test beside each implementation holds it to encoding/json.
type JSONAppender interface {
	AppendJSON(b []byte) []byte
}

// AppendString appends s as encoding/json writes a string with HTML
// escaping off. Printable ASCII needing no escape is copied; anything else
// goes through encoding/json.
func AppendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
			return AppendAny(b, s)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// AppendAny appends v as encoding/json writes it with HTML escaping off
// (null if it cannot be encoded, which the answers appended never hold).
func AppendAny(b []byte, v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return append(b, "null"...)
	}
	return append(b, bytes.TrimSuffix(buf.Bytes(), []byte{'\n'})...)
}

// encode appends v and a newline to b as json.Encoder with HTML escaping
// off writes them.
func encode(b []byte, v any) ([]byte, error) {
	if a, ok := v.(JSONAppender); ok {
		return append(a.AppendJSON(b), '\n'), nil
	}
	buf := bytes.NewBuffer(b)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(v)
	return buf.Bytes(), err
}

// bodies are the buffers answers are encoded into: ResponseWriter.Write
// copies what it is given, so a buffer is free again once it returns.
var bodies = sync.Pool{New: func() any { b := make([]byte, 0, 2048); return &b }}

// maxPooled keeps a huge answer's buffer (a long order list) out of the
// pool.
const maxPooled = 64 << 10
