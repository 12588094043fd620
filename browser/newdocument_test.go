package browser

import (
	"context"
	"testing"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// TestWaitNewDocument: the wait for a new top document returns true once
// the page reloads (the page's own counter restarts), false when its
// context ends first, and false as soon as the tab closes, long before
// its context would end.
func TestWaitNewDocument(t *testing.T) {
	p, _ := openFixture(t, "points.html")
	ctx := testCtx(t)
	seen := p.Documents()
	js(t, p, `window.marker = 'old'; setTimeout(() => location.reload(), 50); 0`)
	if !p.WaitNewDocument(ctx, seen) {
		t.Fatal("no new document after the page reloaded")
	}
	if p.Documents() == seen {
		t.Fatalf("WaitNewDocument returned with the count still %d", seen)
	}
	if got := js(t, p, `typeof window.marker`); got != `"undefined"` {
		t.Fatalf("after the wait the page still has the old document's marker (%s)", got)
	}

	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	if p.WaitNewDocument(short, p.Documents()) {
		t.Fatal("a new document reported on a page that did not navigate")
	}
	if short.Err() == nil {
		t.Fatal("the wait returned false before its context ended")
	}

	long, cancelLong := context.WithCancel(ctx)
	defer cancelLong()
	done := make(chan bool, 1)
	now := p.Documents()
	go func() { done <- p.WaitNewDocument(long, now) }()
	browsertest.Require(t).CloseTab(t, string(p.TargetID))
	if <-done {
		t.Fatal("a closed tab reported a new document")
	}
	if long.Err() != nil {
		t.Fatal("the wait on a closed tab ended only with its context")
	}
}
