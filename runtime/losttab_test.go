package runtime

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/target"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/browser/browsertest"
	"github.com/cdp-skill/cdp-skill/browser/chrome"
)

// lostTabSite is a shop's account page that opens its help in a popup;
// the popup's "Done" button tells the opener and closes its own tab, as
// help and payment popups do.
func lostTabSite(t *testing.T) string {
	base, _ := lostTabSiteSignals(t)
	return base
}

// lostTabSiteSignals is lostTabSite, with a channel that receives when
// the help page's slow Export handler starts (it tells the server).
func lostTabSiteSignals(t *testing.T) (string, <-chan struct{}) {
	exporting := make(chan struct{}, 4)
	return browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/exporting":
			select {
			case exporting <- struct{}{}:
			default:
			}
		case "/account.html":
			fmt.Fprint(w, `<!doctype html><title>Account</title><header><nav><a href="/">Shop</a></nav></header>
<main><h1>Your account</h1><a id="help" href="help.html" target="_blank" rel="opener">Help</a>
<p>Help closed <span id="closed">0</span> times</p></main>
<script>window.helpClosed = 0; window.noteHelpClosed = () => { document.querySelector('#closed').textContent = ++window.helpClosed; };</script>`)
		case "/help.html":
			fmt.Fprint(w, `<!doctype html><title>Help</title><main><h1>Help</h1><p>Ask us anything.</p>
<button id="done" onclick="if (window.opener) window.opener.noteHelpClosed(); window.close()">Done</button>
<button id="slow" onmouseup="if (window.opener) window.opener.noteHelpClosed(); navigator.sendBeacon('/exporting'); for (const t = Date.now(); Date.now() - t < 1500;) {}">Export</button></main>`)
		default:
			http.NotFound(w, r)
		}
	})), exporting
}

// TestAnswerSaysTheTabClosedDuringTheCommand: a command whose tab closes
// after its steps ran (the page closes itself on a click, a person closes
// it during a sleep) or whose page crashes during a sleep answers ok for
// the steps that ran, and says why no page state follows, and what to do.
// Run directly and through a kept pool (the resident process's path).
func TestAnswerSaysTheTabClosedDuringTheCommand(t *testing.T) {
	base, exporting := lostTabSiteSignals(t)
	c := browsertest.Require(t)
	for _, pooled := range []bool{false, true} {
		run := finishingRunner(t, pooled)
		account := run(`{"steps":[{"openTab":"` + base + `account.html"}]}`)
		mustOK(t, account)
		closeTabAfter(t, account)

		// The page closes its own tab.
		opened := run(`{"tab":"` + account.Tab + `","steps":[{"click":"#help"}]}`)
		mustOK(t, opened)
		tabs, _ := stepOutput(t, opened, 0)["newTabs"].([]any)
		if len(tabs) != 1 {
			t.Fatalf("pooled %t: the help link opened %v", pooled, tabs)
		}
		help, _ := tabs[0].(map[string]any)["tab"].(string)
		done := run(`{"tab":"` + help + `","steps":[{"wait":"#done"},{"click":"#done"}]}`)
		if !done.OK() || done.Context != nil || !strings.Contains(strings.Join(done.Warnings, " "), "tab "+help+" closed during this command") {
			t.Errorf("pooled %t: a click that closes its own tab: %s", pooled, done.JSON())
		}
		gone := run(`{"tab":"` + help + `","steps":[{"sleep":0}]}`)
		if gone.OK() || gone.Error == nil || strings.Contains(gone.Error.Message, help+",") || strings.Contains(gone.Error.Message, help+")") {
			t.Errorf("pooled %t: the alias of the closed tab: %s", pooled, gone.JSON())
		}
		read := run(`{"tab":"` + account.Tab + `","steps":[{"pageFunction":"window.helpClosed"}]}`)
		if got := jsonString(read.Steps[0].Output); got != "1" {
			t.Errorf("pooled %t: the Done handler ran %s times", pooled, got)
		}
		// The tab closes while the page handles the release (a person
		// closes it during a slow export): the release is never answered,
		// and the click still happened, once.
		again := run(`{"tab":"` + account.Tab + `","steps":[{"click":"#help"}]}`)
		tabs, _ = stepOutput(t, again, 0)["newTabs"].([]any)
		if len(tabs) != 1 {
			t.Fatalf("pooled %t: the help link opened %v", pooled, tabs)
		}
		help, _ = tabs[0].(map[string]any)["tab"].(string)
		mustOK(t, run(`{"tab":"`+help+`","steps":[{"wait":"#slow"}]}`))
		list := run(`{"tab":"` + help + `","steps":[{"listTabs":true}]}`)
		slowID := ""
		for _, tb := range stepOutput(t, list, 0)["tabs"].([]any) {
			if m := tb.(map[string]any); m["tab"] == help {
				slowID, _ = m["targetId"].(string)
			}
		}
		go func() {
			// The tab closes once the page handles the release (its
			// handler tells the server), however slow the machine.
			select {
			case <-exporting:
			case <-time.After(20 * time.Second):
			}
			time.Sleep(100 * time.Millisecond)
			c.CloseTab(t, slowID)
		}()
		closed := run(`{"tab":"` + help + `","steps":[{"click":"#slow"}]}`)
		if !closed.OK() || !strings.Contains(strings.Join(closed.Warnings, " "), "tab "+help+" closed during this command") {
			t.Errorf("pooled %t: a click whose tab closed while the page handled it: %s", pooled, closed.JSON())
		}
		read = run(`{"tab":"` + account.Tab + `","steps":[{"pageFunction":"window.helpClosed"}]}`)
		if got := jsonString(read.Steps[0].Output); got != "2" {
			t.Errorf("pooled %t: the handlers ran %s times in all, want 2", pooled, got)
		}

		// A person closes the tab while a step waits.
		other := run(`{"steps":[{"openTab":"` + base + `help.html"}]}`)
		mustOK(t, other)
		id, _ := stepOutput(t, other, 0)["targetId"].(string)
		go closeWhenTitled(t, c, id, "armed")
		slept := run(`{"tab":"` + other.Tab + `","steps":[{"pageFunction":"document.title = 'armed'"},{"sleep":1500}]}`)
		if !slept.OK() || slept.Context != nil || !strings.Contains(strings.Join(slept.Warnings, " "), "tab "+other.Tab+" closed during this command") {
			t.Errorf("pooled %t: a sleep on a tab closed meanwhile: %s", pooled, slept.JSON())
		}

		// A wait on a tab closed meanwhile says so, once, rather than
		// running out its time and blaming the selector.
		waiter := run(`{"steps":[{"openTab":"` + base + `help.html"}]}`)
		mustOK(t, waiter)
		id, _ = stepOutput(t, waiter, 0)["targetId"].(string)
		go closeWhenTitled(t, c, id, "armed")
		waited := run(`{"tab":"` + waiter.Tab + `","steps":[{"pageFunction":"document.title = 'armed'"},{"wait":{"selector":"#never","timeout":20000}}]}`)
		all := waited.JSON()
		if waited.OK() || len(waited.Steps) != 2 || !strings.HasPrefix(waited.Steps[1].Error, "the tab was closed during this step") || strings.Contains(string(all), "waited") || len(waited.Warnings) > 0 {
			t.Errorf("pooled %t: a wait on a tab closed meanwhile: %s", pooled, all)
		}
	}
}

