package browser

import (
	"testing"
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
		leave := p.Frames().Enter(f)
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
	leave := p.Frames().Enter(outer)
	deep, info, _, err := p.Frames().Resolve(ctx, FrameSpec{Name: "deep"})
	leave()
	if err != nil || info.Depth != 2 || deep.Info().Depth != 2 {
		t.Fatalf("the nested frame: %+v, %v", info, err)
	}
	leave = p.Frames().Enter(deep)
	if got := title(); got != "Inner" {
		t.Errorf("in the nested frame: title %q", got)
	}
	leave()
	other := openTestTab(t)
	if deep.Of(other) || !deep.Of(p) {
		t.Errorf("Of: another page %t, its page %t", deep.Of(other), deep.Of(p))
	}
	leave = other.Frames().Enter(deep)
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
