package browser

import (
	"context"
	"strings"
	"sync"
	"testing"
)

// TestStepsInTwoFramesAtOnce: the frame a step acts in is its own, not
// the page's. Two steps on one page, in two goroutines, each entered in
// its own frame (a same-site one and an out-of-process one) before
// either acts, click the same selector at once and each reaches its own
// frame's button; two more, one in the top document on a ref taken in a
// third frame (the lookup moves that step only) and one in the nested
// frame, do the same. Each frame's counter is one, the top document's
// none. With one current frame on the page, the second step's frame
// would be the first's too, and one counter would be two.
func TestStepsInTwoFramesAtOnce(t *testing.T) {
	parent, _ := frameServers(t)
	p := openTestTab(t)
	ctx := context.WithoutCancel(testCtx(t)) // a context of no test step
	ctx, cancel := context.WithTimeout(ctx, 30e9)
	defer cancel()
	if _, err := p.Navigate(ctx, parent+"index.html", WaitLoad); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Frames().List(ctx); err != nil { // attach the out-of-process frames
		t.Fatal(err)
	}
	resolve := func(ctx context.Context, spec FrameSpec) *Frame {
		t.Helper()
		f, _, _, err := p.Frames().Resolve(ctx, spec)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	same, site := resolve(ctx, FrameSpec{Selector: "#same"}), resolve(ctx, FrameSpec{Selector: "#site"})
	nested := resolve(ctx, FrameSpec{Selector: "#nested"})
	deep := resolve(p.Frames().Enter(ctx, nested), FrameSpec{Name: "deep"})
	cross := resolve(ctx, FrameSpec{Selector: "#cross"})
	s, err := p.Snapshot(p.Frames().Enter(ctx, cross), SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	crossRef := refOf(t, s.YAML, `button "Inner button"`)

	type step struct {
		name   string
		frame  *Frame
		target Target
		// acted is the frame the answer names (the step went there for
		// its target).
		acted string
	}
	for _, round := range [][]step{
		{{"same", same, Target{Selector: "#b"}, ""}, {"site", site, Target{Selector: "#b"}, ""}},
		{{"top, ref in cross", nil, Target{Ref: crossRef}, "/frame.html"}, {"deep", deep, Target{Text: "Inner button"}, ""}},
	} {
		ctxs := make([]context.Context, len(round))
		for i, st := range round {
			ctxs[i] = p.Frames().Enter(ctx, st.frame)
		}
		var wg sync.WaitGroup
		start := make(chan struct{})
		errs := make([]error, len(round))
		res := make([]*ClickResult, len(round))
		for i := range round {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				res[i], errs[i] = p.Click(ctxs[i], round[i].target, ClickOptions{JSClick: true})
			}()
		}
		close(start)
		wg.Wait()
		for i, st := range round {
			if errs[i] != nil {
				t.Fatalf("%s: %v", st.name, errs[i])
			}
			if got := res[i].Frame; st.acted == "" && got != "" || st.acted != "" && !strings.HasSuffix(got, st.acted) {
				t.Errorf("%s: the answer says it acted in %q", st.name, got)
			}
			// The step's context is where it started: a step that went
			// into another frame for its target moved only itself.
			if st.acted != "" && actedFrame(ctxs[i]) == "" {
				t.Errorf("%s: the step did not go into its target's frame", st.name)
			}
		}
	}
	hits := func(f *Frame) string {
		t.Helper()
		raw, err := p.Eval(p.Frames().Enter(ctx, f), "window.hit || 0")
		if err != nil {
			t.Fatal(err)
		}
		return string(raw)
	}
	for name, f := range map[string]*Frame{"same": same, "site": site, "cross": cross, "deep": deep} {
		if got := hits(f); got != "1" {
			t.Errorf("%s frame: %s clicks, want 1", name, got)
		}
	}
	if got := hits(nil); got != "0" {
		t.Errorf("top document: %s clicks, want 0", got)
	}
}

// TestStepFrameOfAnotherPageIsItsTop: a step whose context holds a frame
// of one tab and that acts on another tab (a step with "tab") acts in the
// other tab's top document, not in a frame of the first tab's renderer.
func TestStepFrameOfAnotherPageIsItsTop(t *testing.T) {
	parent, _ := frameServers(t)
	p, other := openTestTab(t), openTestTab(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30e9)
	defer cancel()
	if _, err := p.Navigate(ctx, parent+"index.html", WaitLoad); err != nil {
		t.Fatal(err)
	}
	if _, err := other.Navigate(ctx, parent+"index.html?other", WaitLoad); err != nil {
		t.Fatal(err)
	}
	for _, sel := range []string{"#same", "#site"} {
		f, _, _, err := p.Frames().Resolve(ctx, FrameSpec{Selector: sel})
		if err != nil {
			t.Fatal(err)
		}
		in := p.Frames().Enter(ctx, f)
		for _, c := range []struct {
			page *Page
			want string
		}{{p, `"Inner"`}, {other, `"Frames"`}} {
			raw, err := c.page.Eval(in, "document.title")
			if err != nil || string(raw) != c.want {
				t.Errorf("%s: title %s (%v), want %s", sel, raw, err, c.want)
			}
		}
		if _, err := other.Click(in, Target{Selector: "#b"}, ClickOptions{JSClick: true, ActionOptions: ActionOptions{Timeout: 300e6}}); KindOf(err) != KindElementNotFound && KindOf(err) != KindTimeout {
			t.Errorf("%s: a click on the other tab found the frame's button: %v", sel, err)
		}
	}
}
