package runtime

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// expire is the script of a page whose idle session ends: expireIn(ms)
// sends it to the sign-in page ms later (the test starts the clock right
// before the step it means to fail, so a loaded machine cannot make the
// page leave before the step starts).
const expire = `<script>window.expireIn = (ms) => { setTimeout(() => location.href = '/signin.html?expired=1', ms); return true; };</script>`

// expiringSite is a web app whose pages an idle session leaves for the
// sign-in page (expire): an editor, a portal with a frame, a dashboard
// with embedded apps of the same site and of another one, which leave for
// their own sign-in pages inside their frames; a report page reloads
// itself instead, and a settings page stays put.
func expiringSite(t *testing.T) string {
	remote := browsertest.ServeOn(t, "127.0.0.2", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.URL.Path == "/app.html" {
			fmt.Fprint(w, `<!doctype html><title>App</title><button id="save">Save</button>`+expire)
			return
		}
		fmt.Fprint(w, `<!doctype html><title>Sign in</title><h1>Sign in to the app</h1>`)
	}))
	return browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/embeds.html":
			fmt.Fprint(w, `<!doctype html><title>Embeds</title><header><h1>Dashboard</h1></header><main>
<iframe id="local" title="Local app" src="/app.html" style="width:400px;height:150px"></iframe>
<iframe id="remote" title="Remote app" src="`+remote+`app.html" style="width:400px;height:150px"></iframe></main>`)
		case "/app.html":
			fmt.Fprint(w, `<!doctype html><title>App</title><button id="save">Save</button>`+expire)
		case "/editor.html":
			fmt.Fprint(w, `<!doctype html><title>Editor</title><header><nav><a href="/">Docs</a></nav></header>
<main><h1>Editor</h1><label>Title <input id="title"></label><button id="draft">Save draft</button></main>`+expire)
		case "/signin.html":
			fmt.Fprint(w, `<!doctype html><title>Sign in</title><main><h1>Your session expired</h1>
<label>Email <input id="email"></label><button>Sign in</button></main>`)
		case "/report.html":
			fmt.Fprint(w, `<!doctype html><title>Report</title><main><h1>Report</h1><p id="n"></p></main>
<script>document.getElementById('n').textContent = 'Loaded ' + (sessionStorage.loads = (+sessionStorage.loads || 0) + 1) + ' times';
window.expireIn = (ms) => { setTimeout(() => location.reload(), ms); return true; };</script>`)
		case "/settings.html":
			fmt.Fprint(w, `<!doctype html><title>Settings</title><main><h1>Settings</h1><button id="save">Save</button></main>`)
		case "/portal.html":
			fmt.Fprint(w, `<!doctype html><title>Portal</title><header><h1>Portal</h1></header>
<main><iframe id="app" title="App" src="/settings.html" style="width:400px;height:200px"></iframe></main>`+expire)
		default:
			http.NotFound(w, r)
		}
	}))
}

// leaveSoon is the step that starts a page's expire clock: the page leaves
// 700 ms later, while the next step (given 2 s) is looking.
const leaveSoon = `{"pageFunction":"expireIn(700)"}`

