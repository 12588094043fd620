package builtins

import (
	"testing"

	"github.com/cdp-skill/cdp-skill/lang"
)

// TestImplementationsMatchCatalog: every catalog action has an
// implementation and every implementation is bound to a catalog action (the
// check that used to run in init now runs on the first Lookup).
func TestImplementationsMatchCatalog(t *testing.T) {
	for _, a := range lang.Actions() {
		if _, ok := Lookup(a.Name); !ok {
			t.Errorf("catalog action %s has no implementation in package builtins", a.Name)
		}
	}
	for name := range actions {
		if _, ok := lang.LookupAction(name); !ok {
			t.Errorf("implementation %s is not a catalog action", name)
		}
	}
}
