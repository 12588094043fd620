package browser

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// accountPage counts clicks per button, as a settings page would act on
// them.
const accountPage = `<!doctype html><title>Account</title><main>
<button onclick="window.clicks.push('delete')">Delete account</button>
<button onclick="window.clicks.push('keep')">Keep account</button>
</main><script>window.clicks = [];</script>`

// TestRefOfAnotherTabIsRefused takes snapshots of the same page in two
// tabs and uses tab A's ref for "Delete account" on tab B: it must fail,
// naming the tab the ref belongs to, and click nothing on B.
func TestRefOfAnotherTabIsRefused(t *testing.T) {
	ctx := testCtx(t)
	a := loadHTML(t, accountPage)
	b := loadHTML(t, accountPage)
	sa, err := a.Snapshot(ctx, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sb, err := b.Snapshot(ctx, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	refA := refOf(t, sa.YAML, `button "Delete account"`)
	refB := refOf(t, sb.YAML, `button "Keep account"`)
	if refA == refOf(t, sb.YAML, `button "Delete account"`) || sa.SnapshotID == sb.SnapshotID {
		t.Fatalf("two tabs issued the same ref %s / snapshot id %s", refA, sa.SnapshotID)
	}
	for _, tg := range []Target{{Ref: refA}, {Selector: refA}} {
		_, err = b.Click(ctx, tg, ClickOptions{})
		if KindOf(err) != KindStaleElement || !strings.Contains(err.Error(), "another tab") {
			t.Errorf("tab A's ref %s used on tab B: %v", refA, err)
		}
	}
	if got := js(t, b, "window.clicks"); got != `[]` {
		t.Fatalf("tab A's ref clicked on tab B: %s", got)
	}
	// Each tab's own refs still work, once.
	if _, err := a.Click(ctx, Target{Ref: refA}, ClickOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Click(ctx, Target{Ref: refB}, ClickOptions{}); err != nil {
		t.Fatal(err)
	}
	if ga, gb := js(t, a, "window.clicks"), js(t, b, "window.clicks"); ga != `["delete"]` || gb != `["keep"]` {
		t.Fatalf("own refs: tab A clicked %s, tab B %s", ga, gb)
	}
	// Refs handed out without a snapshot (elementsAt) are the tab's too.
	c := loadHTML(t, accountPage)
	at, err := c.ElementAt(ctx, Point{X: 20, Y: 20})
	if err != nil {
		t.Fatal(err)
	}
	d := loadHTML(t, accountPage)
	if _, err := d.Snapshot(ctx, SnapshotOptions{}); err != nil {
		t.Fatal(err)
	}
	if ref := at.Ref; ref != "" {
		if _, err := d.Click(ctx, Target{Ref: ref}, ClickOptions{}); err == nil {
			t.Errorf("a ref elementsAt gave on one tab clicked on another")
		}
	}
	if got := js(t, d, "window.clicks"); got != `[]` {
		t.Fatalf("a foreign elementsAt ref clicked: %s", got)
	}
}

// TestCallOnAClosedTabSaysTheTabWasClosed closes a tab behind an attached
// page's back (as another agent would): the next action fails with our
// typed error and a hint, not Chrome's raw "Session with given id not
// found".
func TestCallOnAClosedTabSaysTheTabWasClosed(t *testing.T) {
	p := loadHTML(t, `<!doctype html><button id="b">B</button>`)
	other, err := Connect(testCtx(t), p.Browser.Endpoint, ConnectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := other.CloseTab(testCtx(t), p.TargetID); err != nil {
		t.Fatal(err)
	}
	for _, act := range []func() error{
		func() error { _, err := p.Click(testCtx(t), Target{Selector: "#b"}, ClickOptions{}); return err },
		func() error { _, err := p.Eval(testCtx(t), "1"); return err },
	} {
		err := act()
		var be *Error
		if !errors.As(err, &be) || be.Kind != KindContextDestroyed || !strings.Contains(be.Error(), "tab was closed") || be.Hint == "" {
			t.Fatalf("action on a closed tab: %v", err)
		}
	}
}

// TestRefsBeforeASnapshotAreTheDocuments: refs an error report hands out
// before any snapshot (its visible buttons) in one document are not handed
// out again in the tab's next document, so a ref from the first page
// cannot click an element of the second.
func TestRefsBeforeASnapshotAreTheDocuments(t *testing.T) {
	ctx := testCtx(t)
	base := servePages(t, map[string]string{
		"a.html": `<!doctype html><main><button onclick="window.clicks.push('count')">Count here</button></main><script>window.clicks = [];</script>`,
		"b.html": accountPage,
	})
	p := openTestTab(t)
	visible := func(page string) []string {
		t.Helper()
		if _, err := p.Navigate(ctx, base+page, WaitLoad); err != nil {
			t.Fatal(err)
		}
		var refs []string
		list, _ := p.Diagnose(ctx, "Cuont")["visibleButtons"].([]any)
		for _, b := range list {
			if m, ok := b.(map[string]any); ok {
				refs = append(refs, fmt.Sprint(m["ref"]))
			}
		}
		if len(refs) == 0 {
			t.Fatalf("%s: the report lists no buttons", page)
		}
		return refs
	}
	first := visible("a.html")
	second := visible("b.html")
	for _, r := range second {
		if slices.Contains(first, r) {
			t.Fatalf("ref %s was handed out on both pages (%v, %v)", r, first, second)
		}
	}
	if _, err := p.Click(ctx, Target{Ref: first[0]}, ClickOptions{}); err == nil {
		t.Error("the first page's ref clicked on the second page")
	}
	if got := js(t, p, "window.clicks"); got != `[]` {
		t.Fatalf("the first page's ref clicked %s", got)
	}
}
