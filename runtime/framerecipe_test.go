package runtime

import (
	"encoding/json"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/state"
)

// TestRecipeStepKeepsItsFramesToItself: a recipe step runs in the frame
// its command is in, and the frame steps inside it scope the recipe's own
// steps only: the command's next step runs where the command was, the top
// document or a frame it selected.
func TestRecipeStepKeepsItsFramesToItself(t *testing.T) {
	prev := state.SetSitesDir(t.TempDir())
	t.Cleanup(func() { state.SetSitesDir(prev) })
	recipes, _ := json.Marshal(`
def pay():
    frame("#checkout")
    click("#pay")
    return page_function("() => window.paid")

def title():
    return page_function("() => document.title")
`)
	mustOK(t, runJSON(t, `{"steps":[{"writeSiteProfile":{"domain":"127.0.0.1","content":"# Shop","recipes":`+string(recipes)+`}}]}`))
	out := runJSON(t, `{"steps":[{"openTab":"`+pagesURL(t)+`framed.html"},{"wait":"iframe#checkout"},
		{"recipe":"127.0.0.1/pay"},{"pageFunction":"document.title"},
		{"frame":"#checkout"},{"recipe":"127.0.0.1/title"},{"pageFunction":"[document.title, window.paid]"}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	// The answer lists each recipe's own steps after its step: pay's are
	// 3-5, title's 9.
	if got := jsonString(stepOutput(t, out, 2)["result"]); got != "1" {
		t.Errorf("the recipe's click in its frame: paid %s", got)
	}
	if got := jsonString(out.Steps[6].Output); got != `"Framed"` {
		t.Errorf("the step after the recipe ran in %s, not the top document", got)
	}
	if got := jsonString(stepOutput(t, out, 8)["result"]); got != `"Checkout"` {
		t.Errorf("a recipe step in a selected frame ran in %s", got)
	}
	if got := jsonString(out.Steps[10].Output); got != `["Checkout",1]` {
		t.Errorf("the step after a recipe in a selected frame ran in %s", got)
	}
}
