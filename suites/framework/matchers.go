package framework

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/conform-harness/conform/client"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gcustom"
	"github.com/onsi/gomega/types"
)

// HaveStatus matches a *client.Exchange answered with the HTTP status; the
// failure shows the whole exchange.
func HaveStatus(status int) types.GomegaMatcher {
	return gcustom.MakeMatcher(func(ex *client.Exchange) (bool, error) {
		if ex == nil {
			return false, fmt.Errorf("HaveStatus: no exchange")
		}
		return ex.Err == nil && ex.Status == status, nil
	}).WithTemplate("expected: HTTP {{.Data}}\nexchange: {{.Actual}}", status)
}

// BeOK matches an exchange answered with HTTP 200 and a JSON body.
func BeOK() types.GomegaMatcher {
	return gcustom.MakeMatcher(func(ex *client.Exchange) (bool, error) {
		if ex == nil {
			return false, fmt.Errorf("BeOK: no exchange")
		}
		return ex.Err == nil && ex.Status == 200 && json.Valid(ex.Body), nil
	}).WithTemplate("expected: HTTP 200 with a JSON body\nexchange: {{.Actual}}")
}

// StatusClass4xx, given to BeAPIError as the status, matches any 4xx
// status: for a code the Errors table gives no HTTP status (20001), a
// refusal is all the document makes certain.
const StatusClass4xx = 4

// BeAPIError matches an exchange answered with the HTTP status (or any 4xx
// for StatusClass4xx) and a documented error body {error: {code, message,
// description?}} whose code is one of codes.
func BeAPIError(status int, codes ...int) types.GomegaMatcher {
	want := fmt.Sprintf("HTTP %d, error.code %s", status, joinInts(codes))
	match := func(got int) bool { return got == status }
	if status == StatusClass4xx {
		want = "HTTP 4xx, error.code " + joinInts(codes)
		match = func(got int) bool { return got >= 400 && got < 500 }
	}
	return gcustom.MakeMatcher(func(ex *client.Exchange) (bool, error) {
		if ex == nil {
			return false, fmt.Errorf("BeAPIError: no exchange")
		}
		if ex.Err != nil || !match(ex.Status) {
			return false, nil
		}
		e, ok := ex.APIError()
		return ok && slices.Contains(codes, e.Code), nil
	}).WithTemplate("expected: {{.Data}}\nexchange: {{.Actual}}", want)
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, " or ")
}

// JSONOf decodes an exchange's body (numbers kept as json.Number), failing
// the spec with the exchange when it is not JSON.
func JSONOf(ex *client.Exchange) any {
	GinkgoHelper() // a failure points at the spec's line, through ObjectOf and ArrayOf too
	v, err := ex.JSON()
	Expect(err).NotTo(HaveOccurred(), "exchange: %s", ex)
	return v
}

// ObjectOf decodes a JSON object body.
func ObjectOf(ex *client.Exchange) map[string]any {
	GinkgoHelper()
	v := JSONOf(ex)
	m, ok := v.(map[string]any)
	Expect(ok).To(BeTrue(), "expected a JSON object\nexchange: %s", ex)
	return m
}

// ArrayOf decodes a JSON array body.
func ArrayOf(ex *client.Exchange) []any {
	GinkgoHelper()
	v := JSONOf(ex)
	a, ok := v.([]any)
	Expect(ok).To(BeTrue(), "expected a JSON array\nexchange: %s", ex)
	return a
}

var plainDecimal = regexp.MustCompile(`^-?(0|[1-9]\d*)(\.\d+)?$`)

// Kind is the JSON type a field must have, as the spec types it.
type Kind int

// Field kinds. Lowercase "number" in the spec is a finance value carried as
// a decimal string (Conventions 2); "Number" is a JSON number.
const (
	String Kind = iota
	Bool
	Number   // JSON number
	Decimal  // decimal carried as a JSON string
	DateTime // ISO 8601 UTC string
	Object
	Array
)

var kindNames = [...]string{"String", "Boolean", "JSON number", "decimal string", "ISO 8601 UTC DateTime", "object", "array"}

func (k Kind) String() string { return kindNames[k] }

// IsKind reports whether a decoded JSON value has kind k.
func IsKind(v any, k Kind) bool {
	switch k {
	case String:
		_, ok := v.(string)
		return ok
	case Bool:
		_, ok := v.(bool)
		return ok
	case Number:
		_, ok := v.(json.Number)
		return ok
	case Decimal:
		s, ok := v.(string)
		return ok && plainDecimal.MatchString(s)
	case DateTime:
		s, ok := v.(string)
		return ok && isISOUTC(s)
	case Object:
		_, ok := v.(map[string]any)
		return ok
	case Array:
		_, ok := v.([]any)
		return ok
	}
	return false
}

func isISOUTC(s string) bool {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return false
	}
	_, off := t.Zone()
	return off == 0
}

// Field is one row of a resource table.
type Field struct {
	Kind     Kind
	Optional bool // may be absent
	Nullable bool // may be JSON null
}

// Schema maps field names to their rows.
type Schema map[string]Field

// MatchSchema matches a decoded JSON object whose fields have the schema's
// kinds: required fields present, and every present field of its kind. The
// failure lists each offending field with its value.
func MatchSchema(s Schema) types.GomegaMatcher {
	var problems []string
	return gcustom.MakeMatcher(func(actual any) (bool, error) {
		obj, ok := actual.(map[string]any)
		if !ok {
			problems = []string{fmt.Sprintf("not a JSON object: %#v", actual)}
			return false, nil
		}
		problems = SchemaProblems(obj, s)
		return len(problems) == 0, nil
	}).WithTemplate("expected the fields of the resource table:\n{{range .Data}}  {{.}}\n{{end}}object: {{.FormattedActual}}", &problems)
}

// SchemaProblems lists how obj departs from s.
func SchemaProblems(obj map[string]any, s Schema) []string {
	var out []string
	for name, f := range s {
		v, present := obj[name]
		switch {
		case !present && !f.Optional:
			out = append(out, fmt.Sprintf("%s: missing (want %s)", name, f.Kind))
		case !present:
		case v == nil && f.Nullable:
		case !IsKind(v, f.Kind):
			out = append(out, fmt.Sprintf("%s: %#v is not a %s", name, v, f.Kind))
		}
	}
	sort.Strings(out)
	return out
}

// BeDecimalString matches a plain decimal carried as a JSON string.
func BeDecimalString() types.GomegaMatcher {
	return gcustom.MakeMatcher(func(v any) (bool, error) { return IsKind(v, Decimal), nil }).
		WithTemplate("expected a decimal carried as a JSON string, got {{.FormattedActual}}")
}

// BeISOTimestamp matches an ISO 8601 UTC timestamp string.
func BeISOTimestamp() types.GomegaMatcher {
	return gcustom.MakeMatcher(func(v any) (bool, error) { return IsKind(v, DateTime), nil }).
		WithTemplate("expected an ISO 8601 UTC timestamp string, got {{.FormattedActual}}")
}
