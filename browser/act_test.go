package browser

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// openFixture opens testdata/act/<name> in a fresh tab.
func openFixture(t *testing.T, name string) (*Page, string) {
	t.Helper()
	base := browsertest.Serve(t, os.DirFS("testdata"))
	p := openTestTab(t)
	if _, err := p.Navigate(testCtx(t), base+"act/"+name, WaitLoad); err != nil {
		t.Fatal(err)
	}
	return p, base
}

// js evaluates an expression and returns its JSON.
func js(t *testing.T, p *Page, expr string) string {
	t.Helper()
	raw, err := p.Eval(testCtx(t), expr)
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return string(raw)
}

func click(t *testing.T, p *Page, tg Target, o ClickOptions) *ClickResult {
	t.Helper()
	res, err := p.Click(testCtx(t), tg, o)
	if err != nil {
		t.Fatalf("click %s: %v", tg, err)
	}
	return res
}

func TestClickTargets(t *testing.T) {
	p, _ := openFixture(t, "click.html")
	ctx := testCtx(t)
	res := click(t, p, Target{Selector: "#b1"}, ClickOptions{})
	if res.Method != "cdp" || js(t, p, "hits.clicks") != "1" {
		t.Fatalf("selector click: %+v clicks=%s", res, js(t, p, "hits.clicks"))
	}
	click(t, p, Target{Text: "add one"}, ClickOptions{})
	if js(t, p, "hits.clicks") != "2" {
		t.Fatal("text click did not land")
	}
	s, _ := p.Snapshot(ctx, SnapshotOptions{})
	click(t, p, Target{Ref: refOf(t, s.YAML, `button "Second button"`)}, ClickOptions{})
	if js(t, p, "hits.second") != "true" {
		t.Fatal("ref click did not land")
	}
	res = click(t, p, Target{Selectors: []string{"#nope", "#b1"}}, ClickOptions{})
	if res.Matched != "#b1" || js(t, p, "hits.clicks") != "3" {
		t.Fatalf("selector list: %+v", res)
	}
	var box struct{ X, Y, W, H float64 }
	json.Unmarshal([]byte(js(t, p, `(() => { const r = document.getElementById('b1').getBoundingClientRect(); return {X: r.x, Y: r.y, W: r.width, H: r.height}; })()`)), &box)
	click(t, p, Target{Point: &Point{X: box.X + box.W/2, Y: box.Y + box.H/2}}, ClickOptions{})
	if js(t, p, "hits.clicks") != "4" {
		t.Fatal("point click did not land")
	}
	click(t, p, Target{Selector: "#wrapped"}, ClickOptions{NativeOnly: true})
	click(t, p, Target{Selector: "#rot"}, ClickOptions{NativeOnly: true})
	if js(t, p, "[hits.wrapped, hits.rotated]") != "[true,true]" {
		t.Fatal("wrapped link or rotated button not clicked by mouse events")
	}
	click(t, p, Target{Text: "Accept all"}, ClickOptions{NativeOnly: true})
	click(t, p, Target{Selector: "#far"}, ClickOptions{NativeOnly: true})
	if js(t, p, "hits.far") != "true" {
		t.Fatal("element below the fold not scrolled to and clicked")
	}
}

func TestClickInvalidSelectorFailsAtOnce(t *testing.T) {
	p, _ := openFixture(t, "click.html")
	_, err := p.Click(testCtx(t), Target{Selector: "[[[bad"}, ClickOptions{})
	if KindOf(err) != KindSelector {
		t.Fatalf("err = %v (%s)", err, KindOf(err))
	}
}

