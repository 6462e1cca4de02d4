package framework

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestTopLevelContainersAreAreas: every top-level container or spec of
// an area package goes through AreaDescribe, so that a run naming the
// containers of its specs (registration.Env) leaves out all of the others. One declared
// with Ginkgo's own would still be registered in every run: right, only
// slower.
func TestTopLevelContainersAreAreas(t *testing.T) {
	fset := token.NewFileSet()
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, spec := range g.Specs {
				for _, v := range spec.(*ast.ValueSpec).Values {
					call, ok := v.(*ast.CallExpr)
					if !ok {
						continue
					}
					if id, ok := call.Fun.(*ast.Ident); ok && topLevelNodes[id.Name] {
						t.Errorf("%s: a top-level %s: declare it with framework.AreaDescribe", fset.Position(call.Pos()), id.Name)
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// topLevelNodes are Ginkgo's containers and specs (setup nodes such as
// BeforeEach may stay top-level: they hold no spec).
var topLevelNodes = map[string]bool{
	"Describe": true, "Context": true, "When": true, "It": true, "Specify": true,
	"DescribeTable": true, "DescribeTableSubtree": true,
	"FDescribe": true, "FContext": true, "FWhen": true, "FIt": true, "FDescribeTable": true,
	"PDescribe": true, "PContext": true, "PWhen": true, "PIt": true, "PDescribeTable": true,
}
