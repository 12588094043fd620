package runtime

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// docsSite is a documentation site: a header, a version switcher that
// rebuilds the sidebar frame's table of contents (same site) or swaps it
// for a changelog (srcdoc), a widget from another site whose page the
// parent switches, and a long sidebar frame further down that a "Next
// section" button scrolls into view.
func docsSite(t *testing.T) string {
	remote := browsertest.ServeOn(t, "127.0.0.2", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.URL.Path == "/beta.html" {
			fmt.Fprint(w, `<!doctype html><title>Status</title><nav><a href="/incidents">Incidents</a> <a href="/uptime">Uptime</a></nav>`)
			return
		}
		fmt.Fprint(w, `<!doctype html><title>Status</title><nav><a href="/ok">All systems normal</a></nav>`)
	}))
	var long strings.Builder
	for i := range 40 {
		fmt.Fprintf(&long, `<p><a href="/topic/%d">Topic %d</a></p>`, i, i)
	}
	return browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/toc.html":
			fmt.Fprint(w, `<!doctype html><title>Contents</title><nav><a href="/a1">Quick start</a> <a href="/a2">Concepts</a></nav>`)
		case "/tasks.html":
			var tasks strings.Builder
			for i := 1; i <= 12; i++ {
				fmt.Fprintf(&tasks, `<li><button>Delete task %d</button></li>`, i)
			}
			fmt.Fprint(w, `<!doctype html><title>Tasks</title><ul style="margin:0">`+tasks.String()+`</ul>`)
		case "/topics.html":
			fmt.Fprint(w, `<!doctype html><title>Topics</title><main>`+long.String()+`</main>`)
		default:
			fmt.Fprint(w, `<!doctype html><title>Docs</title><header><nav><a href="/">Home</a></nav></header>
<main><h1>Docs</h1>
<button id="v2" onclick="window.switches = (window.switches || 0) + 1; document.querySelector('#toc').contentDocument.body.innerHTML = '<nav><a href=/x1>Install guide</a> <a href=/x2>API reference</a></nav>'">Switch to v2</button>
<button id="log" onclick="document.querySelector('#toc').srcdoc = '<nav><a href=/y1>Changelog</a> <a href=/y2>Migration</a></nav>'">Show changelog</button>
<button id="beta" onclick="document.querySelector('#status').src = '`+remote+`beta.html'">Beta status</button>
<button id="next" onclick="window.scrollBy(0, 500)">Next section</button>
<button id="done1" onclick="document.querySelector('#tasks').contentDocument.querySelector('li').remove()">Finish first task</button>
<iframe id="tasks" title="Tasks" src="tasks.html" style="width:400px;height:110px"></iframe>
<iframe id="toc" title="Contents" src="toc.html" style="width:400px;height:80px"></iframe>
<iframe id="status" title="Status" src="`+remote+`status.html" style="width:400px;height:80px"></iframe>
<div style="height:600px"></div>
<iframe id="topics" title="Topics" src="topics.html" style="width:400px;height:1400px"></iframe>
</main>`)
		}
	}))
}

// TestDiffOfAFrameTheActionRebuilt: a click that replaces a frame's
// content (its document rewritten by the parent, a new srcdoc, another
// page in a cross-site frame) reports the frame's new elements as added
// and its old ones as removed; a click that only scrolls a frame's
// elements into view reports none of them as added. Each handler ran once.
func TestDiffOfAFrameTheActionRebuilt(t *testing.T) {
	base := docsSite(t)
	run := pooledFinishing(t)
	open := run(`{"steps":[{"openTab":"` + base + `docs.html"},{"wait":{"selector":"#status"}}]}`)
	mustOK(t, open)
	closeTabAfter(t, open)
	tab := `{"tab":"` + open.Tab + `","capture":"compact","steps":[`
	mustOK(t, run(tab+`{"snapshot":true}]}`))
	for _, c := range []struct{ button, gone, came string }{
		{"#v2", "Quick start", "Install guide"},
		{"#log", "Install guide", "Changelog"},
		{"#beta", "All systems normal", "Incidents"},
	} {
		out := run(tab + `{"click":"` + c.button + `"},{"wait":{"text":"` + c.came + `"}}]}`)
		mustOK(t, out)
		diff := jsonString(out.Changes)
		if out.Changes == nil || !strings.Contains(strings.Join(out.Changes.Added, "\n"), c.came) || !strings.Contains(strings.Join(out.Changes.Removed, "\n"), c.gone) {
			t.Errorf("%s: the frame's new content is not added, or its old not removed: %s", c.button, diff)
		}
	}
	read := run(`{"tab":"` + open.Tab + `","steps":[{"pageFunction":"window.switches"}]}`)
	if got := jsonString(read.Steps[0].Output); got != "1" {
		t.Errorf("the version switch ran %s times", got)
	}
	// One task removed above the others: the next one slides into view,
	// and is no news.
	out := run(tab + `{"click":"#done1"}]}`)
	mustOK(t, out)
	if out.Changes == nil || !strings.Contains(strings.Join(out.Changes.Removed, "\n"), "Delete task 1") || strings.Contains(strings.Join(out.Changes.Added, "\n"), "Delete task") {
		t.Errorf("one item removed in a frame: %s", jsonString(out.Changes))
	}
	out = run(tab + `{"click":"#next"}]}`)
	mustOK(t, out)
	if out.Changes != nil && strings.Contains(strings.Join(out.Changes.Added, "\n"), "Topic") {
		t.Errorf("links a scroll brought into view are added: %s", jsonString(out.Changes))
	}
	scrolled := run(`{"tab":"` + open.Tab + `","steps":[{"pageFunction":"scrollY"}]}`)
	if got := jsonString(scrolled.Steps[0].Output); got == "0" {
		t.Errorf("the page did not scroll: scrollY %s", got)
	}
}
