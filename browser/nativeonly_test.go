package browser

import (
	"strings"
	"testing"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// toastOverButtonPage has a "Save" button that a toast (a status, not a
// layer a user must dismiss) covers, as a toast that lingers over a form's
// button does; each counts its clicks.
const toastOverButtonPage = `<!doctype html><title>Settings</title><header><a href="/">Home</a></header>
<main><h1>Settings</h1><form onsubmit="return false"><button id="save" style="position:absolute;top:120px;left:20px;width:120px;height:40px"
onclick="window.saves = (window.saves || 0) + 1">Save</button></form></main>
<div id="toast" role="status" style="position:fixed;top:110px;left:0;width:300px;height:60px;background:#333;color:#fff"
onclick="window.toastClicks = (window.toastClicks || 0) + 1">Draft saved 2 minutes ago</div>`

// TestNativeOnlyNeverClicksWithJavaScript: a button a toast covers is
// clicked with element.click() once the wait for it gives up, unless the
// step asks for native input only: then no JavaScript click runs, and the
// answer says where the mouse click would land. The page's counters show
// which handler ran, and how often.
func TestNativeOnlyNeverClicksWithJavaScript(t *testing.T) {
	base := browsertest.ServeHandler(t, storeHandler(toastOverButtonPage))
	p := openTestTab(t)
	ctx := testCtx(t)
	if _, err := p.Navigate(ctx, base+"settings.html", WaitLoad); err != nil {
		t.Fatal(err)
	}
	wait := ActionOptions{Timeout: 1500 * time.Millisecond}
	_, err := p.Click(ctx, Target{Selector: "#save"}, ClickOptions{NativeOnly: true, ActionOptions: wait})
	if err == nil || !strings.Contains(err.Error(), "div#toast") {
		t.Errorf("nativeOnly on a covered button: %v", err)
	}
	if got := js(t, p, "[window.saves, window.toastClicks].join()"); got != `","` && got != `",1"` {
		t.Errorf("nativeOnly: the page counted saves and toast clicks %s, want no save", got)
	}
	res, err := p.Click(ctx, Target{Selector: "#save"}, ClickOptions{ActionOptions: wait})
	if err != nil || res.Method != "jsClick-auto" {
		t.Fatalf("a covered button: %+v %v", res, err)
	}
	if got := js(t, p, "window.saves"); got != "1" {
		t.Errorf("the Save handler ran %s times", got)
	}
}