func TestClickUnderCookieBanner(t *testing.T) {
	p, _ := openFixture(t, "click.html")
	ctx := testCtx(t)
	_, err := p.Click(ctx, Target{Selector: "#under"}, ClickOptions{NativeOnly: true, ActionOptions: ActionOptions{NoAutoForce: true, Timeout: 1500e6}})
	if err == nil || !strings.Contains(err.Error(), "cookie-banner") || !strings.Contains(err.Error(), "div#banner") {
		t.Fatalf("no interceptor named: %v", err)
	}
	if js(t, p, "hits.under") != "null" {
		t.Fatal("the covered button was clicked")
	}
	// Without strict options too: a consent banner is a layer a user has
	// to dismiss, so the click never goes through it (no auto-force, no
	// JavaScript click), and the answer lists its buttons.
	_, err = p.Click(ctx, Target{Selector: "#under"}, ClickOptions{ActionOptions: ActionOptions{Timeout: 3e9}})
	e := wantKind(t, err, KindElementIntercepted)
	if js(t, p, "hits.under") != "null" {
		t.Fatal("the click went through the cookie banner")
	}
	by, _ := e.Details["interceptedBy"].(map[string]any)
	buttons, _ := json.Marshal(by["buttons"])
	if by["kind"] != "cookie-banner" || !strings.Contains(string(buttons), `"name":"Accept all"`) {
		t.Errorf("interceptor = %#v, buttons = %s", by, buttons)
	}
}

func TestClickWaitsForLateAndMovingElements(t *testing.T) {
	p, _ := openFixture(t, "click.html")
	res := click(t, p, Target{Text: "Late button"}, ClickOptions{NativeOnly: true})
	if js(t, p, "hits.late") != "true" || res.AutoForced {
		t.Fatalf("late button: %+v", res)
	}
	// A button that never stops moving: without stable the click does not
	// wait for it to rest, measures it where it is and the press lands.
	// It moves 20 px a second, so a slow machine's delay between measuring
	// and pressing (a fast mover can leave the point within 150 ms) does not
	// decide the outcome.
	moving := `new Promise((done) => { const b = document.getElementById('mover'), x = b.getBoundingClientRect().x; requestAnimationFrame(() => requestAnimationFrame(() => done(b.getBoundingClientRect().x !== x))); })`
	if js(t, p, moving) != "true" {
		t.Fatal("the #mover button does not move between animation frames")
	}
	res = click(t, p, Target{Selector: "#mover"}, ClickOptions{NativeOnly: true})
	if js(t, p, "hits.moved") != "true" || res.Method != "cdp" || res.AutoForced {
		t.Fatalf("moving button: %+v", res)
	}
	if js(t, p, moving) != "true" {
		t.Error("the #mover button stopped moving: the click was not tested on a moving element")
	}
	// A button sliding into place: stable waits until it stops, then the
	// mouse click lands on it.
	// The setup returns once the slide has begun (transitionrun), so the
	// click cannot measure the button before it starts moving.
	js(t, p, `new Promise((done) => { const b = document.createElement('button'); b.id = 'slider'; b.textContent = 'Sliding in'; b.style = 'position: relative; left: 0; transition: left 0.5s linear'; b.onclick = () => { hits.slid = true; }; b.addEventListener('transitionrun', () => done(1)); document.querySelector('main').prepend(b); requestAnimationFrame(() => requestAnimationFrame(() => { b.style.left = '300px'; })); })`)
	res = click(t, p, Target{Selector: "#slider"}, ClickOptions{NativeOnly: true, ActionOptions: ActionOptions{Stable: true}})
	if js(t, p, "hits.slid") != "true" || js(t, p, "Math.round(document.getElementById('slider').getBoundingClientRect().x)") == "8" {
		t.Fatalf("sliding button: %+v", res)
	}
}

func TestClickDisabledFails(t *testing.T) {
	p, _ := openFixture(t, "click.html")
	_, err := p.Click(testCtx(t), Target{Selector: "#dis"}, ClickOptions{ActionOptions: ActionOptions{Timeout: 300e6}})
	if err == nil || !strings.Contains(err.Error(), "disabled") || js(t, p, "hits.disabledClicked") != "null" {
		t.Fatalf("disabled: %v", err)
	}
}

func TestClickHiddenCheckboxThroughLabel(t *testing.T) {
	p, _ := openFixture(t, "click.html")
	res := click(t, p, Target{Selector: "#hidden-cb"}, ClickOptions{})
	if res.Via != "label" || res.Checked == nil || !*res.Checked || js(t, p, "document.getElementById('hidden-cb').checked") != "true" {
		t.Fatalf("hidden checkbox: %+v checked=%s", res, js(t, p, "document.getElementById('hidden-cb').checked"))
	}
	click(t, p, Target{Selector: "#hidden-cb"}, ClickOptions{})
	if js(t, p, "document.getElementById('hidden-cb').checked") != "false" {
		t.Fatal("second click did not uncheck")
	}
}

