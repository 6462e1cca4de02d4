package junit

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
)

// A validator for the subset of XML Schema that testdata/junit-10.xsd uses,
// so that the JUnit output is checked against the schema CI systems use
// without xmllint or cgo: global elements, named simple types restricted by
// a pattern, named and anonymous complex types (mixed or not) with
// attributes (required or optional) and children in sequences and choices
// (element refs and local elements). Order and occurrence bounds are not
// checked: every content model of this schema is an unbounded choice or a
// one-element sequence. A schema construct the validator does not know
// fails the test rather than being ignored.

type node struct {
	name     string
	attrs    map[string]string
	children []*node
	text     string
}

func parseTree(r io.Reader) (*node, error) {
	d := xml.NewDecoder(r)
	var stack []*node
	var root *node
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return root, nil
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			n := &node{name: t.Name.Local, attrs: map[string]string{}}
			for _, a := range t.Attr {
				if a.Name.Space == "xmlns" || a.Name.Local == "xmlns" {
					continue
				}
				n.attrs[a.Name.Local] = a.Value
			}
			if len(stack) > 0 {
				p := stack[len(stack)-1]
				p.children = append(p.children, n)
			} else {
				root = n
			}
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text += string(t)
			}
		}
	}
}

type attrDef struct {
	required bool
	pattern  *regexp.Regexp
}

type typeDef struct {
	textOnly bool // a simple type: text, no attributes or children
	mixed    bool
	attrs    map[string]attrDef
	children map[string]*elemDef
}

type elemDef struct {
	ref     string // a global element
	typ     *typeDef
	typName string
}

type schema struct {
	elements map[string]*elemDef
	types    map[string]*typeDef
	patterns map[string]*regexp.Regexp
}

func loadSchema(path string) (*schema, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	root, err := parseTree(f)
	if err != nil {
		return nil, err
	}
	s := &schema{elements: map[string]*elemDef{}, types: map[string]*typeDef{}, patterns: map[string]*regexp.Regexp{}}
	for _, c := range root.children {
		switch c.name {
		case "simpleType":
			re, err := simplePattern(c)
			if err != nil {
				return nil, err
			}
			s.patterns[c.attrs["name"]] = re
		case "complexType":
			t, err := s.complexType(c)
			if err != nil {
				return nil, err
			}
			s.types[c.attrs["name"]] = t
		case "element":
			e, err := s.element(c)
			if err != nil {
				return nil, err
			}
			s.elements[c.attrs["name"]] = e
		default:
			return nil, fmt.Errorf("schema: unsupported top-level xs:%s", c.name)
		}
	}
	return s, nil
}

func simplePattern(n *node) (*regexp.Regexp, error) {
	if len(n.children) != 1 || n.children[0].name != "restriction" || n.children[0].attrs["base"] != "xs:string" {
		return nil, fmt.Errorf("schema: unsupported simpleType %q", n.attrs["name"])
	}
	r := n.children[0]
	if len(r.children) != 1 || r.children[0].name != "pattern" {
		return nil, fmt.Errorf("schema: unsupported restriction in %q", n.attrs["name"])
	}
	return regexp.Compile("^(?:" + r.children[0].attrs["value"] + ")$")
}

func (s *schema) element(n *node) (*elemDef, error) {
	if ref := n.attrs["ref"]; ref != "" {
		return &elemDef{ref: ref}, nil
	}
	if t := n.attrs["type"]; t != "" {
		if t == "xs:string" {
			return &elemDef{typ: &typeDef{textOnly: true}}, nil
		}
		return &elemDef{typName: t}, nil
	}
	if len(n.children) != 1 || n.children[0].name != "complexType" {
		return nil, fmt.Errorf("schema: element %q without a type", n.attrs["name"])
	}
	t, err := s.complexType(n.children[0])
	return &elemDef{typ: t}, err
}

func (s *schema) complexType(n *node) (*typeDef, error) {
	t := &typeDef{mixed: n.attrs["mixed"] == "true", attrs: map[string]attrDef{}, children: map[string]*elemDef{}}
	var content func(*node) error
	content = func(c *node) error {
		switch c.name {
		case "sequence", "choice":
			for _, cc := range c.children {
				if err := content(cc); err != nil {
					return err
				}
			}
		case "element":
			e, err := s.element(c)
			if err != nil {
				return err
			}
			name := c.attrs["name"]
			if e.ref != "" {
				name = e.ref
			}
			t.children[name] = e
		default:
			return fmt.Errorf("schema: unsupported xs:%s in a content model", c.name)
		}
		return nil
	}
	for _, c := range n.children {
		switch c.name {
		case "attribute":
			a := attrDef{required: c.attrs["use"] == "required"}
			if typ := c.attrs["type"]; typ != "xs:string" {
				re, ok := s.patterns[typ]
				if !ok {
					return nil, fmt.Errorf("schema: unknown attribute type %q", typ)
				}
				a.pattern = re
			}
			t.attrs[c.attrs["name"]] = a
		case "sequence", "choice":
			if err := content(c); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("schema: unsupported xs:%s in a complexType", c.name)
		}
	}
	return t, nil
}

