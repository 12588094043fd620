package browser

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// openHostile opens the account page, with its hostile script when
// hostile (testdata/act/hostile.html): it replaces JSON.stringify, Array
// and String methods, getComputedStyle, getAttribute,
// getBoundingClientRect, textContent and the input value getter in its
// own world, and (unless nopin) pins window.__cdpSkill to an object that
// lies.
func openHostile(t *testing.T, query string) *Page {
	t.Helper()
	base := browsertest.Serve(t, os.DirFS("testdata"))
	p := openTestTab(t)
	url := base + "act/hostile.html" + query
	if _, err := p.Navigate(testCtx(t), url, WaitLoad); err != nil {
		t.Fatal(err)
	}
	return p
}

var refAttr = regexp.MustCompile(` \[ref=s[0-9]+e[0-9]+\]`)

// TestHostilePageCannotForgeSnapshot: the engine runs in its own world, so
// what the page replaced in its world changes nothing in the snapshot.
func TestHostilePageCannotForgeSnapshot(t *testing.T) {
	shot := func(query string) string {
		p := openHostile(t, query)
		s, err := p.Snapshot(testCtx(t), SnapshotOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return refAttr.ReplaceAllString(s.YAML, "")
	}
	clean := shot("")
	for _, want := range []string{`navigation "Site"`, `textbox "Email"`, `button "Sign in"`, `status: Not signed in`} {
		if !strings.Contains(clean, want) {
			t.Fatalf("the clean snapshot lacks %s:\n%s", want, clean)
		}
	}
	for _, query := range []string{"?hostile", "?hostile&nopin"} {
		if hostile := shot(query); hostile != clean {
			t.Errorf("the hostile page (%s) changed the snapshot:\n%s\nclean page:\n%s", query, hostile, clean)
		}
	}
}

// TestHostilePageCannotForgeActions clicks and fills on the hostile page:
// the click runs the handler once and is verified by the engine's own
// probe; the fill reports what the field really holds, not what the page's
// value getter claims.
func TestHostilePageCannotForgeActions(t *testing.T) {
	p := openHostile(t, "?hostile")
	ctx := testCtx(t)
	s, err := p.Snapshot(ctx, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Click(ctx, Target{Ref: refOf(t, s.YAML, `button "Sign in"`)}, ClickOptions{NativeOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Method != "cdp" || js(t, p, "window.signins") != "1" {
		t.Fatalf("click: method %s, handler ran %s times", res.Method, js(t, p, "window.signins"))
	}
	fill, err := p.Fill(ctx, Target{Ref: refOf(t, s.YAML, `textbox "Email"`)}, "ada@example.test", FillOptions{Clear: true})
	held, err2 := p.engineEval(ctx, `document.getElementById('email').value`)
	if err2 != nil || string(held) != `"attacker@evil.test"` {
		t.Fatalf("the field holds %s (%v): the fixture did not rewrite it", held, err2)
	}
	switch {
	case err != nil:
		if KindOf(err) != KindElementNotEditable {
			t.Fatalf("fill failed with %v", err)
		}
	case fill.Consumed:
		// The value went in and the page replaced it: true, and said.
	default:
		t.Fatalf("fill on a field the page rewrites reported %+v (verified %v)", fill, fill.Verified != nil && *fill.Verified)
	}
}

// TestHostileWatchCannotForgeANavigation: the action watch lives in the
// page's world, where the page can replace it; what it reports about
// navigation is not believed (Chrome's events say whether the page
// navigated).
func TestHostileWatchCannotForgeANavigation(t *testing.T) {
	p := openHostile(t, "")
	ctx := testCtx(t)
	js(t, p, `setInterval(() => {
		const w = window.__cdpSkillWatch;
		if (w && !w.forged) { w.forged = true; w.watchSettle = async () => ({armed: true, url: 'https://bank.example/transfer-done'}); }
	}, 5)`)
	s, err := p.Snapshot(ctx, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ref := refOf(t, s.YAML, `button "Sign in"`)
	for i := 1; i <= 2; i++ {
		res, err := p.Click(ctx, Target{Ref: ref}, ClickOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Navigated || res.NewURL != "" {
			t.Fatalf("click %d reports a navigation to %s that did not happen", i, res.NewURL)
		}
		if i == 1 {
			js(t, p, `new Promise((done) => setTimeout(done, 50))`)
		}
	}
	// The watch keeps no name the page could reach to replace it.
	if got := js(t, p, "[window.signins, !!window.__cdpSkillWatch]"); got != "[2,false]" {
		t.Fatalf("signins, watch reachable = %s", got)
	}
}

// TestHostilePageCannotForgeItsContext: the tab's title, scroll and
// viewport in every answer are read where the page cannot redefine them.
func TestHostilePageCannotForgeItsContext(t *testing.T) {
	p := openHostile(t, "")
	js(t, p, `Object.defineProperty(Document.prototype, 'title', {get: () => 'FORGED TITLE', configurable: true}); Object.defineProperty(window, 'innerHeight', {get: () => 1}); 1`)
	info, err := p.Info(testCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	if info.Title != "Account" || info.Viewport.Height <= 1 {
		t.Fatalf("context: %+v", info)
	}
}

// TestPageCannotBlockTheSerializer: the serializer keeps no name in the
// page's world (it is a function literal of each call), so a page that
// takes its old name, or any name, cannot keep a function's value from
// coming back typed; expressions returning plain values still work.
func TestPageCannotBlockTheSerializer(t *testing.T) {
	p := openHostile(t, "")
	ctx := testCtx(t)
	js(t, p, `Object.defineProperty(window, '__cdpSkillPage', {value: {}, writable: false, configurable: false}); 1`)
	raw, err := p.Scripts().Run(ctx, `() => ({n: 1 + 1, d: new Date(0)})`)
	if err != nil || string(raw) != `{"n":2,"d":{"type":"Date","value":"1970-01-01T00:00:00.000Z","timestamp":0}}` {
		t.Fatalf("function on a page holding the old name: %s %v", raw, err)
	}
	if raw, err := p.Scripts().Run(ctx, `JSON.stringify({a: 1})`); err != nil || string(raw) != `"{\"a\":1}"` {
		t.Fatalf("expression on a page holding the old name: %s %v", raw, err)
	}
}

// TestPageThatBlocksTheWatchIsSaid: the watch keeps no name in the
// page's world, so a page that takes its old name or replaces what it
// finds there changes nothing (the watch arms, no warning); a page that
// breaks a built-in the watch needs to arm (MessageChannel) still gets its
// click once, and the answer says that it may have come early.
func TestPageThatBlocksTheWatchIsSaid(t *testing.T) {
	for _, c := range []struct {
		block string
		warn  bool
	}{
		{`Object.defineProperty(window, '__cdpSkillWatch', {value: {}, writable: false, configurable: false}); 1`, false},
		{`setInterval(() => { const w = window.__cdpSkillWatch; if (w && !w.hung) { w.hung = true; w.watchSettle = () => new Promise(() => {}); } }, 5); 1`, false},
		{`window.MessageChannel = function () { throw new Error('no channels here'); }; 1`, true},
	} {
		p := openHostile(t, "")
		ctx := testCtx(t)
		js(t, p, c.block)
		s, err := p.Snapshot(ctx, SnapshotOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ref := refOf(t, s.YAML, `button "Sign in"`)
		var res *ClickResult
		for i := 0; i < 2; i++ { // the second click meets a watch replaced after the first
			if res, err = p.Click(ctx, Target{Ref: ref}, ClickOptions{}); err != nil {
				t.Fatal(err)
			}
			js(t, p, `new Promise((done) => setTimeout(done, 30))`)
		}
		if got := js(t, p, "window.signins"); got != "2" {
			t.Fatalf("%s: the handler ran %s times for two clicks", c.block, got)
		}
		if warned := strings.Contains(strings.Join(res.Warnings, " "), "kept cdp-skill from watching"); warned != c.warn {
			t.Errorf("%s: warned %v, want %v: %v", c.block, warned, c.warn, res.Warnings)
		}
	}
}

// TestRegistryGetterThatHangsDoesNotHoldTheSnapshot: the listener
// registry is read in the page's world, where a getter can loop forever;
// the snapshot still comes, at once.
func TestRegistryGetterThatHangsDoesNotHoldTheSnapshot(t *testing.T) {
	p := openHostile(t, "")
	js(t, p, `Object.defineProperty(window, '__cdpSkillClicks', {get() { for (;;) {} }, configurable: false}); 1`)
	s, err := p.Snapshot(testCtx(t), SnapshotOptions{})
	if err != nil || !strings.Contains(s.YAML, `button "Sign in"`) {
		t.Fatalf("snapshot: %v\n%v", err, s)
	}
}