// TestFailedLookupSaysThePageNavigatedMeanwhile: a step that looked for an
// element or text in vain, while the page loaded another document under
// it (a redirect to sign in, a reload), says so and where the page is now,
// keeping its own hint, for clicks, fills, waits and page functions, run
// directly and as the resident process runs them; a poll that did not
// resolve says it in its warning; a step in a frame of a page that
// navigated says its frame went with it, and the next step runs in the
// new top document; one in a frame that navigated (same site or another)
// says the frame did; a lookup that fails on a page that stayed put says
// nothing of the kind.
func TestFailedLookupSaysThePageNavigatedMeanwhile(t *testing.T) {
	base := expiringSite(t)
	for _, pooled := range []bool{false, true} {
		run := finishingRunner(t, pooled)
		for _, c := range []struct{ name, page, step, now string }{
			{"a click", "editor.html", `{"click":"#publish","timeout":2000}`, "/signin.html?expired=1"},
			{"a fill", "editor.html", `{"fill":{"selector":"#body","value":"Hello"},"timeout":2000}`, "/signin.html?expired=1"},
			{"a wait for text", "editor.html", `{"wait":{"text":"Published"},"timeout":2000}`, "/signin.html?expired=1"},
			{"a click by text during a reload", "report.html", `{"click":{"text":"Export"},"timeout":2000}`, "/report.html"},
			{"a page function the redirect cut off", "editor.html", `{"pageFunction":"() => new Promise((r) => setTimeout(() => r(1), 2000))"}`, "/signin.html?expired=1"},
			{"a wait for the URL", "editor.html", `{"wait":{"url":"/published"},"timeout":2000}`, "/signin.html?expired=1"},
		} {
			out := run(`{"steps":[{"openTab":"` + base + c.page + `"},` + leaveSoon + `,` + c.step + `]}`)
			closeTabAfter(t, out)
			msg, now := stepError(out, 2), base+strings.TrimPrefix(c.now, "/")
			if out.OK() || !strings.Contains(msg, "meanwhile the page loaded a new document") || !strings.Contains(msg, now) || strings.Count(msg, now) > 1 {
				t.Errorf("pooled %t: %s while the page navigated: %s", pooled, c.name, out.JSON())
			}
			if !strings.Contains(msg, "snapshot") && !strings.Contains(msg, "exact: false") {
				t.Errorf("pooled %t: %s: no hint of what to do: %s", pooled, c.name, msg)
			}
		}
		// A poll that did not resolve is no failure: its warning says it.
		out := run(`{"steps":[{"openTab":"` + base + `editor.html"},` + leaveSoon + `,{"poll":"() => document.querySelector('#published')","timeout":2000}]}`)
		closeTabAfter(t, out)
		if len(out.Steps) < 3 || !strings.Contains(strings.Join(out.Steps[2].Warning, " "), "meanwhile the page loaded a new document") {
			t.Errorf("pooled %t: a poll that did not resolve while the page navigated: %s", pooled, out.JSON())
		}
		// The step's own hint stays.
		out = run(`{"steps":[{"openTab":"` + base + `editor.html"},` + leaveSoon + `,{"click":{"text":"Publish now"},"timeout":2000}]}`)
		closeTabAfter(t, out)
		if msg := stepError(out, 2); !strings.Contains(msg, "meanwhile") || !strings.Contains(msg, "exact: false") {
			t.Errorf("pooled %t: a click by text loses its hint: %s", pooled, msg)
		}
		// A step in a frame of a page that navigates: the frame went with
		// the old document, and the next step runs in the new one.
		out = run(`{"steps":[{"openTab":"` + base + `portal.html"},` + leaveSoon + `,{"frame":"#app"},{"click":"#publish","timeout":2000}]}`)
		closeTabAfter(t, out)
		if msg := stepError(out, 3); !strings.Contains(msg, "meanwhile the page loaded a new document") || !strings.Contains(msg, "the next steps run in the top document") || strings.Contains(msg, "No frame") {
			t.Errorf("pooled %t: a step in a frame of a page that navigated: %s", pooled, out.JSON())
		}
		if out.Context == nil || !strings.Contains(out.Context.URL, "/signin.html") {
			t.Errorf("pooled %t: the answer's context after the frame went: %s", pooled, jsonString(out.Context))
		}
		if next := run(`{"tab":"` + out.Tab + `","steps":[{"fill":{"selector":"#email","value":"ann@example.com"}}]}`); !next.OK() {
			t.Errorf("pooled %t: the next command does not run in the top document: %s", pooled, next.JSON())
		}
		// A step in a frame that navigates while the page around it stays.
		for _, frame := range []string{"#local", "#remote"} {
			out = run(`{"steps":[{"openTab":"` + base + `embeds.html"},{"frame":"` + frame + `"},` + leaveSoon + `,{"click":"#publish","timeout":2000}]}`)
			closeTabAfter(t, out)
			if msg := stepError(out, 3); !strings.Contains(msg, "meanwhile the frame the step ran in loaded a new document") || strings.Contains(msg, "the page loaded") {
				t.Errorf("pooled %t: a step in frame %s that navigated: %s", pooled, frame, out.JSON())
			}
		}
		// A lookup that misses on a page that stays put says nothing of
		// the kind, also on a page that reloaded before the command.
		out = run(`{"steps":[{"openTab":"` + base + `report.html"},` + leaveSoon + `,{"wait":{"text":"Loaded 2 times"}},{"click":{"text":"Export"},"timeout":500}]}`)
		closeTabAfter(t, out)
		if msg := stepError(out, 3); out.OK() || msg == "" || strings.Contains(msg, "meanwhile") {
			t.Errorf("pooled %t: a click that missed on a page that stayed put: %s", pooled, out.JSON())
		}
		out = run(`{"steps":[{"openTab":"` + base + `settings.html"},{"click":"#publish","timeout":500}]}`)
		closeTabAfter(t, out)
		if msg := stepError(out, 1); out.OK() || strings.Contains(msg, "meanwhile") || !strings.Contains(msg, "#publish") {
			t.Errorf("pooled %t: a click that missed on a page that never navigated: %s", pooled, out.JSON())
		}
	}
}

