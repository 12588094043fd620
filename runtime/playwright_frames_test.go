package runtime

import (
	"net/http"
	"os"
	"path"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// playwrightSites serves testdata/playwright (pages after Playwright's
// own frame tests) twice: same is a site whose frames are its own pages,
// cross one whose frames come from another site (127.0.0.2, so Chrome
// runs them out of process), which serves them as other. {{.Frames}} in a
// page is where its frames' pages are.
func playwrightSites(t *testing.T) (same, cross, other string) {
	t.Helper()
	serve := func(frames *string) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			data, err := os.ReadFile(path.Join("testdata/playwright", path.Base(r.URL.Path)))
			if err != nil {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte(strings.ReplaceAll(string(data), "{{.Frames}}", *frames)))
		})
	}
	other = browsertest.ServeOn(t, "127.0.0.2", serve(&other))
	same = browsertest.ServeHandler(t, serve(&same))
	cross = browsertest.ServeHandler(t, serve(&other))
	return same, cross, other
}

// frameAgent runs commands on one tab as an agent written against the spec
// does: each command that works in a frame begins with its frame step
// (every command starts in the top document, spec §19.12).
type frameAgent struct {
	t   *testing.T
	tab string
}

// openFrameAgent opens url in a new tab, waiting for sel.
func openFrameAgent(t *testing.T, url, sel string) *frameAgent {
	t.Helper()
	out := runJSON(t, `{"steps":[{"openTab":"`+url+`"},{"wait":"`+sel+`"}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	return &frameAgent{t: t, tab: out.Tab}
}

// do runs one command's steps and returns the last step's output as JSON.
func (a *frameAgent) do(steps ...string) string {
	a.t.Helper()
	out := runJSON(a.t, `{"tab":"`+a.tab+`","steps":[`+strings.Join(steps, ",")+`]}`)
	if !out.OK() {
		a.t.Fatalf("command %s: %s", strings.Join(steps, ","), out.JSON())
	}
	return jsonString(out.Steps[len(out.Steps)-1].Output)
}

// TestPlaywrightFrameTestsAsAgents ports five of Playwright's own frame
// tests (page-click "should click the button inside an iframe", "should
// click button inside frameset", "should click in a nested transformed
// iframe", page-drag "should work inside iframe", page-click-scroll
// "should scroll into view element in iframe") to JSON commands, with the
// frames from the same site and from another one. Each runs over several
// commands on one tab, each beginning with its frame step, and checks the
// frame's own state: the button's click count, the drop handler's count
// and where the dragged element is.
func TestPlaywrightFrameTestsAsAgents(t *testing.T) {
	same, cross, other := playwrightSites(t)
	for _, site := range []struct{ name, url, frames string }{{"same-site", same, same}, {"cross-site", cross, other}} {
		t.Run(site.name+"/button inside an iframe", func(t *testing.T) {
			a := openFrameAgent(t, site.url+"iframe.html", "iframe#button-test")
			for _, want := range []string{`["Clicked",1]`, `["Clicked",2]`} {
				if got := a.do(`{"frame":"#button-test"}`, `{"wait":"button"}`, `{"click":"button"}`, `{"pageFunction":"[result, clicks]"}`); got != want {
					t.Fatalf("in the frame: %s, want %s", got, want)
				}
			}
			if got := a.do(`{"pageFunction":"[document.title, typeof window.clicks]"}`); got != `["Button in a frame","undefined"]` {
				t.Fatalf("the next command ran in %s, not the top document", got)
			}
		})
		t.Run(site.name+"/button inside frameset", func(t *testing.T) {
			a := openFrameAgent(t, site.url+"frameset.html", "frame")
			a.do(`{"pageFunction":"document.querySelector('frame').src = '` + site.frames + `button.html'"}`)
			for _, want := range []string{`["Clicked",1]`, `["Clicked",2]`} {
				if got := a.do(`{"frame":"frame"}`, `{"wait":"button"}`, `{"click":"button"}`, `{"pageFunction":"[result, clicks]"}`); got != want {
					t.Fatalf("in the frameset's frame: %s, want %s", got, want)
				}
			}
		})
		t.Run(site.name+"/nested transformed iframe", func(t *testing.T) {
			a := openFrameAgent(t, site.url+"transformed.html", "iframe#outer")
			for _, want := range []string{"1", "2"} {
				if got := a.do(`{"frame":"#outer"}`, `{"wait":"iframe#inner"}`, `{"frame":"#inner"}`, `{"wait":"#target"}`, `{"click":"#target"}`, `{"pageFunction":"clicks"}`); got != want {
					t.Fatalf("clicks in the nested transformed frame: %s, want %s", got, want)
				}
			}
		})
		t.Run(site.name+"/drag inside an iframe", func(t *testing.T) {
			a := openFrameAgent(t, site.url+"drag-frame.html", "iframe#myframe")
			where := `{"pageFunction":"[source.parentElement.id || 'body', drops]"}`
			if got := a.do(`{"frame":"#myframe"}`, `{"wait":"#source"}`, `{"drag":{"source":"#source","target":"#target"}}`, where); got != `["target",1]` {
				t.Fatalf("after the first drag: %s", got)
			}
			if got := a.do(`{"frame":"#myframe"}`, `{"drag":{"source":"#source","target":"#home"}}`, where); got != `["home",2]` {
				t.Fatalf("after the second drag: %s", got)
			}
		})
		t.Run(site.name+"/scroll into view inside an iframe", func(t *testing.T) {
			a := openFrameAgent(t, site.url+"scroll.html", "iframe")
			for _, want := range []string{`["Clicked",1]`, `["Clicked",2]`} {
				if got := a.do(`{"pageFunction":"scrollTo(0, 0)"}`, `{"frame":"iframe"}`, `{"wait":"button"}`, `{"click":"button"}`, `{"pageFunction":"[result, clicks]"}`); got != want {
					t.Fatalf("in the frame below the fold: %s, want %s", got, want)
				}
				if got := a.do(`{"pageFunction":"scrollY > 9000"}`); got != "true" {
					t.Fatalf("the page did not scroll the frame into view: scrollY > 9000 is %s", got)
				}
			}
		})
	}
}
