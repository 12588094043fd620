package corpus

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
	"github.com/cdp-skill/cdp-skill/browser/chrome"
)

// stepBudget is how long a command of the scenario may take: each step's
// work is well under a second, its timeout 30 s; a command that needs
// more than this is waiting out a timeout.
const stepBudget = 20 * time.Second

// TestScenarioEditorThenDrags is the sequence of the issue in one tab:
// code-editor tasks (click, select-all, typing, Ctrl+H) on one page, then a
// slider drag on another page and an HTML5 drag in a cross-site iframe on
// a third. Input state must not leak from one to the next: every command
// ends well within its timeout and every effect lands once. Not parallel:
// a Control+h that reaches Chrome opens History in front of whichever tab
// was active last, which may be another test's.
func TestScenarioEditorThenDrags(t *testing.T) {
	a := openPage(t, "monaco.html", "[data-ready=monaco]")
	t.Cleanup(func() { closeTabsAt(t, "chrome://history") })
	within := func(what string) {
		t.Helper()
		if a.took > stepBudget {
			t.Errorf("%s took %v", what, a.took.Round(time.Millisecond))
		}
	}

	ref := refIn(t, a.snapshot(), monacoTextbox)
	a.try(`{"click":`+q(ref)+`}`, `{"press":"Control+a"}`, `{"type":"let total = 1;"}`)
	within("click, select-all and typing in the editor")
	a.try(`{"press":"Control+h"}`, `{"wait":".find-widget.visible"}`)
	within("Ctrl+H")
	a.try(`{"press":"Escape"}`, `{"click":`+q(ref)+`}`, `{"press":"End"}`, `{"type":" total++;"}`)
	within("typing after the find widget")
	if got := a.eval(`() => editor.getValue()`); got != "let total = 1; total++;" {
		t.Errorf("editor.getValue() = %q", got)
	}

	a.goTo("nouislider.html", "[data-ready=nouislider]")
	handle := refIn(t, a.snapshot(), `slider "Maximum price"`)
	out := a.try(`{"drag":{"source":` + q(handle) + `,"target":{"ref":` + q(handle) + `,"offsetX":150}}}`)
	within("the slider drag")
	if out.OK() {
		dragOK(t, out, 0)
	}
	if v, _ := strconv.ParseFloat(a.eval(`() => slider.get()`).(string), 64); v < 40 || v > 60 {
		t.Errorf("slider.get() = %v after a 150 px drag from 20, want about 50", v)
	}

	cross := a.site.Cross + "kanban.html"
	a.goTo("frames.html?same=tomselect.html&cross="+cross, "iframe#partner")
	a.do(`{"frame":"#partner"}`, `{"wait":"[data-ready=kanban]"}`, `{"frame":"top"}`)
	from := a.centre("listitem", "Write release notes", `{"frame":"#partner"}`)
	to := a.centre("list", "Doing (1)", `{"frame":"#partner"}`)
	out = a.try(`{"frame":"#partner"}`, `{"drag":{"source":`+from+`,"target":`+to+`}}`, `{"frame":"top"}`)
	within("the HTML5 drag in the cross-site frame")
	if out.OK() {
		dragOK(t, out, 1)
	}
	if got := a.evalIn("#partner", `() => [columns().doing, moves.length]`); got != `[["c4","c1"],1]` {
		t.Errorf("[Doing column, moves] in the frame = %s", got)
	}
}

// TestDragAfterBrowserShortcut presses Control+h on a page that does not
// handle it, so Chrome runs its own shortcut (History opens in a new tab
// in front of the agent's), then drags the slider in the agent's tab: the
// drag must still work and end well within its timeout, the tab usable.
// Not parallel, for the same reason as the scenario.
func TestDragAfterBrowserShortcut(t *testing.T) {
	a := openPage(t, "nouislider.html", "[data-ready=nouislider]")
	t.Cleanup(func() { closeTabsAt(t, "chrome://history") })
	handle := refIn(t, a.snapshot(), `slider "Maximum price"`)
	a.do(`{"press":"Control+h"}`)
	out := a.try(`{"drag":{"source":` + q(handle) + `,"target":{"ref":` + q(handle) + `,"offsetX":150}}}`)
	if a.took > stepBudget {
		t.Errorf("the drag took %v", a.took.Round(time.Millisecond))
	}
	if out.OK() {
		dragOK(t, out, 0)
	}
	if v, _ := strconv.ParseFloat(a.eval(`() => slider.get()`).(string), 64); v < 40 || v > 60 {
		t.Errorf("slider.get() = %v after a 150 px drag from 20, want about 50", v)
	}
}

// closeTabsAt closes the tabs Chrome opened itself at a URL prefix (a
// browser shortcut's page), so they do not outlive the test.
func closeTabsAt(t *testing.T, prefix string) {
	c := browsertest.Require(t)
	ctx := context.Background()
	list, err := chrome.List(ctx, c.Endpoint)
	if err != nil {
		t.Errorf("list tabs: %v", err)
		return
	}
	for _, tab := range list {
		if strings.HasPrefix(tab.URL, prefix) {
			c.CloseTab(t, tab.ID)
		}
	}
}
