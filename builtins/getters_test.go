package builtins

import (
	"strings"
	"testing"

	"go.starlark.net/starlark"

	"github.com/cdp-skill/cdp-skill/lang"
)

// TestGettersTakeTheirDeclaredParameters: every getter accepts its
// arguments by the names lang declares (the reference and the checker's),
// positionally and as keywords, and refuses one more; with no tab the call
// gets as far as asking for the page.
func TestGettersTakeTheirDeclaredParameters(t *testing.T) {
	if len(Functions()) < 8 {
		t.Fatalf("only %d getters registered", len(Functions()))
	}
	for name, b := range Functions() {
		f, ok := lang.LookupFunction(name)
		if !ok {
			t.Fatalf("%s is not in the catalog", name)
		}
		th := &starlark.Thread{}
		th.SetLocal(EnvKey, &Env{})
		var pos starlark.Tuple
		var kw []starlark.Tuple
		for _, p := range f.Params {
			pos = append(pos, starlark.String("#x"))
			kw = append(kw, starlark.Tuple{starlark.String(p), starlark.String("#x")})
		}
		for form, call := range map[string]func() (starlark.Value, error){
			"positional": func() (starlark.Value, error) { return starlark.Call(th, b, pos, nil) },
			"keywords":   func() (starlark.Value, error) { return starlark.Call(th, b, nil, kw) },
		} {
			if _, err := call(); err == nil || !strings.Contains(err.Error(), ErrNoTab.Error()) {
				t.Errorf("%s(%s by %s): %v, want the no-tab error", name, strings.Join(f.Params, ", "), form, err)
			}
		}
		extra := append(pos, starlark.String("one too many"))
		if _, err := starlark.Call(th, b, extra, nil); err == nil || strings.Contains(err.Error(), ErrNoTab.Error()) {
			t.Errorf("%s with %d arguments: %v, want refused", name, len(extra), err)
		}
	}
}
