package browser

import (
	"net/http"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// coverSite serves a shop page whose promotion bubble (an ordinary
// absolutely placed div with a click handler, not a modal) lies over the
// middle of an embedded payment frame, same-site or cross-site.
func coverSite(t *testing.T, cross bool) string {
	t.Helper()
	frame := `<!doctype html><title>Pay</title><body style="margin:0">
<button id="buy" style="width:300px;height:120px" onclick="window.buys = (window.buys || 0) + 1">Pay now</button></body>`
	frameBase := browsertest.ServeOn(t, "127.0.0.2", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(frame))
	}))
	if !cross {
		frameBase = ""
	}
	top := `<!doctype html><title>Shop</title><body style="margin:0">
<header style="height:40px">Shop</header>
<iframe id="pay" title="Payment" src="` + frameBase + `/frame.html" style="border:0;width:300px;height:120px"></iframe>
<div id="promo" style="position:absolute;left:100px;top:60px;width:120px;height:80px;background:#fc0"
  onclick="window.promos = (window.promos || 0) + 1">Win a prize!</div></body>`
	return browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		if r.URL.Path == "/frame.html" {
			w.Write([]byte(frame))
			return
		}
		w.Write([]byte(top))
	}))
}

// TestClickUnderACoverInTheParentPage: a button inside an iframe whose
// middle the parent page covers (a promotion bubble) is not clicked
// through the cover: the step fails naming the bubble, the bubble's own
// handler never runs and the button is not clicked either. Before, the
// mouse press went to the bubble (its handler ran), the frame never saw
// it, and the click fell back to element.click() on the button: two
// actions, one of them on the wrong element.
func TestClickUnderACoverInTheParentPage(t *testing.T) {
	for _, cross := range []bool{false, true} {
		name := map[bool]string{false: "same-site", true: "cross-site"}[cross]
		t.Run(name, func(t *testing.T) {
			p := openTestTab(t)
			ctx := testCtx(t)
			if _, err := p.Navigate(ctx, coverSite(t, cross), WaitLoad); err != nil {
				t.Fatal(err)
			}
			if _, _, err := p.Frames().Switch(ctx, FrameSpec{Selector: "#pay"}); err != nil {
				t.Fatal(err)
			}
			_, err := p.Click(ctx, Target{Selector: "#buy"}, ClickOptions{ActionOptions: ActionOptions{Timeout: 600 * 1e6}})
			buys := js(t, p, "window.buys || 0")
			p.Frames().Switch(ctx, FrameSpec{Top: true})
			promos := js(t, p, "window.promos || 0")
			if buys != "0" || promos != "0" {
				t.Fatalf("the page acted: buys = %s, promos = %s (err %v)", buys, promos, err)
			}
			e := wantKind(t, err, KindElementIntercepted)
			if !strings.Contains(e.Error(), "div#promo") {
				t.Fatalf("the error does not name the cover: %v", e)
			}
			// A hover there would hover the bubble instead.
			p.Frames().Switch(ctx, FrameSpec{Selector: "#pay"})
			_, err = p.Hover(ctx, Target{Selector: "#buy"}, HoverOptions{ActionOptions: ActionOptions{Timeout: 600 * 1e6}})
			wantKind(t, err, KindElementIntercepted)
			// So would a drag's press.
			_, err = p.Drag(ctx, DragEnd{Target: Target{Selector: "#buy"}}, DragEnd{Target: Target{Point: &Point{X: 20, Y: 20}}}, DragOptions{ActionOptions: ActionOptions{Timeout: 600 * 1e6}})
			wantKind(t, err, KindElementIntercepted)
			p.Frames().Switch(ctx, FrameSpec{Top: true})
			if got := js(t, p, "window.promos || 0"); got != "0" {
				t.Fatalf("the drag pressed the bubble: promos = %s", got)
			}
			// With the bubble gone, the same click goes into the frame,
			// once.
			p.Frames().Switch(ctx, FrameSpec{Top: true})
			js(t, p, "document.getElementById('promo').remove(), 1")
			p.Frames().Switch(ctx, FrameSpec{Selector: "#pay"})
			if _, err := p.Click(ctx, Target{Selector: "#buy"}, ClickOptions{}); err != nil {
				t.Fatal(err)
			}
			if got := js(t, p, "window.buys || 0"); got != "1" {
				t.Fatalf("buys = %s after the cover went, want 1", got)
			}
		})
	}
}
