package browser

import (
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
)

// TestFrameIsAValue: resolving a frame leaves the page in the top
// document; the frame acts only between Enter and its leave, in a
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
	title := func() string {
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
		if got := title(); got != "Frames" || p.Frames().InChild() {
			t.Fatalf("resolving %s moved the page into %q", sel, got)
		}
		if info.Depth != 1 || f.Info().Depth != 1 || f.Info().FrameID != info.FrameID {
			t.Errorf("%s: info %+v, value %+v", sel, info, f.Info())
		}
		leave := p.Frames().Enter(ctx, f)
		if got := title(); got != "Inner" {
			t.Errorf("in %s: title %q", sel, got)
		}
		leave()
		if got := title(); got != "Frames" {
			t.Fatalf("after leaving %s: title %q", sel, got)
		}
	}
	outer, _, _, err := p.Frames().Resolve(ctx, FrameSpec{Selector: "#nested"})
	if err != nil {
		t.Fatal(err)
	}
	leave := p.Frames().Enter(ctx, outer)
	deep, info, _, err := p.Frames().Resolve(ctx, FrameSpec{Name: "deep"})
	leave()
	if err != nil || info.Depth != 2 || deep.Info().Depth != 2 {
		t.Fatalf("the nested frame: %+v, %v", info, err)
	}
	leave = p.Frames().Enter(ctx, deep)
	if got := title(); got != "Inner" {
		t.Errorf("in the nested frame: title %q", got)
	}
	leave()
	other := openTestTab(t)
	if deep.Of(other) || !deep.Of(p) {
		t.Errorf("Of: another page %t, its page %t", deep.Of(other), deep.Of(p))
	}
	leave = other.Frames().Enter(ctx, deep)
	if other.Frames().InChild() {
		t.Errorf("a frame of another page entered")
	}
	leave()
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
			leave := p.Frames().Enter(ctx, f)
			var u string
			last = p.CallInto(ctx, &u, `() => location.href`)
			leave()
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
	leave := p.Frames().Enter(ctx, f)
	defer leave()
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
	if !p.Frames().InChild() {
		t.Fatal("the step left its frame")
	}
}
