package browser

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// The tests in this file hold the promise of DESIGN.md's "Acting": an
// action has exactly the effect a person's would have, once, on the element
// meant, or fails with a typed error. Each asserts the page's own state.

func wantKind(t *testing.T, err error, kind Kind) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) || e.Kind != kind {
		t.Fatalf("want %s, got %v", kind, err)
	}
	return e
}

func TestTextTargetRanksExactOverSubstring(t *testing.T) {
	p, _ := openFixture(t, "trust.html")
	// "Clear completed" (a button, earlier in the DOM) contains
	// "Completed"; the link is the exact match.
	click(t, p, Target{Text: "Completed"}, ClickOptions{})
	if got := js(t, p, "[location.hash, hits.clear]"); got != `["#/completed",0]` {
		t.Fatalf("hash and Clear-completed clicks = %s", got)
	}
	// Case-insensitive exact beats substring too.
	click(t, p, Target{Text: "clear COMPLETED"}, ClickOptions{})
	if js(t, p, "hits.clear") != "1" {
		t.Fatal("case-insensitive exact match not clicked")
	}
	// exact: true accepts only the exact text.
	_, err := p.Click(testCtx(t), Target{Text: "completed", Exact: true}, ClickOptions{ActionOptions: ActionOptions{Timeout: 300 * time.Millisecond}})
	wantKind(t, err, KindElementNotFound)
}

func TestAmbiguousTextTargetFailsWithCandidates(t *testing.T) {
	p, _ := openFixture(t, "trust.html")
	ctx := testCtx(t)
	_, err := p.Click(ctx, Target{Text: "Delete"}, ClickOptions{})
	e := wantKind(t, err, KindAmbiguousTarget)
	cands, _ := e.Details["candidates"].([]map[string]any)
	if len(cands) != 2 {
		t.Fatalf("candidates = %#v", e.Details["candidates"])
	}
	if got := js(t, p, "[hits.del1, hits.del2]"); got != "[0,0]" {
		t.Fatalf("an ambiguous click clicked something: %s", got)
	}
	for _, c := range cands {
		if c["role"] != "button" || c["name"] != "Delete" || !IsRef(c["ref"].(string)) || c["box"] == nil {
			t.Fatalf("candidate %#v lacks role, name, ref or box", c)
		}
	}
	// The second candidate's ref clicks exactly that one.
	click(t, p, Target{Ref: cands[1]["ref"].(string)}, ClickOptions{})
	if got := js(t, p, "[hits.del1, hits.del2]"); got != "[0,1]" {
		t.Fatalf("ref from the candidates: %s", got)
	}
	// A button and a link with the same text are not ambiguous: buttons
	// rank before links (spec §6.4), and the answer says what else matched.
	res := click(t, p, Target{Text: "Sign in"}, ClickOptions{})
	also, _ := res.Element["alsoMatched"].([]any)
	if got := js(t, p, "[hits.signin, location.hash]"); got != `[1,""]` || len(also) != 1 || also[0].(map[string]any)["role"] != "link" {
		t.Fatalf("sign-in click: %s, alsoMatched %#v", got, res.Element["alsoMatched"])
	}
	// A label and the checkbox it names are one control, not two.
	click(t, p, Target{Text: "Remember me"}, ClickOptions{})
	if js(t, p, "document.getElementById('remember').checked") != "true" {
		t.Fatal("label+checkbox treated as ambiguous or not clicked")
	}
}

func TestLabelTargetRanksExactOverSubstring(t *testing.T) {
	p, _ := openFixture(t, "trust.html")
	ctx := testCtx(t)
	// "Email confirmation" contains "Email" and comes first in the page;
	// "Email" is the exact label. Before ranking the first label containing
	// the text won.
	if _, err := p.Fill(ctx, Target{Label: "email"}, "a@b.c", FillOptions{Clear: true}); err != nil {
		t.Fatal(err)
	}
	if got := js(t, p, "[email.value, email2.value]"); got != `["a@b.c",""]` {
		t.Fatalf("values = %s", got)
	}
}

