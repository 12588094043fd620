package browser

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/target"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// navSite is a small shop whose product page embeds an image the server
// never sends (the page reaches DOMContentLoaded, never load), and whose
// old checkout URL redirects by script before it loads.
func navSite(t *testing.T) string {
	t.Helper()
	stall := make(chan struct{})
	t.Cleanup(func() { close(stall) })
	layout := func(title, main string) string {
		return `<!doctype html><html><head><title>` + title + `</title></head><body>
<header><nav><a href="/home">Home</a> <a href="/product">Product</a></nav></header>
<aside><h2>Categories</h2><ul><li>Lamps</li><li>Chairs</li></ul></aside>
<main>` + main + `</main><footer>© Shop</footer></body></html>`
	}
	pages := map[string]string{
		"home": layout("Home", `<h1>Welcome</h1><button id="more" onclick="history.pushState({}, '', '/home?page=2')">More</button>`),
		"product": layout("Lamp", `<h1>Desk lamp</h1><img src="/stall.png" alt="Lamp photo"><button>Add to cart</button>
<script>addEventListener('pageshow', e => { window.restored = e.persisted })</script>`),
		"old-checkout": layout("Moved", `<script>location.replace('/checkout')</script><p>Moved</p>`),
		"checkout":     layout("Checkout", `<h1>Checkout</h1>`),
	}
	return browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/stall.png" {
			select {
			case <-stall:
			case <-r.Context().Done():
			}
			return
		}
		writePage(w, r, pages)
	}))
}

// pathOf is the path (and query) of the tab's URL, read from the page.
func pathOf(t *testing.T, p *Page) string {
	t.Helper()
	var path string
	if err := p.CallInto(testCtx(t), &path, `() => location.pathname + location.search`); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestReloadThatNeverLoadsIsStoppedAndSaysWhy: every navigation step
// (goto, reload, back, forward) waits the same way. A reload whose page
// never reaches load runs out of time with what it reached, is stopped,
// and leaves the tab usable; with waitUntil commit it returns once the
// document is there.
func TestReloadThatNeverLoadsIsStoppedAndSaysWhy(t *testing.T) {
	base := navSite(t)
	p := openTestTab(t)
	if _, err := p.Navigate(testCtx(t), base+"product", WaitDOMContentLoaded); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err := p.Reload(ctx, WaitLoad, false)
	if KindOf(err) != KindTimeout {
		t.Fatalf("reload of a page that never loads: %v, want a timeout", err)
	}
	msg := err.Error()
	for _, want := range []string{`reload did not reach "load"`, "the load was stopped"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not say %q", msg, want)
		}
	}
	// What it reached is a milestone an agent can wait for instead (not a
	// paint event).
	if !strings.Contains(msg, "last reached: DOMContentLoaded") && !strings.Contains(msg, "last reached: networkAlmostIdle") {
		t.Errorf("error %q does not say which milestone the page reached", msg)
	}
	// waitUntil commit returns once the new document is there.
	cctx, ccancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer ccancel()
	if _, err := p.Reload(cctx, WaitCommit, false); err != nil {
		t.Fatalf("reload with waitUntil commit of a page that never loads: %v", err)
	}
	var heading string
	if err := p.CallInto(testCtx(t), &heading, `() => document.querySelector('h1').textContent`); err != nil || heading != "Desk lamp" {
		t.Fatalf("the page after reload: %q %v", heading, err)
	}
	res, err := p.Navigate(testCtx(t), base+"home", WaitLoad)
	if err != nil || !strings.HasSuffix(res.URL, "/home") {
		t.Fatalf("the tab after the stopped reload: %v %v", res, err)
	}
}

// TestHistoryWaitsForWhatWasAsked: back to a page the back/forward cache
// kept ends when it is restored, a same-document history entry ends the
// wait at once, and a page that redirects by script before it loads is
// followed to where it lands.
func TestHistoryWaitsForWhatWasAsked(t *testing.T) {
	base := navSite(t)
	p := openTestTab(t)
	ctx := testCtx(t)
	if _, err := p.Navigate(ctx, base+"product", WaitDOMContentLoaded); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Navigate(ctx, base+"home", WaitLoad); err != nil {
		t.Fatal(err)
	}
	// The product page never loads, but the back/forward cache keeps it:
	// its restore ends the wait.
	res, err := p.Back(ctx, WaitLoad)
	if err != nil || !strings.HasSuffix(res.URL, "/product") {
		t.Fatalf("back to a page kept in the back/forward cache: %v %v", res, err)
	}
	if got := pathOf(t, p); got != "/product" {
		t.Fatalf("the page after back: %s", got)
	}
	if _, err := p.Forward(ctx, WaitLoad); err != nil {
		t.Fatal(err)
	}
	var clicked bool
	if err := p.CallInto(ctx, &clicked, `() => { document.getElementById('more').click(); return true }`); err != nil {
		t.Fatal(err)
	}
	if got := pathOf(t, p); got != "/home?page=2" {
		t.Fatalf("pushState: %s", got)
	}
	res, err = p.Back(ctx, WaitLoad)
	if err != nil || !strings.HasSuffix(res.URL, "/home") {
		t.Fatalf("back over a same-document entry: %v %v", res, err)
	}
	res, err = p.Navigate(ctx, base+"old-checkout", WaitLoad)
	if err != nil || !strings.HasSuffix(res.URL, "/checkout") {
		t.Fatalf("a page that redirects by script before load: %v %v", res, err)
	}
	var title string
	if err := p.CallInto(ctx, &title, `() => document.title`); err != nil || title != "Checkout" {
		t.Fatalf("landed on %q (%v), want Checkout", title, err)
	}
}

