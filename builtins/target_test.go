package builtins

import (
	"testing"

	"go.starlark.net/starlark"

	"github.com/cdp-skill/cdp-skill/lang"
)

// TestTargetArgReadsOnlyCatalogTargets walks the catalog: a keyword spelled
// like a target key is read as the target exactly where the catalog marks
// it Target, so a parameter (type's text) is never mistaken for an element.
func TestTargetArgReadsOnlyCatalogTargets(t *testing.T) {
	sample := map[string]starlark.Value{
		"selector": starlark.String("#a"), "ref": starlark.String("s1e4"), "text": starlark.String("Go"),
		"label": starlark.String("Email"), "selectors": starlark.NewList([]starlark.Value{starlark.String("#b")}),
		"withinSelector": starlark.String("#w"),
	}
	checked := 0
	for _, a := range lang.Actions() {
		for _, p := range a.Params {
			v, ok := sample[p.Name]
			if !ok {
				continue
			}
			args, err := NewArgs(a, nil, []starlark.Tuple{{starlark.String(p.Keyword()), v}})
			if err != nil {
				t.Fatalf("%s(%s=…): %v", a.Builtin(), p.Keyword(), err)
			}
			tgt, err := targetArg(&Call{Action: a, Args: args})
			if err != nil {
				t.Errorf("%s(%s=…): %v", a.Builtin(), p.Keyword(), err)
				continue
			}
			if read := !tgt.IsZero() || tgt.Within != ""; read != p.Target {
				t.Errorf("%s(%s=…): read as target %v, catalog says Target %v (%+v)", a.Builtin(), p.Keyword(), read, p.Target, tgt)
			}
			checked++
		}
	}
	if checked < 20 {
		t.Fatalf("only %d target-named parameters walked", checked)
	}
}
