package runtime

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// searchWidget is a search box as select and autocomplete libraries build
// it: the list is filtered 300 ms after the last keystroke (Tom Select's
// refreshThrottle), and ArrowDown moves the active option on a timer too.
// window.filters and window.moves count how often each ran.
const searchWidget = `<!doctype html><title>Search</title>
<label>Country <input id="q" autocomplete="off"></label>
<p id="results">All countries</p><p id="active">None active</p>
<script>
window.filters = 0; window.moves = 0;
let pending = 0;
q.addEventListener('input', () => {
  clearTimeout(pending);
  pending = setTimeout(() => { filters++; results.textContent = 'Results for ' + q.value; }, 300);
});
q.addEventListener('keydown', (e) => {
  if (e.key === 'ArrowDown') setTimeout(() => { moves++; active.textContent = 'Active ' + moves; }, 300);
});
</script>`

// keyFramesSite is a partner page with the search widget in a same-site
// iframe (#same) and in a cross-site one (#cross, 127.0.0.2, its own
// renderer).
func keyFramesSite(t *testing.T) string {
	widget := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, searchWidget)
	})
	cross := browsertest.ServeOn(t, "127.0.0.2", widget)
	return browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/search.html" {
			widget(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><title>Partner portal</title><header><h1>Partner portal</h1></header>
<main><p>Widgets from this site and a partner's.</p>
<iframe id="same" title="Same-site search" src="/search.html" width="400" height="160"></iframe>
<iframe id="cross" title="Partner search" src="%ssearch.html" width="400" height="160"></iframe></main>`, cross)
	})) + "index.html"
}

// TestKeysWithoutTargetSettleInTheFocusedFrame: after a click into a
// search box in a frame, a type or press with no target sends its keys
// into that frame, and its answer waits for what they set off there (the
// filter 300 ms after the last key), in a same-site and a cross-site
// frame. Before, the watch was armed in the top document, which the keys
// never reached, so the answer came before the list was filtered and an
// agent clicked options that were about to move.
func TestKeysWithoutTargetSettleInTheFocusedFrame(t *testing.T) {
	out := runJSON(t, `{"steps":[{"openTab":"`+keyFramesSite(t)+`"},{"wait":"iframe#cross"},{"snapshot":{}}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	yaml, _ := stepOutput(t, out, 2)["yaml"].(string)
	if strings.Count(yaml, `textbox "Country"`) < 2 {
		again := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"wait":{"time":500}},{"snapshot":{}}]}`)
		mustOK(t, again)
		yaml, _ = stepOutput(t, again, 1)["yaml"].(string)
	}
	boxes := map[string]string{}
	for _, frame := range []string{"Same-site search", "Partner search"} {
		at := strings.Index(yaml, `iframe "`+frame+`"`)
		if at < 0 {
			t.Fatalf("no %s frame in:\n%s", frame, yaml)
		}
		boxes[frame] = refIn(t, yaml[at:], `textbox "Country"`)
	}
	for frame, id := range map[string]string{"Same-site search": "#same", "Partner search": "#cross"} {
		typed := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"click":"`+boxes[frame]+`"},{"type":"Per"},{"frame":"`+id+`"},`+
			`{"pageFunction":"() => [results.textContent, filters, q.value]"}]}`)
		mustOK(t, typed)
		if got := jsonString(typed.Steps[3].Output); got != `["Results for Per",1,"Per"]` {
			t.Errorf("%s: [results, filters, value] right after the type step = %s", frame, got)
		}
		pressed := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"click":"`+boxes[frame]+`"},{"press":"ArrowDown"},{"frame":"`+id+`"},`+
			`{"pageFunction":"() => [active.textContent, moves]"}]}`)
		mustOK(t, pressed)
		if got := jsonString(pressed.Steps[3].Output); got != `["Active 1",1]` {
			t.Errorf("%s: [active, moves] right after the press step = %s", frame, got)
		}
	}
	// The next command starts in the top document again (spec §19.12).
	top := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"pageFunction":"() => document.title"}]}`)
	mustOK(t, top)
	if got := jsonString(top.Steps[0].Output); got != `"Partner portal"` {
		t.Errorf("the next command ran in %s, not the top document", got)
	}
}
