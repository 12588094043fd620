package browser

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// frameCheckout is a shop's checkout: the order steps run in a same-site
// iframe, the card form in a cross-site one (a payment provider). Each
// frame's next page shows an image that arrives after 400 ms, so the
// frame reaches load well after it shows its new document.
func frameCheckout(t *testing.T) (top string) {
	t.Helper()
	slowImage := func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(400 * time.Millisecond)
		w.Header().Set("Content-Type", "image/svg+xml")
		w.Write([]byte(`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>`))
	}
	page := func(title, body string) string {
		return `<!doctype html><html><head><title>` + title + `</title></head><body>` + body + `</body></html>`
	}
	payPages := map[string]string{
		"card.html":   page("Card", `<h2>Card details</h2><form action="/verify.html"><label>Card number <input name="n" value="4242"></label><button>Pay</button></form>`),
		"verify.html": page("Verify", `<h2>Verify your payment</h2><img src="/slow.svg" alt="Bank logo">`),
	}
	pay := browsertest.ServeOn(t, "127.0.0.2", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow.svg" {
			slowImage(w, r)
			return
		}
		writePage(w, r, payPages)
	}))
	shopPages := map[string]string{
		"checkout.html": page("Checkout", `<header><nav><a href="/cart.html">Cart</a></nav></header>
<aside><h2>Your order</h2><p>1 desk lamp</p></aside>
<main><h1>Checkout</h1>
<iframe id="steps" src="/address.html" width="500" height="220"></iframe>
<iframe id="pay" src="`+pay+`card.html" width="500" height="220"></iframe>
<a href="/cart.html">Back to cart</a></main>`),
		"address.html": page("Address", `<h2>Address</h2><a href="/shipping.html">Continue to shipping</a>
<a href="#help">Help</a><p id="help">Ask us</p>
<button onclick="this.textContent = 'Saved'">Save address</button>`),
		"shipping.html": page("Shipping", `<h2>Shipping</h2><img src="/slow.svg" alt="Van">`),
		"cart.html":     page("Cart", `<h1>Cart</h1><iframe src="/address.html"></iframe>`),
	}
	return browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow.svg" {
			slowImage(w, r)
			return
		}
		writePage(w, r, shopPages)
	})) + "checkout.html"
}

// TestActionInFrameReportsWhereTheFrameWent: a click that navigates an
// iframe (a link in a same-site frame, a form in a cross-site one) says
// where the frame went, and the same-site frame's answer comes once its
// new document has loaded; a click that changes a frame without
// navigating it, and a fragment link, report no frame navigation; a top
// navigation reports the tab's, not the new page's frames.
func TestActionInFrameReportsWhereTheFrameWent(t *testing.T) {
	p := openTestTab(t)
	ctx := testCtx(t)
	if _, err := p.Navigate(ctx, frameCheckout(t), WaitLoad); err != nil {
		t.Fatal(err)
	}
	s := frameSiteSnapshot(t, p)
	save, help, next := refOf(t, s.YAML, `button "Save address"`), refOf(t, s.YAML, `link "Help"`), refOf(t, s.YAML, `link "Continue to shipping"`)
	pay, cart := refOf(t, s.YAML, `button "Pay"`), refOf(t, s.YAML, `link "Back to cart"`)
	act := func(ref string) *ClickResult {
		t.Helper()
		restore := p.FrameScope()
		defer restore()
		res, err := p.Click(ctx, Target{Ref: ref}, ClickOptions{NativeOnly: true})
		if err != nil {
			t.Fatalf("click %s: %v", ref, err)
		}
		return res
	}
	if res := act(save); len(res.FramesNavigated) > 0 || res.Navigated {
		t.Errorf("a click that changed a frame's button reports navigations: %+v", res.Effect)
	}
	if got := frameJS(t, p, save, `document.querySelector('button').textContent`); got != `"Saved"` {
		t.Fatalf("the frame's button after the click: %s", got)
	}
	if res := act(help); len(res.FramesNavigated) > 0 || res.Warning != "" {
		t.Errorf("a fragment link in a frame: %+v", res.Effect)
	}
	res := act(next)
	if len(res.FramesNavigated) != 1 || !strings.HasSuffix(res.FramesNavigated[0], "/shipping.html") || res.Navigated {
		t.Fatalf("a link in a same-site frame: %+v", res.Effect)
	}
	// The answer came once the frame's new document had loaded.
	if got := js(t, p, `[document.getElementById('steps').contentDocument.readyState, document.getElementById('steps').contentDocument.querySelector('h2').textContent]`); got != `["complete","Shipping"]` {
		t.Errorf("the frame when the click answered: %s", got)
	}
	res = act(pay)
	if len(res.FramesNavigated) != 1 || !strings.Contains(res.FramesNavigated[0], "127.0.0.2") || !strings.Contains(res.FramesNavigated[0], "/verify.html?n=4242") || res.Navigated {
		t.Fatalf("a form in a cross-site frame: %+v", res.Effect)
	}
	if got := frameJS(t, p, pay, `[document.readyState, document.querySelector('h2').textContent]`); got != `["complete","Verify your payment"]` {
		t.Errorf("the cross-site frame when the click answered: %s", got)
	}
	res = act(cart)
	if !res.Navigated || !strings.HasSuffix(res.NewURL, "/cart.html") || len(res.FramesNavigated) > 0 {
		t.Fatalf("a top navigation to a page with a frame: %+v", res.Effect)
	}
}