func TestSelectorPrefersVisibleMatch(t *testing.T) {
	p, _ := openFixture(t, "trust.html")
	ctx := testCtx(t)
	res := click(t, p, Target{Selector: ".buy"}, ClickOptions{})
	if got := js(t, p, "[hits.hiddenBuy, hits.buy]"); got != "[0,1]" {
		t.Fatalf("hidden first match clicked: %s", got)
	}
	if res.Element["matchCount"] != float64(2) || res.Element["matchIndex"] != float64(1) {
		t.Fatalf("element report %#v lacks matchCount 2 / matchIndex 1", res.Element)
	}
	// Only hidden matches: no silent force; the handler never runs.
	_, err := p.Click(ctx, Target{Selector: ".never"}, ClickOptions{ActionOptions: ActionOptions{Timeout: 600 * time.Millisecond}})
	e := wantKind(t, err, KindTimeout)
	if !strings.Contains(e.Error(), "force") || js(t, p, "hits.never") != "0" {
		t.Fatalf("hidden element: %v, clicks %s", e, js(t, p, "hits.never"))
	}
	// force: true is how an agent acts on it deliberately.
	if _, err := p.Click(ctx, Target{Selector: ".never"}, ClickOptions{ActionOptions: ActionOptions{Force: true}}); err != nil {
		t.Fatal(err)
	}
	if js(t, p, "hits.never") != "1" {
		t.Fatal("force: true did not click the hidden element")
	}
	// Reads use the same lookup: the visible match's text.
	if v, err := p.SelectorRead(ctx, ".buy", "text", ""); err != nil || v != "Buy" {
		t.Fatalf("selectorRead text = %v, %v", v, err)
	}
	if v, _ := p.SelectorRead(ctx, ".buy", "count", ""); v != float64(2) {
		t.Fatalf("count = %v", v)
	}
}

func TestClickNeverGoesThroughAModal(t *testing.T) {
	p, _ := openFixture(t, "trust.html")
	ctx := testCtx(t)
	js(t, p, "showConsent()")
	_, err := p.Click(ctx, Target{Selector: "#under"}, ClickOptions{})
	e := wantKind(t, err, KindElementIntercepted)
	if js(t, p, "hits.under") != "0" {
		t.Fatal("the click went through the consent modal")
	}
	by, _ := e.Details["interceptedBy"].(map[string]any)
	buttons, _ := by["buttons"].([]any)
	if len(buttons) == 0 {
		t.Fatalf("interceptedBy lists no buttons: %#v", by)
	}
	accept := buttons[0].(map[string]any)
	if accept["name"] != "Accept all" {
		t.Fatalf("first button %#v", accept)
	}
	// Dismissing it is one step with the listed ref; then the click lands.
	click(t, p, Target{Ref: accept["ref"].(string)}, ClickOptions{})
	res := click(t, p, Target{Selector: "#under"}, ClickOptions{})
	if res.Method != "cdp" || js(t, p, "[hits.accept, hits.under]") != "[1,1]" {
		t.Fatalf("after dismissing: %+v %s", res, js(t, p, "[hits.accept, hits.under]"))
	}
}

func TestClickUnderNativeModalDialogIntercepted(t *testing.T) {
	p := loadHTML(t, `<button id="b" onclick="window.n=(window.n||0)+1">Behind</button>
<dialog id="d"><p>Are you sure?</p><button onclick="d.close()">Close</button></dialog>
<script>d.showModal()</script>`)
	_, err := p.Click(testCtx(t), Target{Selector: "#b"}, ClickOptions{})
	wantKind(t, err, KindElementIntercepted)
	if js(t, p, "window.n || 0") != "0" {
		t.Fatal("the click went through a modal <dialog>")
	}
}