func TestClickNavigationAndNewTabs(t *testing.T) {
	p, base := openFixture(t, "click.html")
	res := click(t, p, Target{Selector: "#spa"}, ClickOptions{})
	if !res.Navigated || res.NewURL != base+"app/settings" || js(t, p, "document.getElementById('view').textContent") != `"Settings"` {
		t.Fatalf("pushState link: %+v", res.Effect)
	}
	res = click(t, p, Target{Selector: "#hash"}, ClickOptions{})
	if res.Navigated {
		t.Errorf("hash link reported navigation: %+v", res.Effect)
	}
	res = click(t, p, Target{Selector: "#blank"}, ClickOptions{})
	if len(res.NewTabs) != 1 || !strings.HasSuffix(res.NewTabs[0].URL, "/act/other.html") || res.Navigated {
		t.Fatalf("target=_blank: %+v", res.Effect)
	}
	defer p.Browser.CloseTab(testCtx(t), targetIDOf(res.NewTabs[0].TargetID))
	res = click(t, p, Target{Selector: "#opener"}, ClickOptions{})
	if len(res.NewTabs) != 1 || !strings.Contains(res.NewTabs[0].URL, "via=open") {
		t.Fatalf("window.open: %+v", res.Effect)
	}
	defer p.Browser.CloseTab(testCtx(t), targetIDOf(res.NewTabs[0].TargetID))
	p.Navigate(testCtx(t), base+"act/click.html", WaitLoad)
	res = click(t, p, Target{Text: "Open in new tab"}, ClickOptions{Modifiers: 0})
	for _, nt := range res.NewTabs {
		p.Browser.CloseTab(testCtx(t), targetIDOf(nt.TargetID))
	}
}

func TestClickLinkNavigates(t *testing.T) {
	base := servePages(t, map[string]string{"a.html": `<main><a href="b.html">Go to B</a></main>`, "b.html": `<title>B</title><main>B page</main>`})
	p := openTestTab(t)
	p.Navigate(testCtx(t), base+"a.html", WaitLoad)
	res := click(t, p, Target{Text: "Go to B"}, ClickOptions{})
	if !res.Navigated || res.NewURL != base+"b.html" || js(t, p, "document.title") != `"B"` {
		t.Fatalf("link: %+v title=%s", res.Effect, js(t, p, "document.title"))
	}
}

func TestClickButtonsAndModifiers(t *testing.T) {
	p, _ := openFixture(t, "click.html")
	click(t, p, Target{Selector: "#dbl"}, ClickOptions{Double: true})
	click(t, p, Target{Selector: "#ctx"}, ClickOptions{Button: input.MouseButtonRight})
	mods, _ := p.Input().ParseModifiers([]string{"Control", "Shift"})
	click(t, p, Target{Selector: "#mods"}, ClickOptions{Modifiers: mods})
	if got := js(t, p, "[hits.dbl, hits.ctx, hits.mods]"); got != "[1,true,[true,true,false,false]]" {
		t.Fatalf("double/right/modifiers = %s", got)
	}
	res := click(t, p, Target{Selector: "#b1"}, ClickOptions{JSClick: true})
	if res.Method != "jsClick" || js(t, p, "hits.clicks") != "1" {
		t.Fatalf("jsClick: %+v", res)
	}
}

func TestClickRefStaysOnItsElement(t *testing.T) {
	p, _ := openFixture(t, "click.html")
	ctx := testCtx(t)
	s, _ := p.Snapshot(ctx, SnapshotOptions{})
	ref := refOf(t, s.YAML, `button "Add one"`)
	// Re-rendered with another label: the ref must not click anything.
	js(t, p, `(() => { const b = document.getElementById('b1'); const n = b.cloneNode(true); n.textContent = 'Remove all'; b.replaceWith(n); return 1; })()`)
	_, err := p.Click(ctx, Target{Ref: ref}, ClickOptions{})
	if KindOf(err) != KindStaleElement || js(t, p, "hits.clicks") != "null" {
		t.Fatalf("stale ref: %v clicks=%s", err, js(t, p, "hits.clicks"))
	}
}
