package browser

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestWaitSeesADisplayContentsElement: an element with display: contents
// (a layout wrapper, a custom element's host) has no box of its own; it
// is visible when what it holds is. Before, wait said it "exists but is
// not visible" and timed out.
func TestWaitSeesADisplayContentsElement(t *testing.T) {
	p := loadHTML(t, `<!doctype html><body><main>
<div id="wrap" style="display: contents"><p>Order placed</p></div>
<div id="empty" style="display: contents"></div>
<div id="folded" style="display: contents"><p style="display: none">Draft</p></div>
</main></body>`)
	ctx := testCtx(t)
	if _, err := p.WaitSelector(ctx, "#wrap", false); err != nil {
		t.Fatalf("a wrapper showing its paragraph: %v", err)
	}
	for _, sel := range []string{"#empty", "#folded"} {
		wctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
		_, err := p.WaitSelector(wctx, sel, false)
		cancel()
		if err == nil || !strings.Contains(err.Error(), "exists but is not visible") {
			t.Fatalf("%s shows nothing, yet wait said %v", sel, err)
		}
		if _, err := p.WaitSelector(ctx, sel, true); err != nil {
			t.Fatalf("%s shows nothing, yet a wait for it hidden failed: %v", sel, err)
		}
	}
}
