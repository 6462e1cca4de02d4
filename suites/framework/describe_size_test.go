package framework

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// maxContainerLines bounds a container's body (Describe, Context, When,
// ConformanceContext) in the suites: a longer one is split, into
// containers of the same text where the spec names must stay, or says why
// not in a comment on its first line that starts with longReason.
const (
	maxContainerLines = 150
	longReason        = "// Over 150 lines:"
)

func TestContainerBodiesAreShort(t *testing.T) {
	eachSuiteFile(t, parser.ParseComments, true, func(fset *token.FileSet, path string, f *ast.File) {
		reasons := map[int]bool{} // lines holding a reason comment
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if strings.HasPrefix(c.Text, longReason) {
					reasons[fset.Position(c.Slash).Line] = true
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || !isContainer(call.Fun) {
				return true
			}
			for _, a := range call.Args {
				fl, ok := a.(*ast.FuncLit)
				if !ok {
					continue
				}
				open, end := fset.Position(fl.Body.Lbrace).Line, fset.Position(fl.Body.Rbrace).Line
				if lines := end - open - 1; lines > maxContainerLines && !reasons[open+1] {
					t.Errorf("%s:%d: a container body of %d lines (at most %d): split it, or say why not on its first line (%q)",
						path, open, lines, maxContainerLines, longReason)
				}
			}
			return true
		})
	})
}

// isContainer reports whether fn names a Ginkgo container or the
// framework's.
func isContainer(fn ast.Expr) bool {
	name := ""
	switch f := fn.(type) {
	case *ast.Ident:
		name = f.Name
	case *ast.SelectorExpr:
		name = f.Sel.Name
	}
	switch name {
	case "Describe", "Context", "When", "ConformanceContext", "FDescribe", "FContext", "PDescribe", "PContext":
		return true
	}
	return false
}
