package runtime

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// TestSummaryOfAFailedStep: a check the page rejects (a premium setting
// that shows an upsell instead) fails, and the changes it caused are
// summed up as after a failed check, not as "Checked."; the page counted
// the click once.
func TestSummaryOfAFailedStep(t *testing.T) {
	base := browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>Settings</title><header><h1>Settings</h1></header><main>
<label><input type="checkbox" id="beta" onclick="event.preventDefault(); window.tries = (window.tries || 0) + 1; document.getElementById('upsell').textContent = 'Beta features need the Pro plan'"> Beta features</label>
<p id="upsell" role="status"></p></main>`)
	}))
	for _, pooled := range []bool{false, true} {
		run := finishingRunner(t, pooled)
		open := run(`{"steps":[{"openTab":"` + base + `settings.html"}]}`)
		mustOK(t, open)
		closeTabAfter(t, open)
		out := run(`{"tab":"` + open.Tab + `","capture":"compact","steps":[{"check":"#beta"}]}`)
		if out.OK() || out.Changes == nil || !strings.HasPrefix(out.Changes.Summary, "After the failed check.") || !strings.Contains(out.Changes.Summary, "Beta features need the Pro plan") {
			t.Errorf("pooled %t: a check the page rejected: %s", pooled, out.JSON())
		}
		if got := jsonString(run(`{"tab":"` + open.Tab + `","steps":[{"pageFunction":"window.tries"}]}`).Steps[0].Output); got != "1" {
			t.Errorf("pooled %t: the checkbox was clicked %s times", pooled, got)
		}
	}
}