func TestToggleClickRunsHandlerOnce(t *testing.T) {
	p, _ := openFixture(t, "trust.html")
	ctx := testCtx(t)
	click(t, p, Target{Selector: "#bold"}, ClickOptions{})
	click(t, p, Target{Selector: "#wrap"}, ClickOptions{})
	click(t, p, Target{Selector: "#refuse"}, ClickOptions{})
	if got := js(t, p, "[hits.bold, hits.wrap, hits.refuse]"); got != "[1,1,1]" {
		t.Fatalf("handler runs (bold, wrap, refuse) = %s, want one each", got)
	}
	if _, err := p.Scripts().Poll(ctx, `() => bold.getAttribute('aria-pressed') === 'true'`, 20*time.Millisecond); err != nil {
		t.Fatal(err)
	}
}

func TestFillConsumedByThePageIsSuccess(t *testing.T) {
	p, _ := openFixture(t, "trust.html")
	res, err := p.Fill(testCtx(t), Target{Selector: "#new-todo"}, "Buy milk", FillOptions{Clear: true})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Filled || !res.Consumed {
		t.Fatalf("result %+v: want filled and consumed", res)
	}
	if got := js(t, p, "[...document.querySelectorAll('#todos li')].map(l => l.textContent)"); got != `["Buy milk"]` {
		t.Fatalf("todos = %s, want exactly one", got)
	}
}

func TestFillThatNavigatesReportsIt(t *testing.T) {
	p, _ := openFixture(t, "trust.html")
	res, err := p.Fill(testCtx(t), Target{Selector: "#go"}, "next", FillOptions{Clear: true})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Navigated || !strings.HasSuffix(res.NewURL, "other.html") {
		t.Fatalf("result %+v: want navigated to other.html", res)
	}
}

func TestFillEditability(t *testing.T) {
	p, _ := openFixture(t, "trust.html")
	ctx := testCtx(t)
	for _, sel := range []string{"#ro", "#dis"} {
		start := time.Now()
		_, err := p.Fill(ctx, Target{Selector: sel}, "x", FillOptions{Clear: true})
		wantKind(t, err, KindElementNotEditable)
		if waited := time.Since(start); waited > 4*time.Second {
			t.Fatalf("%s: waited the whole actionability timeout (%s)", sel, waited)
		}
	}
	if got := js(t, p, "[ro.value, dis.value]"); got != `["fixed",""]` {
		t.Fatalf("values = %s", got)
	}
	// Fields browsers treat as text take text: an unknown type, a field
	// readonly until focused, a number field.
	for sel, v := range map[string]string{"#odd": "hello", "#trick": "secret", "#qty": "42"} {
		if _, err := p.Fill(ctx, Target{Selector: sel}, v, FillOptions{Clear: true}); err != nil {
			t.Fatalf("%s: %v", sel, err)
		}
		if got := js(t, p, "document.querySelector('"+sel+"').value"); got != `"`+v+`"` {
			t.Fatalf("%s holds %s", sel, got)
		}
	}
	// Checkboxes still are not text fields.
	_, err := p.Fill(ctx, Target{Selector: "#remember"}, "x", FillOptions{Clear: true})
	wantKind(t, err, KindElementNotEditable)
}

func TestStrictDisablesFallbacks(t *testing.T) {
	p := loadHTML(t, `<div style="position:relative"><button id="b" onclick="window.n=(window.n||0)+1">Go</button>
<span style="position:absolute;inset:0;background:rgba(0,0,0,.1)"></span></div>`)
	ctx := testCtx(t)
	// The span is the button's own decoration: without strict the click
	// goes ahead (once) after the wait; with strict it fails.
	_, err := p.Click(ctx, Target{Selector: "#b"}, ClickOptions{NativeOnly: true, ActionOptions: ActionOptions{NoAutoForce: true, Timeout: 1500 * time.Millisecond}})
	wantKind(t, err, KindTimeout)
	if js(t, p, "window.n || 0") != "0" {
		t.Fatal("strict click ran the handler")
	}
	res := click(t, p, Target{Selector: "#b"}, ClickOptions{ActionOptions: ActionOptions{Timeout: 1500 * time.Millisecond}})
	if !res.AutoForced || js(t, p, "window.n") != "1" {
		t.Fatalf("non-strict: %+v n=%s", res, js(t, p, "window.n"))
	}
}

