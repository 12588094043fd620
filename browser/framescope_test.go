package browser

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
)

// TestFrameIsAValue: resolving a frame leaves the step in the top
// document; the frame acts only in the context Enter gives, in a
// same-site and an out-of-process frame, and a nested one resolved from
// inside its parent; a frame of another page counts as the top document;
// a frame whose page loaded another document is Gone.
func TestFrameIsAValue(t *testing.T) {
	parent, _ := frameServers(t)
	p := openTestTab(t)
	ctx := testCtx(t)
	if _, err := p.Navigate(ctx, parent+"index.html", WaitLoad); err != nil {
		t.Fatal(err)
	}
	title := func(ctx context.Context) string {
		t.Helper()
		var s string
		if err := p.CallInto(ctx, &s, `() => document.title`); err != nil {
			t.Fatal(err)
		}
		return s
	}
	for _, sel := range []string{"#same", "#site"} {
		f, info, _, err := p.Frames().Resolve(ctx, FrameSpec{Selector: sel})
		if err != nil {
			t.Fatal(err)
		}
		if got := title(ctx); got != "Frames" || p.Frames().InChild(ctx) {
			t.Fatalf("resolving %s moved the page into %q", sel, got)
		}
		if info.Depth != 1 || f.Info().Depth != 1 || f.Info().FrameID != info.FrameID {
			t.Errorf("%s: info %+v, value %+v", sel, info, f.Info())
		}
		in := p.Frames().Enter(ctx, f)
		if got := title(in); got != "Inner" {
			t.Errorf("in %s: title %q", sel, got)
		}
		if got := title(ctx); got != "Frames" {
			t.Fatalf("after leaving %s: title %q", sel, got)
		}
	}
	outer, _, _, err := p.Frames().Resolve(ctx, FrameSpec{Selector: "#nested"})
	if err != nil {
		t.Fatal(err)
	}
	deep, info, _, err := p.Frames().Resolve(p.Frames().Enter(ctx, outer), FrameSpec{Name: "deep"})
	if err != nil || info.Depth != 2 || deep.Info().Depth != 2 {
		t.Fatalf("the nested frame: %+v, %v", info, err)
	}
	if got := title(p.Frames().Enter(ctx, deep)); got != "Inner" {
		t.Errorf("in the nested frame: title %q", got)
	}
	other := openTestTab(t)
	if deep.Of(other) || !deep.Of(p) {
		t.Errorf("Of: another page %t, its page %t", deep.Of(other), deep.Of(p))
	}
	if other.Frames().InChild(other.Frames().Enter(ctx, deep)) {
		t.Errorf("a frame of another page entered")
	}
	if deep.Gone() {
		t.Fatal("gone before the page navigated")
	}
	if _, err := p.Navigate(ctx, parent+"index.html?again", WaitLoad); err != nil {
		t.Fatal(err)
	}
	if !deep.Gone() || !outer.Gone() {
		t.Errorf("frames of the old document are not gone")
	}
}

// TestSelectedFrameFollowsItsNavigation: a frame selected before it
// loaded another document acts in the new one at the next step, whether
// it stayed in the page's renderer (same site) or moved to its own (a
// cross-site page); it is not Gone, since the page around it stayed.
func TestSelectedFrameFollowsItsNavigation(t *testing.T) {
	parent, port := frameServers(t)
	p := openTestTab(t)
	ctx := testCtx(t)
	if _, err := p.Navigate(ctx, parent+"index.html", WaitLoad); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Frames().List(ctx); err != nil { // follow out-of-process frames
		t.Fatal(err)
	}
	f, _, _, err := p.Frames().Resolve(ctx, FrameSpec{Selector: "#same"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, url string }{
		{"same site", parent + "same.html?again"},
		{"cross site", "http://localhost:" + strconv.Itoa(port) + "/outer.html"},
	} {
		if _, err := p.Eval(ctx, `document.getElementById('same').src = `+strconv.Quote(c.url)); err != nil {
			t.Fatal(err)
		}
		// Each step enters the selection anew; the frame's new document
		// comes when Chrome has loaded it.
		var got string
		var last error
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
			var u string
			last = p.CallInto(p.Frames().Enter(ctx, f), &u, `() => location.href`)
			if got = u; last == nil && u == c.url {
				break
			}
			if err := Sleep(ctx, 50*time.Millisecond); err != nil {
				t.Fatal(err)
			}
		}
		if got != c.url {
			t.Fatalf("%s: the selected frame still acts in %q (%v), not its new document %s", c.name, got, last, c.url)
		}
		if f.Gone() {
			t.Errorf("%s: the frame counts as gone though its page stayed", c.name)
		}
	}
}

// TestStepFollowsItsFrameToAnotherRenderer: a step whose frame loads a
// page of another site while the step runs (Chrome moves the frame to its
// own renderer) goes on in the frame's new document instead of failing
// with "No frame for given id found".
func TestStepFollowsItsFrameToAnotherRenderer(t *testing.T) {
	parent, port := frameServers(t)
	p := openTestTab(t)
	ctx := testCtx(t)
	if _, err := p.Navigate(ctx, parent+"index.html", WaitLoad); err != nil {
		t.Fatal(err)
	}
	f, _, _, err := p.Frames().Resolve(ctx, FrameSpec{Selector: "#same"})
	if err != nil {
		t.Fatal(err)
	}
	ctx = p.Frames().Enter(ctx, f)
	if _, err := p.engineEval(ctx, "location.href"); err != nil {
		t.Fatal(err)
	}
	// The top document sends the frame to another site, mid-step.
	cross := "http://localhost:" + strconv.Itoa(port) + "/frame.html"
	if _, err := evaluate(ctx, p.sess, runtime.EvaluateParams{Expression: `document.getElementById('same').src = ` + strconv.Quote(cross)}, ""); err != nil {
		t.Fatal(err)
	}
	for {
		r, err := p.frameRefWait(ctx, f.ref.id, 0)
		if err == nil && r.oopif {
			break
		}
		if err := Sleep(ctx, 50*time.Millisecond); err != nil {
			t.Fatalf("the frame never moved to its own renderer: %v", err)
		}
	}
	raw, err := p.engineEval(ctx, "location.href")
	if err != nil || string(raw) != strconv.Quote(cross) {
		t.Fatalf("after the frame moved: %s, %v", raw, err)
	}
	if !p.Frames().InChild(ctx) {
		t.Fatal("the step left its frame")
	}
}
