package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/keeper"
)

func openFeedback(t *testing.T) (tab, base string) {
	t.Helper()
	base = pagesURL(t)
	out := runJSON(t, `{"steps":[{"openTab":"`+base+`feedback.html"}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	return out.Tab, base
}

func TestClickReportsAddedItemsWithUsableRefs(t *testing.T) {
	tab, _ := openFeedback(t)
	out := runJSON(t, `{"tab":"`+tab+`","steps":[{"click":{"text":"Menu"}}]}`)
	mustOK(t, out)
	ch, ok := out.Changes, out.Changes != nil
	if !ok || len(ch.Added) != 3 || !strings.HasPrefix(ch.Summary, "Clicked. 3 added.") {
		t.Fatalf("changes: %s", jsonString(out.Changes))
	}
	if !strings.Contains(ch.Added[1], `link "Sale"`) || len(ch.Changed) != 1 || ch.Changed[0].Field != "expanded" || ch.Changed[0].To != true {
		t.Errorf("changes: %s", jsonString(ch))
	}
	ref := ch.Added[1][strings.Index(ch.Added[1], "[ref=")+5 : strings.LastIndex(ch.Added[1], "]")]
	next := runJSON(t, `{"tab":"`+tab+`","steps":[{"click":"`+ref+`"},{"pageFunction":"location.hash"}]}`)
	mustOK(t, next)
	if jsonString(next.Steps[1].Output) != `"#sale"` {
		t.Errorf("ref %s from changes.added did not click Sale: %s", ref, next.JSON())
	}
}

func TestCheckboxClickIsAChange(t *testing.T) {
	tab, _ := openFeedback(t)
	out := runJSON(t, `{"tab":"`+tab+`","steps":[{"click":"#agree"}]}`)
	mustOK(t, out)
	ch := out.Changes
	if ch == nil || len(ch.Changed) != 1 || ch.Changed[0].Field != "checked" || ch.Changed[0].From != false || ch.Changed[0].To != true {
		t.Fatalf("changes: %s", jsonString(out.Changes))
	}
}

func TestLinkClickNavigatesWithoutDiff(t *testing.T) {
	tab, base := openFeedback(t)
	out := runJSON(t, `{"tab":"`+tab+`","steps":[{"click":{"text":"Go to page one"}}]}`)
	mustOK(t, out)
	if !out.Navigated || out.Changes != nil || out.Context.URL != base+"one.html" {
		t.Fatalf("navigated=%v changes=%s url=%s", out.Navigated, jsonString(out.Changes), out.Context.URL)
	}
	if !strings.Contains(out.ViewportSnap, `heading "One"`) {
		t.Errorf("viewport snapshot of the new page: %q", out.ViewportSnap)
	}
}

func TestMisspelledTextGetsNearMatch(t *testing.T) {
	tab, _ := openFeedback(t)
	out := runJSON(t, `{"tab":"`+tab+`","timeout":1500,"steps":[{"click":{"text":"Submit ordr"}}]}`)
	if out.OK() {
		t.Fatal("misspelled click succeeded")
	}
	s := out.Steps[0]
	if s.ErrorType != "ElementNotFoundError" && s.ErrorType != "TimeoutError" {
		t.Errorf("error type %s: %s", s.ErrorType, s.Error)
	}
	ctx, _ := s.Context.(map[string]any)
	near, _ := json.Marshal(ctx["nearMatches"])
	var matches []map[string]any
	json.Unmarshal(near, &matches)
	if len(matches) == 0 || matches[0]["text"] != "Submit order" || matches[0]["score"].(float64) < 80 || matches[0]["ref"] == nil {
		t.Fatalf("near matches: %s", near)
	}
	errs, _ := json.Marshal(ctx["visibleErrors"])
	if !strings.Contains(string(errs), "Payment declined") || ctx["visibleButtons"] == nil || ctx["title"] != "Feedback" {
		t.Errorf("context: %s", jsonString(ctx))
	}
	if jsonString(s.Params) != `{"text":"Submit ordr"}` {
		t.Errorf("params: %s", jsonString(s.Params))
	}
}

func TestSettledWhenAndReadyWhen(t *testing.T) {
	tab, _ := openFeedback(t)
	out := runJSON(t, `{"tab":"`+tab+`","steps":[{"click":{"selector":"#submit-order","settledWhen":"() => document.querySelector('#never')","timeout":700}}]}`)
	mustOK(t, out)
	if w := out.Steps[0].Warning; len(w) != 1 || !strings.Contains(w[0], "settled_when did not hold") || !strings.Contains(w[0], "last value: null") {
		t.Fatalf("warning: %v", w)
	}
	out = runJSON(t, `{"tab":"`+tab+`","steps":[
		{"pageFunction":"setTimeout(() => { window.ready = true }, 500); window.ready = false; window.readyAtClick = null; document.getElementById('submit-order').onclick = () => { window.readyAtClick = window.ready }"},
		{"click":{"selector":"#submit-order","readyWhen":"() => window.ready"}},
		{"pageFunction":"window.readyAtClick"}]}`)
	mustOK(t, out)
	if jsonString(out.Steps[2].Output) != "true" {
		t.Fatalf("the click ran before ready_when held: %s", out.JSON())
	}
}

func TestObserveReturnsTooltip(t *testing.T) {
	tab, _ := openFeedback(t)
	out := runJSON(t, `{"tab":"`+tab+`","steps":[{"click":{"selector":"#slow","settledWhen":"() => document.getElementById('done')","observe":"() => document.getElementById('done').textContent"}}]}`)
	mustOK(t, out)
	if jsonString(out.Steps[0].Observation) != `"Done"` {
		t.Fatalf("observation: %s", out.JSON())
	}
}

func TestStarlarkAndJSHooksBehaveTheSame(t *testing.T) {
	tab, _ := openFeedback(t)
	js := runRecipe(t, Program{Tab: tab, Source: []byte(`
click("#slow", settled_when = "() => !!document.getElementById('done')", observe = "() => document.querySelectorAll('#done').length")
`)})
	mustOK(t, js)
	runJSON(t, `{"tab":"`+tab+`","steps":[{"reload":true}]}`)
	star := runRecipe(t, Program{Tab: tab, Source: []byte(`
def done():
    return exists("#done")
click("#slow", settled_when = done, observe = lambda: count("#done"))
`)})
	mustOK(t, star)
	if jsonString(js.Steps[0].Observation) != "1" || jsonString(star.Steps[0].Observation) != "1" {
		t.Fatalf("js hook %s, starlark hook %s", js.JSON(), star.JSON())
	}
	// A Starlark hook that spins forever is stopped by its own budget and
	// the recipe goes on.
	spin := runRecipe(t, Program{Tab: tab, Source: []byte(`
def spin():
    while True:
        pass
click("#submit-order", settled_when = spin)
result = "went on"
`)})
	mustOK(t, spin)
	if spin.Result != "went on" || !strings.Contains(strings.Join(spin.Steps[0].Warning, " "), "too many steps") {
		t.Fatalf("spinning hook: %s", spin.JSON())
	}
}

func TestConsoleErrorsAndScreenshot(t *testing.T) {
	tab, _ := openFeedback(t)
	// capture full: the default names the files only in the tab's first
	// answer (TestAnswersNameTheTabsFilesOnce).
	out := runJSON(t, `{"tab":"`+tab+`","capture":"full","steps":[{"click":"#boom"}]}`)
	mustOK(t, out)
	c := out.Console
	if c == nil || c.Errors != 3 || c.Warnings != 1 {
		t.Fatalf("console: %s", jsonString(out.Console))
	}
	if c.Messages[0].Text != "order failed: code 42" || c.Messages[0].Count != 2 || !strings.Contains(jsonString(c.Messages), "handler crashed") {
		t.Errorf("messages: %s", jsonString(c.Messages))
	}
	data, err := os.ReadFile(out.Screenshot)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("screenshot is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 1280 {
		t.Errorf("screenshot %dx%d", b.Dx(), b.Dy())
	}
	if full, err := os.ReadFile(out.FullSnapshot); err != nil || !strings.Contains(string(full), `button "Break it"`) {
		t.Errorf("full snapshot file: %v", err)
	}
}

func TestCaptureSettings(t *testing.T) {
	tab, _ := openFeedback(t)
	out := runJSON(t, `{"tab":"`+tab+`","capture":"minimal","steps":[{"click":"#menu"}]}`)
	mustOK(t, out)
	if out.Screenshot != "" || out.ViewportSnap != "" || out.FullSnapshot != "" || out.Changes == nil {
		t.Fatalf("minimal capture: %s", out.JSON())
	}
	out = runJSON(t, `{"tab":"`+tab+`","capture":{"screenshot":false,"fullSnapshot":false},"steps":[{"click":"#menu"}]}`)
	mustOK(t, out)
	if out.Screenshot != "" || out.FullSnapshot != "" || out.ViewportSnap == "" {
		t.Fatalf("partial capture: %s", out.JSON())
	}
	bad := runJSON(t, `{"tab":"`+tab+`","capture":{"screenshots":false},"steps":[{"click":"#menu"}]}`)
	if bad.OK() || bad.Error == nil || bad.Error.Type != TypeValidation || !strings.Contains(bad.Error.Message, "no setting") {
		t.Fatalf("bad capture setting: %s", bad.JSON())
	}
	// Non-visual commands carry the context only.
	read := runJSON(t, `{"tab":"`+tab+`","steps":[{"pageFunction":"1"}]}`)
	if read.Screenshot != "" || read.ViewportSnap != "" || read.Context == nil {
		t.Fatalf("read-only command: %s", read.JSON())
	}
}

func TestDialogBetweenCommandsDoesNotFreezeTheTab(t *testing.T) {
	withSiteRecipes(t)
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[{"openTab":"`+base+`one.html"}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	// Without the dialog keeper, an alert that opens while no command is
	// connected blocks the tab: only the session that saw it open could
	// answer it. The next command says so within its timeout instead of
	// hanging or reloading behind the agent's back.
	var next *Output
	var took time.Duration
	for _, delay := range []int{1500, 4000, 10000} {
		arm := runJSON(t, `{"tab":"`+out.Tab+`","capture":"none","steps":[{"pageFunction":"() => { window.mark = 'kept'; setTimeout(() => alert('opened between commands'), `+strconv.Itoa(delay)+`) }"}]}`)
		mustOK(t, arm)
		if arm.Steps[0].Dialogs != nil {
			continue // it opened during the command
		}
		time.Sleep(time.Duration(delay+500) * time.Millisecond)
		next, took = timedJSON(t, `{"tab":"`+out.Tab+`","timeout":5000,"steps":[{"pageFunction":"window.mark"}]}`)
		break
	}
	if next == nil {
		t.Fatal("the alert never opened between commands")
	}
	if next.OK() || next.Steps[0].ErrorType != "PageUnresponsiveError" || !strings.Contains(next.Steps[0].Error, "dialog") || !strings.Contains(next.Steps[0].Error, `{"reload":true}`) {
		t.Fatalf("next command: %s", next.JSON())
	}
	if took > answerBound(5*time.Second) {
		t.Errorf("the next command answered after %s", took)
	}
	// The agent's reload recovers the tab and says it did.
	back := runJSON(t, `{"tab":"`+out.Tab+`","timeout":10000,"steps":[{"reload":true},{"pageFunction":"document.title"}]}`)
	mustOK(t, back)
	if jsonString(back.Steps[1].Output) != `"Page one"` || len(back.Warnings) != 1 || !strings.Contains(back.Warnings[0], "reloaded") {
		t.Fatalf("reload: %s", back.JSON())
	}
}

func TestDialogBetweenCommandsIsAnsweredByTheKeeperAndReported(t *testing.T) {
	// The keeper runs beside the commands, as the detached process the
	// command line starts.
	kctx, stop := context.WithCancel(context.Background())
	kdone := make(chan error, 1)
	go func() { kdone <- keeper.Serve(kctx, testOptions(t).Endpoint) }()
	t.Cleanup(func() { stop(); <-kdone })

	base := pagesURL(t)
	out := runJSON(t, `{"steps":[{"openTab":"`+base+`one.html"}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	// The page's timer opens an alert after the command ended (a slow
	// machine may need a longer delay).
	var next *Output
	for _, delay := range []int{1500, 4000, 10000} {
		arm := runJSON(t, `{"tab":"`+out.Tab+`","capture":"none","steps":[{"pageFunction":"() => { window.mark = 'kept'; setTimeout(() => { alert('opened between commands'); window.after = 1 }, `+strconv.Itoa(delay)+`) }"}]}`)
		mustOK(t, arm)
		if arm.Steps[0].Dialogs != nil {
			continue // it opened during the command
		}
		time.Sleep(time.Duration(delay+500) * time.Millisecond)
		next = runJSON(t, `{"tab":"`+out.Tab+`","timeout":5000,"steps":[{"pageFunction":"[window.mark, window.after]"}]}`)
		break
	}
	if next == nil {
		t.Fatal("the alert never opened between commands")
	}
	mustOK(t, next)
	if got := jsonString(next.Steps[0].Output); got != `["kept",1]` {
		t.Errorf("the page reads %s (reloaded?)", got)
	}
	if got := jsonString(next.Steps[0].Dialogs); got != `[{"type":"alert","message":"opened between commands","action":"accepted","betweenCommands":true}]` {
		t.Errorf("dialogs = %s", got)
	}
	if len(next.Warnings) != 0 {
		t.Errorf("warnings %v", next.Warnings)
	}
	// Reported once.
	again := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"pageFunction":"1"}]}`)
	mustOK(t, again)
	if again.Steps[0].Dialogs != nil {
		t.Errorf("reported twice: %s", jsonString(again.Steps[0].Dialogs))
	}
}

// TestNavigatedComparesWithTheURLBeforeTheSteps: on an attached tab the
// URL before the steps is read (for a JSON command, without waiting until
// the first step) and navigated compares the end URL with it: a step that
// changes nothing is not a navigation, a goto and a page-run location
// change are, and a recipe on the tab answers the same.
func TestNavigatedComparesWithTheURLBeforeTheSteps(t *testing.T) {
	tab, base := openFeedback(t)
	for _, c := range []struct {
		name, command string
		navigated     bool
		url           string
	}{
		{"sleep", `{"tab":"` + tab + `","capture":"none","steps":[{"sleep":0}]}`, false, base + "feedback.html"},
		{"goto", `{"tab":"` + tab + `","capture":"none","steps":[{"goto":"` + base + `one.html"}]}`, true, base + "one.html"},
		{"again", `{"tab":"` + tab + `","capture":"none","steps":[{"sleep":0}]}`, false, base + "one.html"},
		{"page script", `{"tab":"` + tab + `","capture":"none","steps":[{"pageFunction":"() => { location.href = '` + base + `feedback.html' }"},{"wait":{"url":"feedback"}}]}`, true, base + "feedback.html"},
	} {
		out := runJSON(t, c.command)
		mustOK(t, out)
		if out.Navigated != c.navigated || out.Context.URL != c.url {
			t.Errorf("%s: navigated=%v url=%s, want %v %s", c.name, out.Navigated, out.Context.URL, c.navigated, c.url)
		}
	}
	for _, c := range []struct {
		src       string
		navigated bool
	}{
		{`sleep(0)`, false},
		{`goto("` + base + `one.html")`, true},
	} {
		out := runRecipe(t, Program{Name: "r.star", Source: []byte(c.src), Tab: tab})
		mustOK(t, out)
		if out.Navigated != c.navigated {
			t.Errorf("recipe %s: navigated=%v, want %v", c.src, out.Navigated, c.navigated)
		}
	}
}
