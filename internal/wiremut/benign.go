package wiremut

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode"
)

// The benign kinds: wire differences the documents allow, which a
// conformance suite must not fail a target for. Body kinds rewrite the JSON
// of answers and server frames; transport kinds change how the same bytes
// travel. A benign Mutation applies to HTTP answers and WebSocket frames
// alike (under Path), and may combine several kinds (Also).
const (
	// AddField adds an unknown field to every record object, at any depth:
	// objects keyed by data (symbols, currencies: no key with a lower-case
	// letter) and empty objects are left alone, since a key there would be
	// a new entry, not a new field.
	AddField Kind = "add-field"
	// ReorderKeys writes every object's keys in the reverse of their order.
	ReorderKeys Kind = "reorder-keys"
	// Pretty indents the JSON and surrounds it with whitespace.
	Pretty Kind = "pretty"
	// Gzip compresses HTTP answers (Content-Encoding: gzip) whose request
	// accepted gzip.
	Gzip Kind = "gzip"
	// Chunked sends HTTP/1.1 answers with chunked transfer encoding, in
	// small chunks, instead of a Content-Length (HTTP/1.0 has no chunks).
	Chunked Kind = "chunked"
	// ExtraHeader adds unknown response headers and writes every header
	// name in lower case.
	ExtraHeader Kind = "extra-header"
	// CloseSometimes closes every client connection after its fourth
	// answer (Connection: close), so clients must open new connections.
	CloseSometimes Kind = "close-sometimes"
	// Delay holds every answer and server frame 5 to 20 ms.
	Delay Kind = "delay"
	// Fragment sends every server WebSocket message as several frames.
	Fragment Kind = "fragment"
	// PingInterleave sends a WebSocket ping before every server message.
	PingInterleave Kind = "ping-interleave"
)

// benignKinds are the kinds above; a Mutation made only of them is benign.
var benignKinds = map[Kind]bool{AddField: true, ReorderKeys: true, Pretty: true, Gzip: true, Chunked: true,
	ExtraHeader: true, CloseSometimes: true, Delay: true, Fragment: true, PingInterleave: true}

// ExtraFieldName is the unknown field AddField adds.
const ExtraFieldName = "x_wiremut_extra"

// kinds lists the mutation's kinds: Kind, then Also.
func (m Mutation) kinds() []Kind { return append([]Kind{m.Kind}, m.Also...) }

// has reports whether k is one of the mutation's kinds.
func (m Mutation) has(k Kind) bool {
	for _, x := range m.kinds() {
		if x == k {
			return true
		}
	}
	return false
}

// Benign reports whether every kind of m is a benign kind.
func (m Mutation) Benign() bool {
	for _, k := range m.kinds() {
		if !benignKinds[k] {
			return false
		}
	}
	return true
}

// rewritesBody reports whether a benign mutation changes the JSON text.
func (m Mutation) rewritesBody() bool { return m.has(AddField) || m.has(ReorderKeys) || m.has(Pretty) }

// applyBenign rewrites a JSON document with the mutation's body kinds,
// keeping everything else (key order, number text) as it was.
func (m Mutation) applyBenign(body []byte) ([]byte, bool) {
	if !m.rewritesBody() {
		return body, false
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	n, err := parseNode(dec)
	if err != nil {
		return body, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return body, false // trailing data: not one JSON document
	}
	var b bytes.Buffer
	n.write(&b, m.has(AddField), m.has(ReorderKeys), "")
	out := b.Bytes()
	if m.has(Pretty) {
		var p bytes.Buffer
		if err := json.Indent(&p, out, "", "   "); err != nil {
			return body, false
		}
		out = append(append([]byte("\n  "), p.Bytes()...), "\n\n"...)
	}
	if bytes.Equal(out, body) {
		return body, false
	}
	return out, true
}

// node is a JSON value with its object keys in document order.
type node struct {
	obj, arr bool
	keys     []string // obj
	vals     []*node  // obj and arr
	leaf     []byte   // encoded scalar
}

func parseNode(dec *json.Decoder) (*node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		n := &node{obj: t == '{', arr: t == '['}
		for dec.More() {
			if n.obj {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				ks, ok := k.(string)
				if !ok {
					return nil, fmt.Errorf("object key %v", k)
				}
				n.keys = append(n.keys, ks)
			}
			v, err := parseNode(dec)
			if err != nil {
				return nil, err
			}
			n.vals = append(n.vals, v)
		}
		if _, err := dec.Token(); err != nil { // the closing delimiter
			return nil, err
		}
		return n, nil
	case json.Number:
		return &node{leaf: []byte(t)}, nil
	default:
		b, err := json.Marshal(t)
		if err != nil {
			return nil, err
		}
		return &node{leaf: b}, nil
	}
}

// record reports whether an object holds fields (some key has a lower-case
// letter) rather than entries keyed by data such as symbols.
func (n *node) record() bool {
	for _, k := range n.keys {
		if strings.IndexFunc(k, unicode.IsLower) >= 0 {
			return true
		}
	}
	return false
}

// stringMaps are objects whose keys are open but whose values the
// documents type as strings (v3 Network.asset_id: "keys depend on the
// network; values are strings"): AddField adds a string there.
var stringMaps = map[string]bool{"asset_id": true}

// write encodes n, which is the value of key in its parent object.
func (n *node) write(b *bytes.Buffer, addField, reverse bool, key string) {
	switch {
	case n.obj:
		b.WriteByte('{')
		idx := make([]int, len(n.keys))
		for i := range idx {
			idx[i] = i
			if reverse {
				idx[i] = len(n.keys) - 1 - i
			}
		}
		first := true
		if addField && n.record() {
			extra := `{"note":"benign","n":1,"list":[1,"a",null]}`
			if stringMaps[key] {
				extra = `"benign"`
			}
			b.WriteString(`"` + ExtraFieldName + `":` + extra)
			first = false
		}
		for _, i := range idx {
			if !first {
				b.WriteByte(',')
			}
			first = false
			k, _ := json.Marshal(n.keys[i])
			b.Write(k)
			b.WriteByte(':')
			n.vals[i].write(b, addField, reverse, n.keys[i])
		}
		b.WriteByte('}')
	case n.arr:
		b.WriteByte('[')
		for i, v := range n.vals {
			if i > 0 {
				b.WriteByte(',')
			}
			v.write(b, addField, reverse, key)
		}
		b.WriteByte(']')
	default:
		b.Write(n.leaf)
	}
}
