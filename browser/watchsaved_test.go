package browser

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// savedRefsPage keeps, at start-up, its own references to setTimeout,
// fetch and requestAnimationFrame (as lodash's debounce or React's
// scheduler do), and its buttons schedule their rendering through them.
// Its timers and its data take 400 ms: later than the answer of a click
// that would not wait for them, within the watch's bounds.
// With ?patched its own script also replaces window.setTimeout with a
// function that calls the saved one (a zone-like patch).
const savedRefsPage = `<!doctype html><title>Saved</title>
<script>
const lib = { setTimeout: window.setTimeout, fetch: window.fetch, raf: window.requestAnimationFrame };
window.runs = { timer: 0, fetch: 0, frame: 0, patched: 0 };
if (location.search === '?patched') {
  const saved = window.setTimeout;
  window.setTimeout = function setTimeout(f, ms) { return saved(f, ms); };
}
const out = (s) => { document.getElementById('out').textContent = s; };
</script>
<button id="timer" onclick="runs.timer++; (0, lib.setTimeout)(() => out('timer ' + runs.timer), 400)">Timer</button>
<button id="fetch" onclick="runs.fetch++; (0, lib.fetch)('data.json').then((r) => r.json()).then((d) => out(d.label + ' ' + runs.fetch))">Fetch</button>
<button id="frame" onclick="runs.frame++; (0, lib.raf)(() => (0, lib.raf)(() => out('frames ' + runs.frame)))">Frames</button>
<button id="patched" onclick="runs.patched++; setTimeout(() => out('patched ' + runs.patched), 400)">Patched</button>
<p id="out"></p>`

// TestClickSettlesWorkThroughSavedReferences: a page that kept the
// built-ins at start-up (before the start-up watch put the natives back,
// its references are the watch's pass-through gates) schedules a click's
// rendering through them; the click's answer comes after that rendering,
// each handler ran once, and the page's own patch of setTimeout over its
// saved copy neither loops nor escapes the watch. The built-ins are native
// again afterwards.
func TestClickSettlesWorkThroughSavedReferences(t *testing.T) {
	base := browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/data.json") {
			// Later than the answer of a click that did not wait for it.
			select {
			case <-time.After(400 * time.Millisecond):
			case <-r.Context().Done():
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"label": "fetched"}`))
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(savedRefsPage))
	}))
	for _, tc := range []struct{ query, id, want, runs string }{
		{"", "timer", `"timer 1"`, "timer"},
		{"", "fetch", `"fetched 1"`, "fetch"},
		{"", "frame", `"frames 1"`, "frame"},
		{"?patched", "patched", `"patched 1"`, "patched"},
	} {
		t.Run(tc.id, func(t *testing.T) {
			p := openTestTab(t)
			if _, err := p.Navigate(testCtx(t), base+"saved.html"+tc.query, WaitLoad); err != nil {
				t.Fatal(err)
			}
			click(t, p, Target{Selector: "#" + tc.id}, ClickOptions{})
			if got := js(t, p, "document.getElementById('out').textContent"); got != tc.want {
				t.Errorf("after the click: out = %s, want %s (the settle waited for the work scheduled through the saved reference)", got, tc.want)
			}
			if got := js(t, p, "runs."+tc.runs); got != "1" {
				t.Errorf("handler runs = %s, want 1", got)
			}
			if got := js(t, p, "[fetch, requestAnimationFrame, XMLHttpRequest.prototype.send].map("+isNativeJS+").join()"); got != `"true,true,true"` {
				t.Errorf("built-ins native after the click: %s", got)
			}
		})
	}
}
