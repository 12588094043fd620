package browser

import (
	"fmt"
	"testing"
)

// BenchmarkClickAcrossFrames clicks, by ref, a button of the top document
// and one of a same-origin iframe in turn: each step's watch is in another
// document than the step before.
func BenchmarkClickAcrossFrames(b *testing.B) {
	base := servePages(b, map[string]string{
		"top.html": `<!doctype html><title>Top</title><main><button onclick="window.tops = (window.tops || 0) + 1">Top</button>
<iframe title="Inner" src="inner.html" style="width: 300px; height: 100px"></iframe></main>`,
		"inner.html": `<!doctype html><title>Inner</title><button onclick="window.inners = (window.inners || 0) + 1">Inner</button>`,
	})
	p := openTestTab(b)
	ctx := testCtx(b) // a step: refs in frames move the step's frame
	if _, err := p.Navigate(ctx, base+"top.html", WaitLoad); err != nil {
		b.Fatal(err)
	}
	s, err := p.Snapshot(ctx, SnapshotOptions{})
	if err != nil {
		b.Fatal(err)
	}
	refs := []string{benchRef(b, s.YAML, `button "Top"`), benchRef(b, s.YAML, `button "Inner"`)}
	i := 0
	calls := p.Browser.conn.Sent()
	for b.Loop() {
		if _, err := p.Click(ctx, Target{Ref: refs[i%2]}, ClickOptions{}); err != nil {
			b.Fatal(err)
		}
		i++
	}
	// CDP calls per click: the same on a busy machine, unlike the time.
	b.ReportMetric(float64(p.Browser.conn.Sent()-calls)/float64(i), "calls/op")
	p.Frames().Switch(ctx, FrameSpec{Top: true})
	if got, err := p.Eval(ctx, "window.tops"); err != nil || string(got) != fmt.Sprint((i+1)/2) {
		b.Errorf("top button clicked %s times (%v), want %d", got, err, (i+1)/2)
	}
}
