package builtins

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/lang"
)

// TestUsageExamplesAreSteps parses every example a usage error gives
// (forExample and selectorArg's string arguments in this package) as a JSON
// step and lowers it: an example that is not a valid step would be shown
// to a recipe as JSON, and would mislead an agent that copies it.
func TestUsageExamplesAreSteps(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			fn, ok := call.Fun.(*ast.Ident)
			if !ok || (fn.Name != "forExample" && fn.Name != "selectorArg") {
				return true
			}
			for _, arg := range call.Args {
				lit, ok := arg.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					continue
				}
				example, _ := strconv.Unquote(lit.Value)
				seen++
				if _, ok := exampleStep(example); !ok {
					t.Errorf("%s: %s is not one JSON step", path, example)
					continue
				}
				req, err := lang.ParseRequest([]byte(`{"steps":[` + example + `]}`))
				if err != nil {
					t.Errorf("%s: %s is not a valid step: %v", path, example, err)
					continue
				}
				if _, err := lang.LowerStep(req.Steps[0]); err != nil {
					t.Errorf("%s: %s does not lower: %v", path, example, err)
				}
			}
			return true
		})
	}
	if seen < 20 {
		t.Fatalf("found only %d examples: is the walk in the builtins directory?", seen)
	}
}

// An example that is not one step is shown as written, % and all; the
// steps of one that is are rendered in the frontend's syntax.
func TestForExampleRendersStepsOrText(t *testing.T) {
	h := forExample(`{"press": "Enter"}`, `{"type": {"selector": "#q", "text": "100%"}}`)
	if got := h.String(); got != `for example {"press":"Enter"} or {"type":{"selector":"#q","text":"100%"}}` {
		t.Errorf("steps: %s", got)
	}
	if got := forExample(`press Enter (100%)`).String(); got != `for example press Enter (100%)` {
		t.Errorf("text: %s", got)
	}
}
