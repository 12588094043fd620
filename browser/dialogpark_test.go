package browser

import (
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
)

// TestParkedDialogIsAnsweredWhenAProgramTakesThePage: a dialog that opens
// on a parked page is left to the dialog keeper; when a program takes the
// page back (Resume) it is answered at once, on that event, not when the
// keeper's grace runs out (an hour here). The page's own code sees the
// confirm return true exactly once, and the dialog is in the log.
func TestParkedDialogIsAnsweredWhenAProgramTakesThePage(t *testing.T) {
	defer func(g time.Duration) { keeperGrace = g }(keeperGrace)
	keeperGrace = time.Hour
	p, _ := openFixture(t, "points.html")
	ctx := testCtx(t)
	js(t, p, `window.answers = []; 0`)
	opened, stop := p.sess.Subscribe(page.JavascriptDialogOpening.Method)
	defer stop()
	p.Park(ctx, false)
	js(t, p, `setTimeout(() => { window.answers.push(confirm('Leave?')) }, 0); 0`)
	select {
	case <-opened:
	case <-ctx.Done():
		t.Fatal("no dialog opened")
	}
	// The handler now waits for the keeper, the grace or the program.
	for waiting := false; !waiting; {
		p.dlg.mu.Lock()
		waiting = p.dlg.taken != nil
		p.dlg.mu.Unlock()
		if ctx.Err() != nil {
			t.Fatal("the dialog was not left to the keeper")
		}
		time.Sleep(time.Millisecond)
	}
	p.Resume()
	if got := js(t, p, `JSON.stringify(window.answers)`); got != `"[true]"` {
		t.Fatalf("the page's confirm answers: %s", got)
	}
	seen := p.Dialogs().Since(0)
	if len(seen) != 1 || seen[0].Message != "Leave?" || seen[0].Action != "accepted" {
		t.Fatalf("dialogs logged: %+v", seen)
	}
}
