// Package wiremut corrupts an exchange API's answers on the wire: a reverse
// proxy for HTTP and WebSocket that applies one deterministic Mutation to
// the responses (or server frames) its selector names. It measures how many
// wire-level corruptions the conformance suite lets through, which the
// emulator's own faults (`conform mutate`) cannot tell: those break a rule
// inside the emulator, these break the bytes between it and the harness.
package wiremut

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Kind names what a Mutation does to a JSON document.
type Kind string

// The mutation kinds. Every kind is deterministic given the document, the
// Mutation's Field/From/To and its Seed (which picks the occurrence where a
// kind touches one value only).
const (
	// DropField deletes Field from every object, at any depth.
	DropField Kind = "drop-field"
	// DecimalToNumber turns one decimal string (of Field, or any when Field
	// is empty) into a JSON number: "0.01" becomes 0.01.
	DecimalToNumber Kind = "decimal-to-number"
	// StringToBool turns every string value of Field into true.
	StringToBool Kind = "string-to-bool"
	// NumberToString turns every number value of Field into a string.
	NumberToString Kind = "number-to-string"
	// SetValue replaces every value of Field with To (an undocumented enum
	// value, for instance).
	SetValue Kind = "set-value"
	// Status changes the HTTP status From into To (HTTP only).
	Status Kind = "status"
	// ErrorCode changes error.code From into To.
	ErrorCode Kind = "error-code"
	// TimeToUnix turns every RFC 3339 timestamp of Field (any when empty)
	// into Unix seconds.
	TimeToUnix Kind = "time-to-unix"
	// ReverseArrays reverses every array of two or more elements (the one
	// named Field when set).
	ReverseArrays Kind = "reverse-arrays"
	// TruncateArrays drops the last element of every array of two or more
	// elements (the one named Field when set).
	TruncateArrays Kind = "truncate-arrays"
	// ShiftID adds 1000 to the numeric id of a top-level object: a
	// JSON-RPC response echoing another request's id.
	ShiftID Kind = "shift-id"
)

// Mutation is one corruption and the answers it applies to.
type Mutation struct {
	Name string // short identifier for tables
	Kind Kind
	// Also are further kinds applied with Kind (benign combinations).
	Also []Kind
	// Selector: Method ("" any) and a path prefix for HTTP; for WebSocket,
	// WS is set, Path prefixes the stream's path and Match, when set, must
	// occur in the frame's text.
	Method string
	Path   string
	WS     bool
	Match  string
	Field  string
	From   string
	To     string
	Seed   int
	// Areas is the conform label filter of the suite areas the mutation
	// targets (the runner's --label-filter).
	Areas string
}

// String describes the mutation for tables.
func (m Mutation) String() string {
	sel := m.Method + " " + m.Path
	if m.WS {
		sel = "WS " + m.Path
		if m.Match != "" {
			sel += " " + m.Match
		}
	}
	arg := m.Field
	if m.From != "" || m.To != "" {
		arg += " " + m.From + "->" + m.To
	}
	kind := string(m.Kind)
	for _, k := range m.Also {
		kind += "+" + string(k)
	}
	return fmt.Sprintf("%s %s [%s]", kind, strings.TrimSpace(arg), strings.TrimSpace(sel))
}

// decimalRe is a decimal string with a fraction (any field), numericRe any
// numeric string (a named field, where "27000" is a decimal too).
var (
	decimalRe = regexp.MustCompile(`^-?[0-9]+\.[0-9]+$`)
	numericRe = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?$`)
)

// Apply returns body with the mutation applied and whether anything changed.
// A body that is not JSON comes back unchanged.
func (m Mutation) Apply(body []byte) ([]byte, bool) {
	if m.Benign() {
		return m.applyBenign(body)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return body, false
	}
	if m.Kind == ShiftID {
		return shiftID(doc, body)
	}
	w := walker{m: m}
	doc = w.walk(doc, "")
	if w.changed == 0 {
		return body, false
	}
	out, err := json.Marshal(doc)
	if err != nil {
		return body, false
	}
	return out, true
}

// walker applies a mutation over a decoded document.
type walker struct {
	m       Mutation
	seen    int // occurrences eligible for a single-value kind
	changed int
}

func (w *walker) named(key string) bool { return w.m.Field == "" || key == w.m.Field }

func (w *walker) walk(v any, key string) any {
	switch t := v.(type) {
	case map[string]any:
		if w.m.Kind == DropField {
			if _, ok := t[w.m.Field]; ok {
				delete(t, w.m.Field)
				w.changed++
			}
		}
		if w.m.Kind == ErrorCode && key == "error" {
			if c, ok := t["code"]; ok && fmt.Sprint(c) == w.m.From {
				n, err := strconv.Atoi(w.m.To)
				if err == nil {
					t["code"] = n
					w.changed++
				}
			}
		}
		// Keys in order, so "the first decimal" is the same on every run.
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			t[k] = w.walk(t[k], k)
		}
		return t
	case []any:
		for i, c := range t {
			t[i] = w.walk(c, key)
		}
		if len(t) >= 2 && (w.m.Field == "" || key == w.m.Field) {
			switch w.m.Kind {
			case ReverseArrays:
				for i, j := 0, len(t)-1; i < j; i, j = i+1, j-1 {
					t[i], t[j] = t[j], t[i]
				}
				w.changed++
			case TruncateArrays:
				w.changed++
				return t[:len(t)-1]
			}
		}
		return t
	case string:
		return w.leafString(t, key)
	case json.Number:
		if w.m.Kind == NumberToString && key == w.m.Field {
			w.changed++
			return string(t)
		}
	}
	if w.m.Kind == SetValue && key == w.m.Field {
		w.changed++
		return w.m.To
	}
	return v
}

func (w *walker) leafString(s, key string) any {
	switch w.m.Kind {
	case DecimalToNumber:
		if (w.m.Field == "" && decimalRe.MatchString(s)) || (key == w.m.Field && numericRe.MatchString(s)) {
			w.seen++
			if w.seen == w.m.Seed+1 {
				w.changed++
				return json.Number(s)
			}
		}
	case StringToBool:
		if key == w.m.Field {
			w.changed++
			return true
		}
	case SetValue:
		if key == w.m.Field {
			w.changed++
			return w.m.To
		}
	case TimeToUnix:
		if w.named(key) {
			if ts, err := time.Parse(time.RFC3339Nano, s); err == nil {
				w.changed++
				return ts.Unix()
			}
		}
	}
	return s
}

// shiftID moves a top-level numeric id by 1000.
func shiftID(doc any, body []byte) ([]byte, bool) {
	o, ok := doc.(map[string]any)
	if !ok {
		return body, false
	}
	n, ok := o["id"].(json.Number)
	if !ok {
		return body, false
	}
	i, err := n.Int64()
	if err != nil {
		return body, false
	}
	o["id"] = i + 1000
	out, err := json.Marshal(o)
	if err != nil {
		return body, false
	}
	return out, true
}
