package browser

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

func TestSnapshotShowsEveryFrame(t *testing.T) {
	p, site, _ := openFrameSite(t)
	s := frameSiteSnapshot(t, p)
	t.Logf("\n%s", s.YAML)
	for _, want := range []string{`textbox "Same field"`, `heading "Partner"`, `textbox "Full name"`, `button "Tilted button"`, "[url=" + site.Cross + "outer.html]"} {
		if !strings.Contains(s.YAML, want) {
			t.Errorf("snapshot lacks %s", want)
		}
	}
}

// frameJS evaluates expr in the frame a ref belongs to, leaving the page in
// the frame it was in.
func frameJS(t *testing.T, p *Page, ref, expr string) string {
	t.Helper()
	ctx := testCtx(t)
	restore := scopeStep(ctx)
	defer restore()
	if err := p.enterRefFrame(ctx, ref); err != nil {
		t.Fatal(err)
	}
	raw, err := p.Eval(ctx, expr)
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return string(raw)
}

// TestFrameRefsFromTopLevel fills and submits a form in a same-origin
// iframe nested inside a cross-site iframe, checks its box and clicks its
// button, all with refs from one top-level snapshot and without switching
// frames; the server receives the submission once.
func TestFrameRefsFromTopLevel(t *testing.T) {
	p, site, ctx := openFrameSite(t)
	s := frameSiteSnapshot(t, p)
	name, country, terms := refOf(t, s.YAML, `textbox "Full name"`), refOf(t, s.YAML, `combobox "Country"`), refOf(t, s.YAML, `checkbox "I accept`)
	count, submit := refOf(t, s.YAML, `button "Count me"`), refOf(t, s.YAML, `button "Place order"`)
	step := func(what string, fn func() error) {
		t.Helper()
		restore := scopeStep(ctx)
		defer restore()
		if err := fn(); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	step("fill", func() error {
		_, err := p.Fill(ctx, Target{Ref: name}, "Ada Lovelace", FillOptions{Clear: true})
		return err
	})
	step("selectOption", func() error {
		_, err := p.SelectOption(ctx, Target{Ref: country}, []SelectWant{{Label: ptr("Japan")}}, ActionOptions{})
		return err
	})
	step("check", func() error {
		_, err := p.SetChecked(ctx, Target{Ref: terms}, true, ActionOptions{})
		return err
	})
	var clicked *ClickResult
	step("click", func() error {
		var err error
		clicked, err = p.Click(ctx, Target{Ref: count}, ClickOptions{NativeOnly: true})
		return err
	})
	if !strings.Contains(clicked.Frame, "/form.html") {
		t.Errorf("click does not say it acted in the form's frame: %+v", clicked.TargetReport)
	}
	if clicked.Navigated || clicked.NewURL != "" {
		t.Errorf("a click that changed a counter in a cross-site frame reports a navigation to %s", clicked.NewURL)
	}
	if got := frameJS(t, p, count, `[document.getElementById('count').dataset.n, document.querySelector('[name=terms]').checked, document.querySelector('[name=name]').value]`); got != `["1",true,"Ada Lovelace"]` {
		t.Fatalf("form state = %s", got)
	}
	if js(t, p, "document.title") != `"Shop"` {
		t.Fatal("the page did not return to the top document after the steps")
	}
	step("submit", func() error {
		_, err := p.Click(ctx, Target{Ref: submit}, ClickOptions{NativeOnly: true})
		return err
	})
	deadline := time.Now().Add(10 * time.Second)
	for len(site.Submissions()) == 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond)
	if got := site.Submissions(); len(got) != 1 || got[0] != "country=Japan&name=Ada+Lovelace&receipt=&terms=yes" {
		t.Fatalf("submissions = %q", got)
	}
}