func (s *schema) resolve(e *elemDef) (*typeDef, error) {
	switch {
	case e.ref != "":
		g, ok := s.elements[e.ref]
		if !ok {
			return nil, fmt.Errorf("schema: unknown element ref %q", e.ref)
		}
		return s.resolve(g)
	case e.typ != nil:
		return e.typ, nil
	}
	t, ok := s.types[e.typName]
	if !ok {
		return nil, fmt.Errorf("schema: unknown type %q", e.typName)
	}
	return t, nil
}

// validate returns every violation of the document against the schema.
func (s *schema) validate(doc []byte) []string {
	root, err := parseTree(bytes.NewReader(doc))
	if err != nil {
		return []string{"not well-formed XML: " + err.Error()}
	}
	g, ok := s.elements[root.name]
	if !ok {
		return []string{fmt.Sprintf("root element <%s> is not declared", root.name)}
	}
	var errs []string
	var walk func(n *node, e *elemDef, path string)
	walk = func(n *node, e *elemDef, path string) {
		path += "/" + n.name
		if n.attrs["name"] != "" {
			path += "[" + n.attrs["name"] + "]"
		}
		t, err := s.resolve(e)
		if err != nil {
			errs = append(errs, err.Error())
			return
		}
		if t.textOnly {
			if len(n.attrs) > 0 || len(n.children) > 0 {
				errs = append(errs, path+": a text-only element with attributes or children")
			}
			return
		}
		for name, v := range n.attrs {
			a, ok := t.attrs[name]
			switch {
			case !ok:
				errs = append(errs, fmt.Sprintf("%s: attribute %q is not allowed", path, name))
			case a.pattern != nil && !a.pattern.MatchString(v):
				errs = append(errs, fmt.Sprintf("%s: attribute %s=%q does not match %s", path, name, v, a.pattern))
			}
		}
		for name, a := range t.attrs {
			if _, ok := n.attrs[name]; a.required && !ok {
				errs = append(errs, fmt.Sprintf("%s: required attribute %q missing", path, name))
			}
		}
		if !t.mixed && strings.TrimSpace(n.text) != "" {
			errs = append(errs, path+": text content in an element that is not mixed")
		}
		for _, c := range n.children {
			ce, ok := t.children[c.name]
			if !ok {
				errs = append(errs, fmt.Sprintf("%s: child <%s> is not allowed", path, c.name))
				continue
			}
			walk(c, ce, path)
		}
	}
	walk(root, g, "")
	return errs
}

func TestSchemaValidatorRejects(t *testing.T) {
	s, err := loadSchema("testdata/junit-10.xsd")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, doc, want string
	}{
		{"valid", `<testsuites><testsuite name="a" tests="1" failures="0" errors="0" time="1.5"><testcase name="X" classname="a"><skipped message="m"/></testcase></testsuite></testsuites>`, ""},
		{"disabled attribute", `<testsuites><testsuite name="a" tests="1" failures="0" errors="0" disabled="1"></testsuite></testsuites>`, `attribute "disabled" is not allowed`},
		{"missing required", `<testsuites><testsuite name="a" tests="1" errors="0"/></testsuites>`, `required attribute "failures" missing`},
		{"bad time", `<testsuites time="1s"/>`, `does not match`},
		{"unknown child", `<testsuites><testsuite name="a" tests="1" failures="0" errors="0"><testcase name="X"><passed/></testcase></testsuite></testsuites>`, `child <passed> is not allowed`},
		{"testcase without name", `<testsuites><testsuite name="a" tests="1" failures="0" errors="0"><testcase/></testsuite></testsuites>`, `required attribute "name" missing`},
		{"undeclared root", `<results/>`, `not declared`},
	}
	for _, c := range cases {
		errs := s.validate([]byte(c.doc))
		got := strings.Join(errs, "\n")
		if (c.want == "") != (len(errs) == 0) || !strings.Contains(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}
