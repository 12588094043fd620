package runtime

import (
	"bytes"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

const reusePage = `<!doctype html><title>Reuse</title><main>
<button id="noop" onclick="window.noops = (window.noops || 0) + 1">Nothing</button>
<button id="add" onclick="document.getElementById('n').textContent = ++window.c">Add</button>
<button id="paint" onclick="document.body.style.background = 'rgb(200, 0, 0)'">Paint</button>
<p>Count: <span id="n">0</span></p><div style="height: 3000px"></div></main><script>window.c = 0</script>`

const canvasPage = `<!doctype html><title>Canvas</title><main>
<button id="draw" onclick="document.getElementById('c').getContext('2d').fillRect(0, 0, ++window.w * 10, 20)">Draw</button>
<canvas id="c" width="200" height="40"></canvas></main><script>window.w = 0</script>`

// marker is appended to the screenshot file: it survives only while the
// file is reused, not retaken.
var marker = []byte("reused-marker")

func markScreenshot(t *testing.T, path string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(marker)
	f.Close()
}

func screenshotMarked(t *testing.T, path string) bool {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.HasSuffix(data, marker)
}

// The screenshot after a command is reused when nothing visual changed
// since it was taken, and taken again after any change.
func TestScreenshotReusedOnlyWhenNothingChanged(t *testing.T) {
	base := browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if strings.HasSuffix(r.URL.Path, "canvas.html") {
			w.Write([]byte(canvasPage))
			return
		}
		w.Write([]byte(reusePage))
	}))
	open := runJSON(t, `{"steps":[{"openTab":"`+base+`reuse.html"}]}`)
	mustOK(t, open)
	closeTabAfter(t, open)
	step := func(steps string) *Output {
		t.Helper()
		out := runJSON(t, `{"tab":"`+open.Tab+`","capture":"full","steps":[`+steps+`]}`)
		mustOK(t, out)
		if out.Screenshot == "" {
			t.Fatalf("no screenshot: %s", out.JSON())
		}
		return out
	}
	shot := step(`{"click":"#noop"}`).Screenshot
	markScreenshot(t, shot)
	if out := step(`{"click":"#noop"}`); out.Screenshot != shot || !screenshotMarked(t, shot) {
		t.Errorf("a second click that changed nothing retook the screenshot (%s)", out.Screenshot)
	}
	for _, change := range []string{`{"click":"#add"}`, `{"click":"#paint"}`, `{"scroll": {"y": 40}}`, `{"hover":"#noop"}`} {
		markScreenshot(t, shot)
		step(change)
		if screenshotMarked(t, shot) {
			t.Errorf("after %s the old screenshot was reused", change)
		}
	}
	if got := runJSON(t, `{"tab":"`+open.Tab+`","steps":[{"pageFunction":"() => [window.noops, window.c]"}]}`); !strings.Contains(string(got.JSON()), `[2,1]`) {
		t.Errorf("page state = %s", got.JSON())
	}

	// A canvas draws without a DOM change: never reused.
	step(`{"goto":"` + base + `canvas.html"}`)
	step(`{"click":"#draw"}`)
	markScreenshot(t, shot)
	step(`{"click":"#draw"}`)
	if screenshotMarked(t, shot) {
		t.Errorf("a page with a canvas reused its screenshot")
	}
}

// The same with the screenshot deferred past the answer (the resident
// process): the reuse is decided after the answer, the file is absent
// until then, and it comes back unchanged only when nothing visual changed.
func TestDeferredScreenshotReusedOnlyWhenNothingChanged(t *testing.T) {
	base := browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(reusePage))
	}))
	run := pooledRunner(t)
	open := run(`{"steps":[{"openTab":"` + base + `reuse.html"}]}`)
	open.Finish()
	defer func() { run(`{"steps":[{"closeTab":"` + open.Tab + `"}]}`).Finish() }()
	step := func(steps string) string {
		t.Helper()
		out := run(`{"tab":"` + open.Tab + `","capture":"full","steps":[` + steps + `]}`)
		if out.Screenshot == "" {
			t.Fatalf("no screenshot: %s", out.JSON())
		}
		if _, err := os.Stat(out.Screenshot); err == nil {
			t.Fatalf("after %s the answer's screenshot file was there before the answer was delivered (an earlier command's)", steps)
		}
		out.Finish()
		deadline := time.Now().Add(20 * time.Second)
		for {
			if st, err := os.Stat(out.Screenshot); err == nil && st.Size() > 0 {
				return out.Screenshot
			}
			if time.Now().After(deadline) {
				t.Fatalf("after %s the screenshot never appeared", steps)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	shot := step(`{"click":"#noop"}`)
	markScreenshot(t, shot)
	if again := step(`{"click":"#noop"}`); again != shot || !screenshotMarked(t, shot) {
		t.Errorf("a second click that changed nothing retook the screenshot (%s)", again)
	}
	for _, change := range []string{`{"click":"#add"}`, `{"click":"#paint"}`, `{"scroll": {"y": 40}}`, `{"hover":"#noop"}`} {
		markScreenshot(t, shot)
		step(change)
		if screenshotMarked(t, shot) {
			t.Errorf("after %s the old screenshot was reused", change)
		}
	}
	if got := run(`{"tab":"` + open.Tab + `","capture":"none","steps":[{"pageFunction":"() => [window.noops, window.c]"}]}`); !strings.Contains(string(got.JSON()), `[2,1]`) {
		t.Errorf("page state = %s", got.JSON())
	}
}