// TestTransformedNestedFrameClick clicks, with a real mouse event, a button
// in a frame scaled inside a rotated and scaled cross-site frame, below the
// fold. Scrolling that frame into view unthrottles its renderer only a
// moment later; a press sent before then was lost (1 in 10 runs).
func TestTransformedNestedFrameClick(t *testing.T) {
	p, _, ctx := openFrameSite(t)
	s := frameSiteSnapshot(t, p)
	ref := refOf(t, s.YAML, `button "Tilted button"`)
	restore := scopeStep(ctx)
	res, err := p.Click(ctx, Target{Ref: ref}, ClickOptions{NativeOnly: true})
	restore()
	if err != nil {
		t.Fatal(err)
	}
	if res.Method != "cdp" {
		t.Errorf("method = %q, want cdp", res.Method)
	}
	if got := frameJS(t, p, ref, "window.hits"); got != "1" {
		t.Fatalf("hits = %s (%+v)", got, res)
	}
	if got := js(t, p, "window.topPresses || 0"); got != "0" {
		t.Fatalf("the top document got %s presses meant for the frame", got)
	}
}

// TestDragByTopLevelRefsInCrossSiteFrame drags a list item onto the drop zone inside the
// cross-site frame (HTML5 drag and drop) with top-level refs.
func TestDragByTopLevelRefsInCrossSiteFrame(t *testing.T) {
	p, _, ctx := openFrameSite(t)
	s := frameSiteSnapshot(t, p)
	src, dst := refOf(t, s.YAML, `: Alpha`), refOf(t, s.YAML, `: Drop here`)
	restore := scopeStep(ctx)
	res, err := p.Drag(ctx, DragEnd{Target: Target{Ref: src}}, DragEnd{Target: Target{Ref: dst}}, DragOptions{})
	restore()
	if err != nil {
		t.Fatal(err)
	}
	if got := frameJS(t, p, src, "window.drops"); got != `["a"]` {
		t.Fatalf("drops = %s (%+v)", got, res)
	}
	if res.Method != "html5" {
		t.Errorf("method = %q, want Chrome's own html5 drag", res.Method)
	}
}

