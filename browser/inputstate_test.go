package browser

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"
)

// dragHandle drags the range slider's handle to pct percent of its track.
func dragHandle(ctx context.Context, t *testing.T, p *Page, pct float64) (*DragResult, error) {
	t.Helper()
	tr := rectOf(t, p, "#track")
	return p.Drag(ctx, DragEnd{Target: Target{Selector: "#handle"}}, DragEnd{Target: Target{Point: &Point{X: tr.X + tr.W*pct/100, Y: tr.Y + tr.H/2}}}, DragOptions{})
}

// closeTabsAt closes the tabs whose URL starts with prefix when the test
// ends (the tabs Chrome's own shortcuts open).
func closeTabsAt(t *testing.T, p *Page, prefix string) {
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		res, err := cdp.Call(ctx, p.Browser.Session(), target.GetTargets, target.GetTargetsParams{})
		if err != nil {
			return
		}
		for _, ti := range res.TargetInfos {
			if ti.Type == "page" && strings.HasPrefix(ti.URL, prefix) {
				cdp.Call(ctx, p.Browser.Session(), target.CloseTarget, target.CloseTargetParams{TargetID: ti.TargetID})
			}
		}
	})
}

// TestBrowserShortcutLeavesTheTabInFront: Control+H on a page that does not
// handle it is Chrome's History shortcut, which opens chrome://history in a
// new tab of this tab's window and hides this one. A hidden page draws no
// frames and Chrome acknowledges no mouse move sent to it: the next drag
// used to hang until its timeout ("drag: mouse move: context deadline
// exceeded"), and every drag after it. The press now brings the tab back
// and says what happened; the slider drag that follows moves the handle.
func TestBrowserShortcutLeavesTheTabInFront(t *testing.T) {
	p, _ := openFixture(t, "rangeslider.html")
	closeTabsAt(t, p, "chrome://history")
	ctx := testCtx(t)
	combo, err := p.Input().ParseKeys("Control+h")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.PressKeys(ctx, Target{}, combo, 1); err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(p.EndStep(ctx), " ")
	if !strings.Contains(notes, "Chrome ran its own shortcut") || !strings.Contains(notes, "chrome://history") {
		t.Errorf("no note about the shortcut: %q", notes)
	}
	if got := js(t, p, "document.visibilityState"); got != `"visible"` {
		t.Fatalf("the tab is %s after the shortcut", got)
	}
	dctx, cancel := context.WithTimeout(ctx, 8*time.Second)
	defer cancel()
	if _, err := dragHandle(dctx, t, p, 75); err != nil {
		t.Fatalf("drag after the shortcut: %v", err)
	}
	if got := js(t, p, "[window.value, window.downs, window.ups]"); got != `[75,1,1]` {
		t.Fatalf("value, downs, ups = %s", got)
	}
}

// TestPageShortcutIsQuiet: a combo the page handles itself (its keydown
// handler cancels it) opens nothing and notes nothing.
func TestPageShortcutIsQuiet(t *testing.T) {
	p := loadHTML(t, `<!doctype html><title>Editor</title><textarea id="ed"></textarea>
<script>window.finds = 0; document.addEventListener('keydown', (e) => { if (e.ctrlKey && e.key === 'h') { e.preventDefault(); window.finds++; } });</script>`)
	ctx := testCtx(t)
	combo, _ := p.Input().ParseKeys("Control+h")
	if _, err := p.PressKeys(ctx, Target{Selector: "#ed"}, combo, 1); err != nil {
		t.Fatal(err)
	}
	if notes := p.EndStep(ctx); len(notes) != 0 {
		t.Errorf("notes for a handled shortcut: %q", notes)
	}
	if got := js(t, p, "[window.finds, document.visibilityState]"); got != `[1,"visible"]` {
		t.Fatalf("finds, visibility = %s", got)
	}
}

var _ = fmt.Sprint