// A button inside an iframe that is below the fold is clicked with a real
// mouse event: the iframe is scrolled into the page first (before, the
// click landed outside the viewport and fell back to a JavaScript click).
func TestClickInFrameBelowTheFold(t *testing.T) {
	base := servePages(t, map[string]string{
		"inner.html": `<button id="b" onclick="window.n=(window.n||0)+1">Inside</button>`,
		"outer.html": `<div style="height:2500px">tall</div><iframe title="Shop" src="inner.html" style="width:300px;height:120px"></iframe>`,
	})
	p := openTestTab(t)
	ctx := testCtx(t)
	if _, err := p.Navigate(ctx, base+"outer.html", WaitLoad); err != nil {
		t.Fatal(err)
	}
	// The frame step takes the iframe's ref from a snapshot.
	s, err := p.Snapshot(ctx, SnapshotOptions{Root: "body"})
	if err != nil {
		t.Fatal(err)
	}
	// On a loaded machine the iframe's context may register a moment
	// after the load event.
	for {
		_, _, err := p.Frames().Switch(ctx, FrameSpec{Selector: refOf(t, s.YAML, `iframe "Shop"`)})
		if err == nil {
			break
		}
		if ctx.Err() != nil {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	res := click(t, p, Target{Selector: "#b"}, ClickOptions{})
	if res.Method != "cdp" || js(t, p, "window.n") != "1" {
		t.Fatalf("click in a frame below the fold: %+v, clicks %s", res, js(t, p, "window.n"))
	}
}

// Plain text (no button or link around it) is found by text, in the page
// and in shadow roots, exactly and as a substring.
func TestTextTargetFindsPlainText(t *testing.T) {
	p := loadHTML(t, `<main><p>Intro</p><div class="card" onmousedown="window.hits=(window.hits||0)+1"><h3>Quarterly report</h3><span>Download the PDF</span></div>
<x-note></x-note><script>customElements.define('x-note', class extends HTMLElement { connectedCallback() { this.attachShadow({mode: 'open'}).innerHTML = '<em onmousedown="window.shadowHits=(window.shadowHits||0)+1">Shadow words here</em>'; } });</script></main>`)
	for _, text := range []string{"Quarterly report", "download the pdf", "Shadow words"} {
		if _, err := p.Click(testCtx(t), Target{Text: text}, ClickOptions{}); err != nil {
			t.Fatalf("text %q: %v", text, err)
		}
	}
	if got := js(t, p, "[window.hits, window.shadowHits]"); got != "[2,1]" {
		t.Fatalf("hits = %s", got)
	}
}

// Names keep NBSP as Chromium does; text targets and snapshotSearch treat
// it as a space.
func TestNBSPMatchesASpace(t *testing.T) {
	p := loadHTML(t, `<button onclick="window.n=(window.n||0)+1">Save&nbsp;draft</button>`)
	ctx := testCtx(t)
	click(t, p, Target{Text: "Save draft", Exact: true}, ClickOptions{})
	if js(t, p, "window.n") != "1" {
		t.Fatal("text with a space did not match a name with NBSP")
	}
	for _, o := range []SearchOptions{{Text: "save draft"}, {Pattern: "^Save draft$"}, {Text: "Save draft", Exact: true}} {
		r, err := p.Search(ctx, o)
		if err != nil || r.MatchCount != 1 {
			t.Fatalf("search %+v: %v, %+v", o, err, r)
		}
	}
}
