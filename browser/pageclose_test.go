package browser

import (
	"testing"

	"github.com/chromedp/cdproto/target"
)

// sessionSubscriptions counts the event subscriptions held on p's session.
func sessionSubscriptions(p *Page) map[string]int {
	return p.Browser.conn.Subscribed(func(id target.SessionID) bool { return id == p.sess.ID() })
}

// TestPageCloseDropsSubscriptions: a page holds its dialog, console,
// network and execution-context subscriptions while attached, and Close
// drops every one of them (their goroutines end), so a detached page leaves nothing
// running until the connection closes. The tab stays usable by a new page.
func TestPageCloseDropsSubscriptions(t *testing.T) {
	p := loadHTML(t, `<p>hello</p>`)
	held := sessionSubscriptions(p)
	for _, m := range []string{"Page.javascriptDialogOpening", "Runtime.consoleAPICalled", "Runtime.exceptionThrown",
		"Log.entryAdded", "Runtime.executionContextCreated", "Runtime.executionContextDestroyed", "Network.requestWillBeSent"} {
		if held[m] == 0 {
			t.Errorf("an attached page does not subscribe to %s: %v", m, held)
		}
	}
	p.Close()
	if left := sessionSubscriptions(p); len(left) != 0 {
		t.Fatalf("after Close the page still holds %v", left)
	}
	p.Close() // twice is harmless
	again, err := p.Browser.Attach(testCtx(t), p.TargetID)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if got := js(t, again, "document.querySelector('p').textContent"); got != `"hello"` {
		t.Fatalf("the tab after Close reads %q", got)
	}
}

// TestPageCloseDropsFrameSubscriptions: the subscriptions a page made to
// follow its out-of-process frames (attach and detach events, each frame's
// execution contexts) end with the page too.
func TestPageCloseDropsFrameSubscriptions(t *testing.T) {
	p, _, _ := openFrameSite(t)
	frameSiteSnapshot(t, p) // attaches the cross-site frames
	p.oopifs.mu.Lock()
	sessions := map[string]bool{string(p.sess.ID()): true}
	for _, s := range p.oopifs.sessions {
		sessions[string(s.ID())] = true
	}
	p.oopifs.mu.Unlock()
	if len(sessions) < 3 {
		t.Fatalf("the frame site attached %d sessions, want the page's and at least two frames'", len(sessions))
	}
	count := func() int {
		n := 0
		for _, c := range p.Browser.conn.Subscribed(func(id target.SessionID) bool { return sessions[string(id)] }) {
			n += c
		}
		return n
	}
	if count() == 0 {
		t.Fatal("no subscriptions before Close")
	}
	p.Close()
	if n := count(); n != 0 {
		t.Fatalf("after Close the page and its frames still hold %d subscriptions", n)
	}
}
