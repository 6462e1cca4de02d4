package framework

import (
	"go/ast"
	"go/token"
	"testing"
)

// TestTopLevelContainersAreAreas: every top-level container or spec of
// an area package goes through AreaDescribe, so that a run naming the
// containers of its specs (registration.Env) leaves out all of the others. One declared
// with Ginkgo's own would still be registered in every run: right, only
// slower.
func TestTopLevelContainersAreAreas(t *testing.T) {
	eachSuiteFile(t, 0, false, func(fset *token.FileSet, _ string, f *ast.File) {
		topLevel := map[*ast.CallExpr]bool{}
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
					topLevel[call] = true
					if id, ok := call.Fun.(*ast.Ident); ok && topLevelNodes[id.Name] {
						t.Errorf("%s: a top-level %s: declare it with framework.AreaDescribe", fset.Position(call.Pos()), id.Name)
					}
				}
			}
		}
		// Only a top-level container is named by its location in a run's
		// list: one inside another, or declared by a function, would be
		// left out of the runs that need it.
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || topLevel[call] {
				return true
			}
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "AreaDescribe" {
				t.Errorf("%s: AreaDescribe not at the top level (var _ = framework.AreaDescribe(...)): use Describe", fset.Position(call.Pos()))
			}
			return true
		})
	})
}

// topLevelNodes are Ginkgo's containers and specs (setup nodes such as
// BeforeEach may stay top-level: they hold no spec).
var topLevelNodes = map[string]bool{
	"Describe": true, "Context": true, "When": true, "It": true, "Specify": true,
	"DescribeTable": true, "DescribeTableSubtree": true,
	"FDescribe": true, "FContext": true, "FWhen": true, "FIt": true, "FDescribeTable": true,
	"PDescribe": true, "PContext": true, "PWhen": true, "PIt": true, "PDescribeTable": true,
}
