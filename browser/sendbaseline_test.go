package browser

import (
	"context"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// farPage has a header, a status line and, 2500 px down, a button that
// adds a Remove button and counts its clicks.
const farPage = `<!doctype html><title>Far</title><header><a href="#">Home</a></header>
<main><p role="status" id="state">Idle</p><div style="height: 2500px"></div>
<button id="far" onclick="window.clicks = (window.clicks || 0) + 1; state.textContent = 'Added';
const b = document.createElement('button'); b.textContent = 'Remove'; this.after(b)">Add far away</button></main>`

// A diff's baseline sent ahead (SendBaseline) is the page before what is
// sent behind it without waiting for its answer: the click's lookup and
// check go out at once, and the check scrolls the far button into view,
// but the baseline still shows the page at the top, without the button or
// what its click added. BeforeChange runs once, after the lookup and
// before the click.
func TestBaselineSentAheadIsThePageBeforeTheLookupBehindIt(t *testing.T) {
	base := browsertest.ServeHandler(t, storeHandler(farPage))
	p := openTestTab(t)
	ctx := testCtx(t)
	if _, err := p.Navigate(ctx, base+"far.html", WaitLoad); err != nil {
		t.Fatal(err)
	}
	// A first capture scans the page's click listeners, as the command
	// before would have.
	if _, err := p.PostCapture(ctx, CaptureOptions{Viewport: true}); err != nil {
		t.Fatal(err)
	}
	for round := 1; round <= 2; round++ {
		if _, err := p.Eval(ctx, "scrollTo(0, 0)"); err != nil {
			t.Fatal(err)
		}
		wait := p.SendBaseline(ctx)
		if wait == nil {
			t.Fatal("SendBaseline sent nothing on a scanned page")
		}
		var ran int
		var before, clicksBefore string
		p.BeforeChange(func(ctx context.Context) {
			ran++
			if c := wait(ctx); c != nil && c.Viewport != nil {
				before = jsonOf(t, c.Context.Scroll) + c.Viewport.YAML
			}
			raw, _ := p.Eval(ctx, "String(window.clicks || 0)")
			clicksBefore = string(raw)
		})
		if _, err := p.Click(ctx, Target{Selector: "#far"}, ClickOptions{}); err != nil {
			t.Fatal(err)
		}
		raw, err := p.Eval(ctx, "[window.clicks, scrollY > 0, state.textContent].join()")
		if err != nil {
			t.Fatal(err)
		}
		if got, want := string(raw), `"`+string(rune('0'+round))+`,true,Added"`; got != want {
			t.Errorf("round %d: the page after the click: %s, want %s", round, got, want)
		}
		if ran != 1 || clicksBefore != `"`+string(rune('0'+round-1))+`"` {
			t.Errorf("round %d: BeforeChange ran %d times, with %s clicks done", round, ran, clicksBefore)
		}
		if !strings.HasPrefix(before, `{"y":0,`) || !strings.Contains(before, "status") || strings.Contains(before, "Add far away") || strings.Contains(before, "Remove") {
			t.Errorf("round %d: the baseline is not the page before the lookup: %s", round, before)
		}
	}
}