// TestBackOverAFramesHistory: a link followed inside a same-site iframe
// makes a history entry of that frame; back returns the frame, not the
// tab, and the wait ends when the frame has its document. (A cross-site
// frame's entry is not covered: Chrome may give its new document a new
// target, whose events come too late to be followed reliably.)
func TestBackOverAFramesHistory(t *testing.T) {
	p := openTestTab(t)
	ctx := testCtx(t)
	if _, err := p.Navigate(ctx, frameCheckout(t), WaitLoad); err != nil {
		t.Fatal(err)
	}
	next := refOf(t, frameSiteSnapshot(t, p).YAML, `link "Continue to shipping"`)
	restore := scopeStep(ctx)
	if _, err := p.Click(ctx, Target{Ref: next}, ClickOptions{NativeOnly: true}); err != nil {
		t.Fatal(err)
	}
	restore()
	bctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := p.Back(bctx, WaitLoad); err != nil {
		t.Fatalf("back over the same-site frame's entry: %v", err)
	}
	if got := js(t, p, `[document.title, document.getElementById('steps').contentDocument.querySelector('h2').textContent]`); got != `["Checkout","Address"]` {
		t.Errorf("the page after back: %s", got)
	}
}

// TestReloadWaitsForTheNewDocument: the old document's late load event
// is not the reloaded page's; and a link to a 204 answer is no
// navigation (the click answers at once, the page stays).
func TestReloadWaitsForTheNewDocument(t *testing.T) {
	var hits atomic.Int32
	base := browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/pixel.gif":
			time.Sleep(800 * time.Millisecond)
			return
		case "/no-content":
			w.WriteHeader(http.StatusNoContent)
			return
		}
		n := hits.Add(1)
		img := `<img src="/pixel.gif" alt="">`
		if n > 1 {
			time.Sleep(2 * time.Second) // the reload's answer is slow
			img = ""
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!doctype html><title>visit %d</title><h1>Orders</h1><a id="nothing" href="/no-content">Refresh badge</a>%s`, n, img)
	}))
	p := openTestTab(t)
	ctx := testCtx(t)
	if _, err := p.Navigate(ctx, base+"orders", WaitCommit); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Reload(ctx, WaitLoad, false); err != nil {
		t.Fatal(err)
	}
	if got := js(t, p, `[document.title, document.readyState]`); got != `["visit 2","complete"]` {
		t.Fatalf("after reload: %s", got)
	}
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	res, err := p.Click(cctx, Target{Selector: "#nothing"}, ClickOptions{NativeOnly: true})
	if err != nil || res.Navigated || res.Warning != "" {
		t.Fatalf("a link to a 204 answer: %+v %v", res, err)
	}
	if got := js(t, p, `document.title`); got != `"visit 2"` {
		t.Errorf("the page after the 204 link: %s", got)
	}
	_, err = p.Navigate(ctx, base+"no-content", WaitLoad)
	if KindOf(err) != KindNavigationAborted || !strings.Contains(err.Error(), "no page to show") {
		t.Errorf("goto a 204 answer: %v", err)
	}
}

// TestNewTabOfASlowPageNamesItsURL: a link that opens a tab on a page
// whose server is slow to answer names that page's URL in newTabs, not
// an empty one.
func TestNewTabOfASlowPageNamesItsURL(t *testing.T) {
	base := browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/invoice.pdf.html" {
			time.Sleep(3 * time.Second)
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<!doctype html><title>Billing</title><h1>Billing</h1><a id="inv" href="/invoice.pdf.html" target="_blank">Open invoice</a>`))
	}))
	p := openTestTab(t)
	ctx := testCtx(t)
	if _, err := p.Navigate(ctx, base+"billing", WaitLoad); err != nil {
		t.Fatal(err)
	}
	res, err := p.Click(ctx, Target{Selector: "#inv"}, ClickOptions{NativeOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.NewTabs) != 1 || !strings.HasSuffix(res.NewTabs[0].URL, "/invoice.pdf.html") {
		t.Fatalf("new tabs: %+v", res.NewTabs)
	}
	p.Browser.CloseTab(ctx, target.ID(res.NewTabs[0].TargetID))
}