// closeWhenTitled closes tab id, as a person would, once its title is
// title: the command set it, so it holds the tab and runs its next step
// (a fixed delay lost that race on a loaded machine, closing the tab
// before the command attached).
func closeWhenTitled(t *testing.T, c *browsertest.Chrome, id, title string) {
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		list, err := chrome.List(context.Background(), c.Endpoint)
		if err == nil && slices.ContainsFunc(list, func(x chrome.TargetInfo) bool { return x.ID == id && x.Title == title }) {
			time.Sleep(100 * time.Millisecond) // into the step that waits
			c.CloseTab(t, id)
			return
		}
	}
	t.Errorf("tab %s never showed the title %q", id, title)
}

// TestAnswerSaysThePageCrashedDuringTheCommand: a page whose renderer dies
// while a step waits answers with the crash and how to recover, not a
// bare ok.
func TestAnswerSaysThePageCrashedDuringTheCommand(t *testing.T) {
	base := lostTabSite(t)
	c := browsertest.Require(t)
	out := runJSON(t, `{"steps":[{"openTab":"`+base+`help.html"}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	id, _ := stepOutput(t, out, 0)["targetId"].(string)
	go func() {
		time.Sleep(300 * time.Millisecond)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		b, err := browser.Connect(ctx, c.Endpoint, browser.ConnectOptions{})
		if err != nil {
			t.Error(err)
			return
		}
		defer b.Close()
		p, err := b.Attach(ctx, target.ID(id))
		if err != nil {
			t.Error(err)
			return
		}
		p.Session().Send(ctx, "Page.crash", nil)
	}()
	slept := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"sleep":1500}]}`)
	if !slept.OK() || slept.Context != nil || !strings.Contains(strings.Join(slept.Warnings, " "), "tab "+out.Tab+" has crashed") || !strings.Contains(strings.Join(slept.Warnings, " "), `{"reload":true}`) {
		t.Errorf("a sleep on a page that crashed meanwhile: %s", slept.JSON())
	}
	back := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"reload":true},{"pageFunction":"document.title"}]}`)
	mustOK(t, back)
	if got := jsonString(back.Steps[1].Output); got != `"Help"` {
		t.Errorf("after reload the page reads %s", got)
	}
}