// stepError is step i's error message ("" when it has none).
func stepError(out *Output, i int) string {
	if i >= len(out.Steps) {
		return ""
	}
	return out.Steps[i].Error
}

// TestStepsAfterTheSelectedFrameWentAway: a frame selected earlier goes
// away when its page loads another document during a command (a goto, a
// link in the frame that leaves the page): the command's next steps run
// in the new top document, after a goto silently and after others with a
// warning, instead of failing with a closed tab or a frame Chrome no
// longer knows.
func TestStepsAfterTheSelectedFrameWentAway(t *testing.T) {
	remote := browsertest.ServeOn(t, "127.0.0.2", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>Widget</title><a id="out" href="`+r.URL.Query().Get("back")+`" target="_top">Open the full page</a>`)
	}))
	var base string
	base = browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/frames.html":
			fmt.Fprint(w, `<!doctype html><title>Frames</title><main><iframe id="app" src="/app.html"></iframe>
<iframe id="remote" src="`+remote+`widget.html?back=`+base+`full.html"></iframe></main>`)
		case "/app.html":
			fmt.Fprint(w, `<!doctype html><title>App</title><button>Save</button>`)
		default:
			fmt.Fprint(w, `<!doctype html><title>Full page</title><main><h1>Full page</h1></main>`)
		}
	}))
	for _, pooled := range []bool{false, true} {
		run := finishingRunner(t, pooled)
		for _, frame := range []string{"#app", "#remote"} {
			open := run(`{"steps":[{"openTab":"` + base + `frames.html"}]}`)
			mustOK(t, open)
			closeTabAfter(t, open)
			tab := `{"tab":"` + open.Tab + `","steps":[`
			out := run(tab + `{"frame":"` + frame + `"},{"goto":"` + base + `full.html"},{"pageFunction":"location.pathname"}]}`)
			if !out.OK() || jsonString(out.Steps[2].Output) != `"/full.html"` || len(out.Steps[2].Warning) > 0 {
				t.Errorf("pooled %t: a goto while in frame %s: %s", pooled, frame, out.JSON())
			}
		}
		open := run(`{"steps":[{"openTab":"` + base + `frames.html"}]}`)
		mustOK(t, open)
		closeTabAfter(t, open)
		tab := `{"tab":"` + open.Tab + `","steps":[`
		out := run(tab + `{"frame":"#remote"},{"click":"#out"},{"pageFunction":"location.pathname"},{"pageFunction":"document.title"}]}`)
		if !out.OK() || jsonString(out.Steps[2].Output) != `"/full.html"` || !strings.Contains(strings.Join(out.Steps[2].Warning, " "), "the frame selected earlier went away") {
			t.Errorf("pooled %t: a step after a link in the frame left the page: %s", pooled, out.JSON())
		}
		// Said once: the step after it runs in the top document as well.
		if len(out.Steps) < 4 || jsonString(out.Steps[3].Output) != `"Full page"` || len(out.Steps[3].Warning) > 0 {
			t.Errorf("pooled %t: the step after the warned one: %s", pooled, out.JSON())
		}
	}
}