// TestFrameReadsByPosition: getBox of refs inside (nested, transformed)
// frames answers top-level coordinates, and elementsAt there answers the
// element inside the frame with the same ref; a click at that point hits it.
func TestFrameReadsByPosition(t *testing.T) {
	p, _, ctx := openFrameSite(t)
	js(t, p, "document.getElementById('partner').scrollIntoView()")
	s, err := p.Snapshot(ctx, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	count, top := refOf(t, s.YAML, `button "Count me"`), refOf(t, s.YAML, `button "Top button"`)
	boxes, err := p.GetBox(ctx, []string{count, top})
	if err != nil {
		t.Fatal(err)
	}
	if boxes[0].Center == nil || boxes[1].Error != "" {
		t.Fatalf("boxes: %+v", boxes)
	}
	at, err := p.ElementsAt(ctx, []Point{*boxes[0].Center})
	if err != nil {
		t.Fatal(err)
	}
	if at[0].Ref != count || at[0].Name != "Count me" || !strings.HasSuffix(at[0].Frame, "/form.html") {
		t.Fatalf("element at the box centre: %+v (box %+v)", at[0], boxes[0])
	}
	restore := scopeStep(ctx)
	_, err = p.Click(ctx, Target{Point: boxes[0].Center}, ClickOptions{})
	restore()
	if err != nil {
		t.Fatal(err)
	}
	if got := frameJS(t, p, count, "document.getElementById('count').dataset.n"); got != `"1"` {
		t.Fatalf("the click at the box centre did not reach the button: %s", got)
	}
	// In the scaled frame inside the rotated one, too.
	tilted := refOf(t, s.YAML, `button "Tilted button"`)
	js(t, p, "document.getElementById('tilt').scrollIntoView()")
	boxes, err = p.GetBox(ctx, []string{tilted})
	if err != nil || boxes[0].Center == nil {
		t.Fatalf("tilted box: %+v %v", boxes, err)
	}
	at, err = p.ElementsAt(ctx, []Point{*boxes[0].Center})
	if err != nil || at[0].Ref != tilted {
		t.Fatalf("element at the tilted box centre: %+v %v (box %+v)", at, err, boxes[0])
	}
	if p.Frames().InChild(ctx) {
		t.Fatal("reads left the page in a frame")
	}
}

// TestHoverAndUploadInNestedFrame hovers and uploads with top-level refs of
// the form nested in the cross-site frame.
func TestHoverAndUploadInNestedFrame(t *testing.T) {
	paths := uploadFiles(t, "receipt.txt", "paid")
	p, _, ctx := openFrameSite(t)
	s := frameSiteSnapshot(t, p)
	help, receipt := refOf(t, s.YAML, `button "Help"`), refOf(t, s.YAML, `"Receipt"`)
	restore := scopeStep(ctx)
	if _, err := p.Hover(ctx, Target{Ref: help}, HoverOptions{}); err != nil {
		t.Fatal(err)
	}
	restore()
	restore = scopeStep(ctx)
	res, err := p.Upload(ctx, Target{Ref: receipt}, paths, UploadOptions{AllowedDirs: allowedFor(t, paths)})
	restore()
	if err != nil {
		t.Fatal(err)
	}
	if got := frameJS(t, p, help, "[document.getElementById('help').dataset.hovers, document.querySelector('[name=receipt]').files[0].name]"); got != `["1","receipt.txt"]` {
		t.Fatalf("hover, upload = %s (%+v)", got, res)
	}
}

// TestFrameSwitchForms: frame takes the iframe's ref (from a top-level
// snapshot, even for a nested frame), a CSS selector, a name, a URL part,
// an index or a frame id; a name or URL that matches nothing says so.
func TestFrameSwitchForms(t *testing.T) {
	p, _, ctx := openFrameSite(t)
	s := frameSiteSnapshot(t, p)
	checkoutRef := refOf(t, s.YAML, `iframe "Checkout"`)
	list, err := p.Frames().List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var checkoutID string
	for _, f := range list.Frames {
		if f.Name == "checkout" {
			checkoutID = f.FrameID
		}
	}
	zero := 0
	for _, tc := range []struct {
		name  string
		specs []FrameSpec
		title string
	}{
		{"ref of a nested iframe", []FrameSpec{{Selector: checkoutRef}}, "Checkout form"},
		{"bare ref", []FrameSpec{{Any: checkoutRef}}, "Checkout form"},
		{"selector", []FrameSpec{{Selector: "#partner"}}, "Partner widget"},
		{"bare selector", []FrameSpec{{Any: "iframe#same"}}, "Same"},
		{"name", []FrameSpec{{Name: "checkout"}}, "Checkout form"},
		{"bare name", []FrameSpec{{Any: "checkout"}}, "Checkout form"},
		{"URL part", []FrameSpec{{URL: "/form.html"}}, "Checkout form"},
		{"bare URL part", []FrameSpec{{Any: "tilt.html"}}, "Tilt holder"},
		{"index then index", []FrameSpec{{Selector: "#partner"}, {Index: &zero}}, "Checkout form"},
		{"frame id", []FrameSpec{{FrameID: checkoutID}}, "Checkout form"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p.Frames().Switch(ctx, FrameSpec{Top: true})
			for _, spec := range tc.specs {
				if _, _, err := p.Frames().Switch(ctx, spec); err != nil {
					t.Fatalf("%+v: %v", spec, err)
				}
			}
			if got := js(t, p, "document.title"); got != `"`+tc.title+`"` {
				t.Fatalf("in %s, want %q", got, tc.title)
			}
			// A real click there lands (coordinates through the chain).
			if tc.title == "Checkout form" {
				if _, err := p.Click(ctx, Target{Selector: "#count"}, ClickOptions{NativeOnly: true}); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
	p.Frames().Switch(ctx, FrameSpec{Top: true})
	// One real click per case that entered the checkout frame.
	if got := frameJS(t, p, refOf(t, s.YAML, `button "Count me"`), "document.getElementById('count').dataset.n"); got != `"7"` {
		t.Fatalf("clicks in the checkout frame = %s, want 7", got)
	}
	for _, spec := range []FrameSpec{{Any: "nowhere"}, {Name: "nowhere"}, {URL: "nowhere"}, {FrameID: "F00"}} {
		if _, _, err := p.Frames().Switch(ctx, spec); KindOf(err) != KindElementNotFound || !strings.Contains(err.Error(), "nowhere") && spec.FrameID == "" {
			t.Errorf("%+v: %v", spec, err)
		}
	}
}

// TestFrameGoneErrorsAreTyped: a ref of a frame that was removed, and a
// step in a selected frame that was removed, fail with our typed errors
// and hints, not CDP's text.
func TestFrameGoneErrorsAreTyped(t *testing.T) {
	p, _, ctx := openFrameSite(t)
	s := frameSiteSnapshot(t, p)
	count := refOf(t, s.YAML, `button "Count me"`)
	if _, _, err := p.Frames().Switch(ctx, FrameSpec{Name: "checkout"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := p.Frames().Switch(ctx, FrameSpec{Top: true}); err != nil {
		t.Fatal(err)
	}
	js(t, p, "document.getElementById('partner').remove(), true")
	short := ActionOptions{Timeout: 2 * time.Second}
	for name, try := range map[string]func() error{
		"ref click": func() error {
			_, err := p.Click(ctx, Target{Ref: count}, ClickOptions{ActionOptions: short})
			return err
		},
		"ref check": func() error {
			_, err := p.SetChecked(ctx, Target{Ref: count}, true, short)
			return err
		},
	} {
		restore := scopeStep(ctx)
		err := try()
		restore()
		var e *Error
		if !errors.As(err, &e) || e.Hint == "" || strings.Contains(err.Error(), "-32000") || !strings.Contains(err.Error(), "gone") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestSelectedFrameGoneIsTyped: a step in a selected frame whose iframe
// was removed fails with a typed error naming the frame.
func TestSelectedFrameGoneIsTyped(t *testing.T) {
	p, _, ctx := openFrameSite(t)
	if _, _, err := p.Frames().Switch(ctx, FrameSpec{Name: "checkout"}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Eval(inFrame(ctx, nil), "document.getElementById('partner').remove(), true"); err != nil {
		t.Fatal(err)
	}
	_, err := p.Click(ctx, Target{Selector: "#count"}, ClickOptions{ActionOptions: ActionOptions{Timeout: 2 * time.Second}})
	var e *Error
	if !errors.As(err, &e) || e.Hint == "" || !strings.Contains(err.Error(), "gone") || strings.Contains(e.Message, "-320") {
		t.Fatalf("click in a removed frame: %v", err)
	}
}

// TestSnapshotWithUnloadedFrames: frames that have not loaded (a lazy
// iframe far below, a server that never answers) show as not loaded; the
// snapshot does not wait for contexts they do not have (measured, not
// asserted: ~6 ms warm here).
func TestSnapshotWithUnloadedFrames(t *testing.T) {
	site := browsertest.NewFrameSite(t)
	hang := make(chan struct{})
	slow := browsertest.ServeOn(t, "127.0.0.2", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-hang:
		case <-r.Context().Done():
		}
	}))
	// Registered after the server, so it runs before the server closes.
	t.Cleanup(func() { close(hang) })
	base := servePages(t, map[string]string{"page.html": `<!doctype html><title>Unloaded</title><main><h1>Top</h1>
<iframe title="Slow" src="` + slow + `never.html"></iframe>
<div style="height: 5000px"></div>
<iframe title="Lazy" loading="lazy" src="` + site.Cross + `form.html"></iframe></main>`})
	p := openTestTab(t)
	ctx := testCtx(t)
	if _, err := p.Navigate(ctx, base+"page.html", WaitCommit); err != nil {
		t.Fatal(err)
	}
	s, err := p.Snapshot(ctx, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`iframe "Slow" [ref=`, `iframe "Lazy" [ref=`} {
		if !strings.Contains(s.YAML, want) || strings.Count(s.YAML, "] [not loaded]") != 2 {
			t.Fatalf("unloaded frames:\n%s", s.YAML)
		}
	}
}

// TestSearchFindsFrameElements: snapshotSearch reaches into frames, names
// the frame of each match, and its refs work from the top level.
func TestSearchFindsFrameElements(t *testing.T) {
	p, _, ctx := openFrameSite(t)
	r, err := p.Search(ctx, SearchOptions{Text: "Count me"})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Matches) != 1 || !strings.Contains(jsonOf(t, r.Matches[0]["frame"]), "form.html") {
		t.Fatalf("matches: %+v", r.Matches)
	}
	ref, _ := r.Matches[0]["ref"].(string)
	// The match's box is in the top-level viewport, as getBox's is.
	boxes, err := p.GetBox(ctx, []string{ref})
	if err != nil || len(boxes) != 1 || boxes[0].BoxRect == nil {
		t.Fatalf("getBox: %+v %v", boxes, err)
	}
	if b, _ := r.Matches[0]["box"].(map[string]any); b == nil || math.Abs(b["y"].(float64)-float64(boxes[0].Y)) > 1 {
		t.Errorf("match box %v, getBox %+v", r.Matches[0]["box"], *boxes[0].BoxRect)
	}
	clickCountMeOnce(t, p, ctx, ref)
}

// clickCountMeOnce clicks the frame site's "Count me" button by ref from
// the top level and checks that its handler ran once.
func clickCountMeOnce(t *testing.T, p *Page, ctx context.Context, ref string) {
	t.Helper()
	restore := scopeStep(ctx)
	_, err := p.Click(ctx, Target{Ref: ref}, ClickOptions{NativeOnly: true})
	restore()
	if err != nil {
		t.Fatal(err)
	}
	if got := frameJS(t, p, ref, "document.getElementById('count').dataset.n"); got != `"1"` {
		t.Fatalf("clicks = %s", got)
	}
}

// TestSinceWithFrames: "since" answers unchanged for a page with frames
// when nothing changed, and sees a change made inside a cross-site frame.
func TestSinceWithFrames(t *testing.T) {
	p, _, ctx := openFrameSite(t)
	first, err := p.Snapshot(ctx, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	same, err := p.Snapshot(ctx, SnapshotOptions{Since: first.SnapshotID})
	if err != nil {
		t.Fatal(err)
	}
	if !same.Unchanged || same.SnapshotID != first.SnapshotID {
		t.Fatalf("unchanged page: %+v", same)
	}
	frameJS(t, p, refOf(t, first.YAML, `button "Count me"`), "document.getElementById('count').textContent = 'Recount', 1")
	changed, err := p.Snapshot(ctx, SnapshotOptions{Since: first.SnapshotID})
	if err != nil {
		t.Fatal(err)
	}
	if changed.Unchanged || !strings.Contains(changed.YAML, `button "Recount"`) {
		t.Fatalf("a change inside a frame: %+v", changed)
	}
}

// TestWaitTextInFrame: waiting for a text finds it inside a nested
// cross-site frame.
func TestWaitTextInFrame(t *testing.T) {
	p, _, ctx := openFrameSite(t)
	if _, err := p.WaitText(ctx, "I accept the terms"); err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if _, err := p.WaitText(short, "Nowhere to be seen"); KindOf(err) != KindTimeout {
		t.Fatalf("absent text: %v", err)
	}
	if p.Frames().InChild(ctx) {
		t.Fatal("waiting left the page in a frame")
	}
}

// openFrameSite opens the frame fixture's top page (forms in a same-origin
// frame nested in a cross-site one, a transformed frame, a drag list) in a
// fresh tab.
func openFrameSite(t *testing.T) (*Page, *browsertest.FrameSite, context.Context) {
	t.Helper()
	site := browsertest.NewFrameSite(t)
	p := openTestTab(t)
	ctx := testCtx(t)
	if _, err := p.Navigate(ctx, site.Top+"index.html", WaitLoad); err != nil {
		t.Fatal(err)
	}
	return p, site, ctx
}

// frameSiteSnapshot is the page's snapshot with every frame in it.
func frameSiteSnapshot(t *testing.T, p *Page) *Snapshot {
	t.Helper()
	s, err := p.Snapshot(testCtx(t), SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestTextInSeveralFramesIsAmbiguous: a label that three cross-site
// frames each have is ambiguous (not the first frame's), one that only one
// frame has is found there and acted on once.
func TestTextInSeveralFramesIsAmbiguous(t *testing.T) {
	site := browsertest.NewFrameSite(t)
	p := openTestTab(t)
	ctx := testCtx(t)
	if _, err := p.Navigate(ctx, site.Top+"three.html", WaitLoad); err != nil {
		t.Fatal(err)
	}
	restore := scopeStep(ctx)
	_, err := p.Fill(ctx, Target{Label: "Coupon"}, "SAVE10", FillOptions{Clear: true})
	restore()
	if KindOf(err) != KindAmbiguousTarget || !strings.Contains(err.Error(), "3 frames") {
		t.Fatalf("a label in three frames: %v", err)
	}
	restore = scopeStep(ctx)
	clicked, err := p.Click(ctx, Target{Text: "Add 2.3"}, ClickOptions{})
	restore()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(clicked.Frame, "card.html?n=2") {
		t.Fatalf("the click acted in %q", clicked.Frame)
	}
}

// TestQueryFindsFrameElements: query by role and by CSS looks into every
// frame (same-site and cross-site, nested), counts their matches, names
// the frame of each, and a frame match's ref acts from the top level.
func TestQueryFindsFrameElements(t *testing.T) {
	p, _, ctx := openFrameSite(t)
	byRole, err := p.Query(ctx, QueryOptions{Roles: []string{"button"}, Name: "Count me"})
	if err != nil {
		t.Fatal(err)
	}
	if byRole.Total != 1 || len(byRole.Results) != 1 || !strings.Contains(jsonOf(t, byRole.Results[0]["frame"]), "form.html") {
		t.Fatalf("role query: %+v", byRole)
	}
	combo, err := p.Query(ctx, QueryOptions{Roles: []string{"combobox"}, Name: "Country"})
	if err != nil || combo.Total != 1 {
		t.Fatalf("combobox in a nested cross-site frame: %+v %v", combo, err)
	}
	ref, _ := byRole.Results[0]["ref"].(string)
	clickCountMeOnce(t, p, ctx, ref)
	top, err := p.Eval(ctx, "document.querySelectorAll('input').length")
	if err != nil {
		t.Fatal(err)
	}
	all, err := p.Query(ctx, QueryOptions{Selector: "input", Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	if all.Total <= atoiJSON(t, top) || all.Showing == nil || *all.Showing != len(all.Results) || len(all.Results) != all.Total {
		t.Fatalf("inputs: top document has %s, query total %d showing %v results %d", top, all.Total, all.Showing, len(all.Results))
	}
	for i, m := range all.Results {
		if jsonOf(t, m["index"]) != strconv.Itoa(i) {
			t.Fatalf("result %d has index %v", i, m["index"])
		}
	}
	one, err := p.Query(ctx, QueryOptions{Selector: "input", Limit: 1})
	if err != nil || one.Total != all.Total || len(one.Results) != 1 || *one.Showing != 1 {
		t.Fatalf("limit 1: %+v %v", one, err)
	}
	count, err := p.Query(ctx, QueryOptions{Selector: "input", CountOnly: true})
	if err != nil || count.Total != all.Total || len(count.Results) != 0 {
		t.Fatalf("countOnly: %+v %v", count, err)
	}
}

func atoiJSON(t *testing.T, raw []byte) int {
	t.Helper()
	n, err := strconv.Atoi(strings.TrimSpace(string(raw)))
	if err != nil {
		t.Fatalf("not a number: %s", raw)
	}
	return n
}

// TestActiveElementInsideAFrame: when the focus is on a field inside a
// nested cross-site frame, the answer's context names that field (its
// role, name, value, ref and frame), not the iframe that holds it.
func TestActiveElementInsideAFrame(t *testing.T) {
	p, _, ctx := openFrameSite(t)
	s := frameSiteSnapshot(t, p)
	name := refOf(t, s.YAML, `textbox "Full name"`)
	restore := scopeStep(ctx)
	_, err := p.Fill(ctx, Target{Ref: name}, "Ada", FillOptions{Clear: true})
	restore()
	if err != nil {
		t.Fatal(err)
	}
	c, err := p.PostCapture(ctx, CaptureOptions{Viewport: true})
	if err != nil {
		t.Fatal(err)
	}
	a := c.Context.ActiveElement
	if a["tag"] != "input" || a["name"] != "Full name" || a["value"] != "Ada" || a["ref"] != name || !strings.Contains(jsonOf(t, a["frame"]), ".html") {
		t.Fatalf("activeElement: %+v", a)
	}
	if top, _ := p.Eval(ctx, "document.activeElement.localName"); string(top) != `"iframe"` {
		t.Fatalf("the top document's focus is %s, not the iframe", top)
	}
	// Its box is in the top-level viewport, as getBox's is.
	boxes, err := p.GetBox(ctx, []string{name})
	if err != nil || len(boxes) != 1 || boxes[0].BoxRect == nil {
		t.Fatalf("getBox: %+v %v", boxes, err)
	}
	b, _ := a["box"].(map[string]any)
	want := boxes[0].BoxRect
	if math.Abs(b["x"].(float64)-float64(want.X)) > 1 || math.Abs(b["y"].(float64)-float64(want.Y)) > 1 || math.Abs(b["width"].(float64)-float64(want.Width)) > 1 {
		t.Errorf("activeElement box %v, getBox %+v", b, *want)
	}
}

// TestQueryFindsAFrameBackOnTheTopSite: a frame of the top page's site
// inside a cross-site frame (its own process, attached through the
// cross-site frame's session) is queried in the first step after the
// navigation, not only once something else attached it.
func TestQueryFindsAFrameBackOnTheTopSite(t *testing.T) {
	var top string
	cross := browsertest.ServeOn(t, "127.0.0.2", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<!doctype html><title>Partner</title><h2>Partner</h2><iframe title="Deep" src="` + top + `deep.html"></iframe>`))
	}))
	top = browsertest.ServeOn(t, "127.0.0.1", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		if r.URL.Path == "/deep.html" {
			w.Write([]byte(`<!doctype html><title>Deep</title><button onclick="window.deeps = (window.deeps || 0) + 1">Deep button</button>`))
			return
		}
		w.Write([]byte(`<!doctype html><title>Main</title><h1>Main</h1><iframe title="X" src="` + cross + `outer.html"></iframe>`))
	}))
	p := openTestTab(t)
	ctx := testCtx(t)
	if _, err := p.Navigate(ctx, top+"index.html", WaitLoad); err != nil {
		t.Fatal(err)
	}
	q, err := p.Query(ctx, QueryOptions{Roles: []string{"button"}, Name: "Deep button"})
	if err != nil || q.Total != 1 || len(q.Results) != 1 || !strings.Contains(jsonOf(t, q.Results[0]["frame"]), "deep.html") {
		t.Fatalf("query right after the navigation: %+v %v", q, err)
	}
}

// TestFrameRefAfterReloadIsStale: after the page reloads, a ref taken
// in a same-site frame (whose old context is still on record) or in a
// cross-site one fails as a stale ref that says its frame is gone, for
// fill and click alike, not with a raw CDP error.
func TestFrameRefAfterReloadIsStale(t *testing.T) {
	p, _, ctx := openFrameSite(t)
	s := frameSiteSnapshot(t, p)
	refs := map[string]string{"same-site": refOf(t, s.YAML, `textbox "Same field"`), "cross-site": refOf(t, s.YAML, `textbox "Full name"`)}
	if _, err := p.Reload(ctx, WaitLoad, false); err != nil {
		t.Fatal(err)
	}
	for where, ref := range refs {
		for what, act := range map[string]func() error{
			"fill":  func() error { _, err := p.Fill(ctx, Target{Ref: ref}, "x", FillOptions{}); return err },
			"click": func() error { _, err := p.Click(ctx, Target{Ref: ref}, ClickOptions{}); return err },
		} {
			restore := scopeStep(ctx)
			err := act()
			restore()
			if KindOf(err) != KindStaleElement || !strings.Contains(fmt.Sprint(err), "gone") {
				t.Errorf("%s of a %s frame's ref after a reload: %s %v", what, where, KindOf(err), err)
			}
		}
	}
}

// TestCSSQueryReachesIntoShadowRoots: a CSS query finds a field inside an
// open shadow root, as a role query and a selector target do, and its
// ref fills it.
func TestCSSQueryReachesIntoShadowRoots(t *testing.T) {
	p := loadHTML(t, `<main><input id="top" aria-label="Top"><x-card></x-card></main>
<script>customElements.define('x-card', class extends HTMLElement { constructor() { super(); this.attachShadow({mode: 'open'}).innerHTML = '<label>Code <input id="shin"></label>' } })</script>`)
	ctx := testCtx(t)
	q, err := p.Query(ctx, QueryOptions{Selector: "#shin"})
	if err != nil || q.Total != 1 || len(q.Results) != 1 {
		t.Fatalf("query #shin: %+v %v", q, err)
	}
	all, err := p.Query(ctx, QueryOptions{Selector: "input"})
	if err != nil || all.Total != 2 {
		t.Fatalf("query input: %+v %v", all, err)
	}
	ref, _ := q.Results[0]["ref"].(string)
	restore := scopeStep(ctx)
	_, err = p.Fill(ctx, Target{Ref: ref}, "A1", FillOptions{})
	restore()
	if err != nil {
		t.Fatal(err)
	}
	if got := js(t, p, "document.querySelector('x-card').shadowRoot.getElementById('shin').value"); got != `"A1"` {
		t.Fatalf("shadow field = %s", got)
	}
}
