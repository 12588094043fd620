package browser

import (
	"context"
	"testing"
	"time"
)

// TestEngineCachesEndWithTheCall: what one engine call cached (here a
// shadow host's visibility) never answers a later call. Text in a shadow
// root is present while its host shows, gone once the page hides the host
// after a snapshot and a first check, and back when the host shows again:
// a wait polling textPresent sees the page as it is at each poll.
func TestEngineCachesEndWithTheCall(t *testing.T) {
	p := loadHTML(t, `<main><h1>Orders</h1><status-box></status-box></main><script>
customElements.define('status-box', class extends HTMLElement {
  constructor() { super(); this.attachShadow({mode: 'open'}).innerHTML = '<p>Order ready</p>'; }
});
</script>`)
	ctx := testCtx(t)
	if _, err := p.Snapshot(ctx, SnapshotOptions{Root: "body"}); err != nil {
		t.Fatal(err)
	}
	present := func() bool {
		var found bool
		if err := p.engineCall(ctx, &found, epTextPresent, "Order ready"); err != nil {
			t.Fatal(err)
		}
		return found
	}
	setHidden := func(hidden bool) {
		js := `document.querySelector('status-box').removeAttribute('aria-hidden')`
		if hidden {
			js = `document.querySelector('status-box').setAttribute('aria-hidden', 'true')`
		}
		if _, err := p.Eval(ctx, js); err != nil {
			t.Fatal(err)
		}
	}
	if !present() {
		t.Fatal("the shadow root's text is not present while its host shows")
	}
	setHidden(true)
	if present() {
		t.Error("the text is still present after the page hid its host (a cached visibility answered)")
	}
	setHidden(false)
	if !present() {
		t.Error("the text is not present after the host shows again")
	}
}

// TestWaitTextSeesAHostShownAfterASnapshot: the waitFor text step finds
// text in a shadow root whose host the page shows after a snapshot read it
// hidden (each poll is an engine call with caches of its own).
func TestWaitTextSeesAHostShownAfterASnapshot(t *testing.T) {
	p := loadHTML(t, `<main><h1>Orders</h1><status-box aria-hidden="true"></status-box></main><script>
customElements.define('status-box', class extends HTMLElement {
  constructor() { super(); this.attachShadow({mode: 'open'}).innerHTML = '<p>Order ready</p>'; }
});
window.showStatus = () => setTimeout(() => { window.shownAt = performance.now(); document.querySelector('status-box').removeAttribute('aria-hidden'); }, 300);
</script>`)
	ctx := testCtx(t)
	if _, err := p.Snapshot(ctx, SnapshotOptions{Root: "body"}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Eval(ctx, `window.showStatus()`); err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	if _, err := p.WaitText(wctx, "Order ready"); err != nil {
		t.Fatalf("waitFor text: %v", err)
	}
	// It returned after the page showed the host, not before.
	raw, err := p.Eval(ctx, `typeof window.shownAt === 'number' && !document.querySelector('status-box').hasAttribute('aria-hidden')`)
	if err != nil || string(raw) != "true" {
		t.Errorf("waitFor text returned before the host showed (%s, %v)", raw, err)
	}
}
