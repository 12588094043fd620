package browser

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/target"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// TestPoolKeepsConnectionAndPages: one connection per endpoint, one kept
// page per tab, resumed for each program (main frame, default dialog
// policy); pages of different tabs attach concurrently; a closed tab leaves
// the pool and attaching it again fails as a missing tab.
func TestPoolKeepsConnectionAndPages(t *testing.T) {
	c := browsertest.Require(t)
	ctx := testCtx(t)
	pool := NewPool()
	defer pool.Close()
	b, err := pool.Browser(ctx, c.Endpoint, ConnectOptions{Headless: true})
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := pool.Browser(ctx, c.Endpoint, ConnectOptions{Headless: true}); again != b {
		t.Fatal("a second Browser call opened another connection")
	}
	base := servePages(t, map[string]string{"page.html": `<title>framed</title><iframe name="f" srcdoc="<p>inner</p>"></iframe>`})

	const n = 4
	ids := make([]target.ID, n)
	for i := range ids {
		if ids[i], err = b.NewTab(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { b.CloseTab(ctx, ids[i]) })
	}
	pages := make([]*Page, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pages[i], errs[i] = pool.Attach(ctx, b, ids[i], nil)
			if errs[i] == nil {
				_, errs[i] = pages[i].Navigate(ctx, fmt.Sprintf("%spage.html?tab=%d", base, i), WaitLoad)
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("tab %d: %v", i, err)
		}
		if !pool.Kept(pages[i]) {
			t.Errorf("tab %d: page not kept", i)
		}
	}

	p := pages[0]
	// The iframe's context may register a moment after the load event.
	for {
		_, _, err := p.Frames().Switch(ctx, FrameSpec{Name: "f"})
		if err == nil {
			break
		}
		if ctx.Err() != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	p.Dialogs().SetPolicy(DialogPolicy{Dismiss: true})
	again, err := pool.Attach(ctx, b, ids[0], nil)
	if err != nil || again != p {
		t.Fatalf("attach again: same page %v, %v", again == p, err)
	}
	// The next program has its own context: the frame the last one's
	// step was in is not the page's, so it starts in the top document.
	next, cancelNext := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancelNext()
	var where string
	if err := again.CallInto(next, &where, "() => document.title"); err != nil || where != "framed" {
		t.Errorf("a resumed page runs in %q (%v), want the top document", where, err)
	}
	if old := again.Dialogs().SetPolicy(DialogPolicy{}); old.Dismiss {
		t.Error("a resumed page kept the dismiss policy of the previous program")
	}

	if err := b.CloseTab(ctx, ids[1]); err != nil {
		t.Fatal(err)
	}
	// Chrome closes a tab asynchronously: wait until it is gone.
	for {
		list, err := b.Pages(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(list, func(i *target.Info) bool { return i.TargetID == ids[1] }) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := pool.Attach(ctx, b, ids[1], nil); !errors.Is(err, ErrTabNotFound) {
		t.Fatalf("attach a closed tab: %v, want ErrTabNotFound", err)
	}
	if pool.Kept(pages[1]) {
		t.Error("the closed tab's page is still kept")
	}
}
