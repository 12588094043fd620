package browser

import (
	"context"
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

// stepBound is how far past its deadline an action may return.
const stepBound = time.Second

// TestDragEndsWhenChromeStopsAcknowledging drags the slider of a page whose
// pointermove handler runs for 6 s, longer than the step's 2 s: Chrome
// does not acknowledge the move while the handler runs. The drag returns
// by its deadline (plus a second) with a TimeoutError naming the phase,
// leaves no button held, and once the handler returned the same tab
// takes the next drag, which moves the handle.
func TestDragEndsWhenChromeStopsAcknowledging(t *testing.T) {
	p, _ := openFixture(t, "rangeslider.html?busy=6000")
	ctx := testCtx(t)
	const timeout = 2 * time.Second
	dctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	began := time.Now()
	_, err := dragHandle(dctx, t, p, 60)
	took := time.Since(began)
	if KindOf(err) != KindTimeout || !strings.Contains(err.Error(), "did not acknowledge the mouse move") {
		t.Fatalf("err = %v (%s)", err, KindOf(err))
	}
	if took > timeout+stepBound {
		t.Errorf("the drag returned after %s, past its %s timeout", took, timeout)
	}
	if p.Input().Holding() {
		t.Error("input still held after the failed drag")
	}
	if notes := p.EndStep(ctx); len(notes) != 0 {
		t.Errorf("the step's end found input held: %q", notes)
	}
	// The next command waits for the handler to return, then drags.
	if _, err := dragHandle(ctx, t, p, 80); err != nil {
		t.Fatalf("the next drag on the tab: %v", err)
	}
	if got := js(t, p, "[window.value, window.downs - window.ups, window.applied]"); got != `[80,0,0]` {
		t.Fatalf("value, held downs, applied = %s", got)
	}
}

// TestClickEndsWhenChromeStopsAcknowledging clicks a button whose
// mousedown handler runs for 6 s: the click returns by its 2 s deadline
// (plus a second) with a TimeoutError naming the press, and the next click
// on the tab works (the handler's click, which Chrome delivers when the
// handler returns, counts once; the second click once more).
func TestClickEndsWhenChromeStopsAcknowledging(t *testing.T) {
	p, _ := openFixture(t, "rangeslider.html?busy=6000&busyOn=down")
	ctx := testCtx(t)
	const timeout = 2 * time.Second
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	began := time.Now()
	_, err := p.Click(cctx, Target{Selector: "#apply"}, ClickOptions{})
	took := time.Since(began)
	if KindOf(err) != KindTimeout || !strings.Contains(err.Error(), "did not acknowledge the mouse press") {
		t.Fatalf("err = %v (%s)", err, KindOf(err))
	}
	if took > timeout+stepBound {
		t.Errorf("the click returned after %s, past its %s timeout", took, timeout)
	}
	if p.Input().Holding() {
		t.Error("input still held after the failed click")
	}
	if _, err := p.Click(ctx, Target{Selector: "#apply"}, ClickOptions{}); err != nil {
		t.Fatalf("the next click on the tab: %v", err)
	}
	if got := js(t, p, "window.applied"); got != "2" {
		t.Fatalf("applied = %s, want the late click and the next one", got)
	}
}

// TestEndStepReleasesHeldInput: a step that ends with a button or a key
// still down (a gesture that failed half way) has them released at its
// end, and the answer says so; the next step starts with nothing held.
func TestEndStepReleasesHeldInput(t *testing.T) {
	p, _ := openFixture(t, "rangeslider.html")
	ctx := testCtx(t)
	js(t, p, "window.keys = []; addEventListener('keydown', (e) => keys.push('down:' + e.key)); addEventListener('keyup', (e) => keys.push('up:' + e.key)); 1")
	h := rectOf(t, p, "#handle")
	at := Point{X: h.X + h.W/2, Y: h.Y + h.H/2}
	if err := p.in.mouseMove(ctx, at, 0); err != nil {
		t.Fatal(err)
	}
	if err := p.in.mouseButton(ctx, at, true); err != nil {
		t.Fatal(err)
	}
	shift, _ := lookupKey("Shift")
	if err := p.in.keyEvent(ctx, "keyDown", shift, 8, ""); err != nil {
		t.Fatal(err)
	}
	if !p.Input().Holding() {
		t.Fatal("nothing held after a press")
	}
	notes := strings.Join(p.EndStep(ctx), " ")
	if !strings.Contains(notes, "released the left mouse button") || !strings.Contains(notes, "released the Shift key") {
		t.Errorf("notes = %q", notes)
	}
	if got := js(t, p, "[window.downs, window.ups, window.keys.join(' ')]"); got != `[1,1,"down:Shift up:Shift"]` {
		t.Fatalf("downs, ups, keys = %s", got)
	}
	if p.Input().Holding() || len(p.EndStep(ctx)) != 0 {
		t.Fatal("still held after the step's end")
	}
}

// TestEnterOnNewTabLinkLeavesTheTabInFront: Enter on a link that opens a
// new tab opens it in this tab's window, which hid this one, and the next
// drag hung. The step's end brings this tab back (the answer lists the new
// tab), and the drag that follows moves the slider.
func TestEnterOnNewTabLinkLeavesTheTabInFront(t *testing.T) {
	p, _ := openFixture(t, "rangeslider.html")
	closeTabsAt(t, p, "about:blank#opened")
	ctx := testCtx(t)
	js(t, p, `document.body.insertAdjacentHTML('beforeend', '<a id="l" href="about:blank#opened" target="_blank" rel="noopener">Terms</a>'); 1`)
	combo, _ := p.Input().ParseKeys("Enter")
	res, err := p.PressKeys(ctx, Target{Selector: "#l"}, combo, 1)
	if err != nil {
		t.Fatal(err)
	}
	p.EndStep(ctx)
	if len(res.NewTabs) != 1 {
		t.Errorf("new tabs = %+v", res.NewTabs)
	}
	if got := js(t, p, "document.visibilityState"); got != `"visible"` {
		t.Fatalf("the tab is %s after the press", got)
	}
	dctx, cancel := context.WithTimeout(ctx, 8*time.Second)
	defer cancel()
	if _, err := dragHandle(dctx, t, p, 75); err != nil {
		t.Fatalf("drag after the press: %v", err)
	}
	if got := js(t, p, "[window.value, window.downs, window.ups]"); got != `[75,1,1]` {
		t.Fatalf("value, downs, ups = %s", got)
	}
}

// TestDragBringsAHiddenTabToFront: a tab hidden behind another tab of its
// window (here by Chrome's History shortcut, pressed past the press's own
// watch) is brought to the front by the drag, which moves the slider and
// says so.
func TestDragBringsAHiddenTabToFront(t *testing.T) {
	p, _ := openFixture(t, "rangeslider.html")
	closeTabsAt(t, p, "chrome://history")
	ctx := testCtx(t)
	combo, _ := p.Input().ParseKeys("Control+h")
	if err := p.in.press(ctx, combo); err != nil {
		t.Fatal(err)
	}
	if got := js(t, p, "document.visibilityState"); got != `"hidden"` {
		t.Fatalf("the shortcut left the tab %s", got)
	}
	dctx, cancel := context.WithTimeout(ctx, 8*time.Second)
	defer cancel()
	if _, err := dragHandle(dctx, t, p, 75); err != nil {
		t.Fatalf("drag in the hidden tab: %v", err)
	}
	if got := js(t, p, "[window.value, window.downs, window.ups]"); got != `[75,1,1]` {
		t.Fatalf("value, downs, ups = %s", got)
	}
	if notes := strings.Join(p.EndStep(ctx), " "); !strings.Contains(notes, "brought it to the front before the drag") {
		t.Errorf("notes = %q", notes)
	}
}
