package browser

import (
	"context"
	"net/http"
	"strings"
	"sync"
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
		switch r.URL.Path {
		case "/slow.svg":
			slowImage(w, r)
			return
		case "/verify.html":
			time.Sleep(300 * time.Millisecond) // the bank is slow to answer
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
		switch r.URL.Path {
		case "/slow.svg":
			slowImage(w, r)
			return
		case "/shipping.html":
			time.Sleep(300 * time.Millisecond)
		}
		writePage(w, r, shopPages)
	})) + "checkout.html"
}

// TestActionInFrameReportsWhereTheFrameWent: a click that navigates an
// iframe (a link in a same-site frame, a form in a cross-site one) says
// where the frame went, and the answer comes once the frame's new document
// is there; a click that changes a frame without
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
		restore := scopeStep(ctx)
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
	// The answer came once the frame's new document was there (parsed;
	// its slow image may still load).
	if got := js(t, p, `[document.getElementById('steps').contentDocument.readyState != 'loading', document.getElementById('steps').contentDocument.querySelector('h2').textContent]`); got != `[true,"Shipping"]` {
		t.Errorf("the frame when the click answered: %s", got)
	}
	res = act(pay)
	if len(res.FramesNavigated) != 1 || !strings.Contains(res.FramesNavigated[0], "127.0.0.2") || !strings.Contains(res.FramesNavigated[0], "/verify.html?n=4242") || res.Navigated {
		t.Fatalf("a form in a cross-site frame: %+v", res.Effect)
	}
	if got := frameJS(t, p, pay, `[document.readyState != 'loading', document.querySelector('h2').textContent]`); got != `[true,"Verify your payment"]` {
		t.Errorf("the cross-site frame when the click answered: %s", got)
	}
	res = act(cart)
	if !res.Navigated || !strings.HasSuffix(res.NewURL, "/cart.html") || len(res.FramesNavigated) > 0 {
		t.Fatalf("a top navigation to a page with a frame: %+v", res.Effect)
	}
}

// adPage is a news article with a button that saves it (a request that
// takes a second), a rotating ad frame that loads itself again every 300 ms
// and never finishes loading (its pixel stalls), and links and buttons
// whose frame navigations lead nowhere: a 204 answer, a frame removed
// while it navigates, a frame the button adds, a site that refuses to be
// framed, a frame whose server takes 400 ms to answer (so its document
// commits after the page's DOMContentLoaded), and a scores frame that
// refreshes itself (a meta refresh) 400 ms after it loads.
func adPage(t *testing.T) string {
	t.Helper()
	stall := make(chan struct{})
	t.Cleanup(func() { close(stall) })
	page := func(title, body string) string {
		return `<!doctype html><html><head><title>` + title + `</title></head><body>` + body + `</body></html>`
	}
	pages := map[string]string{
		"article.html": page("Article", `<header><h1>Daily news</h1></header>
<main><article><h2>Lamps are back</h2><p>Desk lamps sell again.</p>
<button id="save" onclick="fetch('/slow-save').then(() => this.textContent = 'Saved')">Save article</button>
<button id="embed" onclick="const f = document.createElement('iframe'); f.src = '/card.html'; document.body.append(f)">Show card</button>
<button id="gone" onclick="const f = document.getElementById('box'); f.contentDocument.getElementById('slow').click(); setTimeout(() => f.remove(), 50)">Close box</button>
<button id="refused" onclick="document.getElementById('help').src = '/no-frames.html'">Open help</button>
</article></main>
<aside><iframe id="ad" src="/ad.html?0" title="Ad"></iframe><iframe id="box" src="/box.html" title="Box"></iframe>
<iframe id="help" src="/card.html" title="Help"></iframe><iframe id="late" src="/late.html" title="Late"></iframe>
<iframe id="scores" src="/scores.html?0" title="Scores"></iframe></aside>`),
		"ad.html":        page("Ad", `<p>Buy lamps</p><img src="/stall.gif" alt=""><script>setTimeout(() => location.href = '/ad.html?' + Date.now(), 300)</script>`),
		"box.html":       page("Box", `<a id="nothing" href="/no-content">Check for news</a><a id="slow" href="/slow-page">Archive</a>`),
		"card.html":      page("Card", `<p>Card</p>`),
		"late.html":      page("Late", `<p>A frame slow to answer</p>`),
		"scores.html":    `<!doctype html><html><head><title>Scores</title><meta http-equiv="refresh" content="0.4; url=/scores.html?1"></head><body><p>2 : 1</p></body></html>`,
		"no-frames.html": page("Help", `<p>Help</p>`),
	}
	return browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/stall.gif":
			select {
			case <-stall:
			case <-r.Context().Done():
			}
			return
		case "/slow-save":
			time.Sleep(time.Second)
			return
		case "/no-content":
			w.WriteHeader(http.StatusNoContent)
			return
		case "/slow-page":
			time.Sleep(2 * time.Second)
		case "/late.html":
			time.Sleep(400 * time.Millisecond)
		case "/no-frames.html":
			w.Header().Set("X-Frame-Options", "DENY")
		}
		writePage(w, r, pages)
	})) + "article.html"
}

// TestFrameNavigationsTheActionDidNotCause: a frame that navigates on its
// own (a rotating ad) is neither reported nor awaited; a frame navigation
// that ends with no document (a 204 answer) or whose frame is removed is
// not awaited; a frame the action adds is no navigation; a frame that
// refuses to be shown is said to show an error page.
func TestFrameNavigationsTheActionDidNotCause(t *testing.T) {
	p := openTestTab(t)
	ctx := testCtx(t)
	if _, err := p.Navigate(ctx, adPage(t), WaitDOMContentLoaded); err != nil {
		t.Fatal(err)
	}
	clickOnce := func(sel string) *ClickResult {
		t.Helper()
		res, err := p.Click(ctx, Target{Selector: sel}, ClickOptions{NativeOnly: true})
		if err != nil {
			t.Fatalf("click %s: %v", sel, err)
		}
		return res
	}
	// notAd are the frame navigations besides the ad's: an ad that happens
	// to rotate once during a short action cannot be told from a frame the
	// action navigated (Chrome does not say who asked).
	notAd := func(urls []string) []string {
		var out []string
		for _, u := range urls {
			if !strings.Contains(u, "/ad.html") {
				out = append(out, u)
			}
		}
		return out
	}
	// The save starts before the late frame's document commits (its
	// server answers in 400 ms, the save's in a second): that navigation
	// began with the page, not with the click.
	res := clickOnce("#save")
	if len(res.FramesNavigated) > 0 || res.Warning != "" {
		t.Errorf("a save while an ad rotates and a frame of the page still loads: %+v", res.Effect)
	}
	if got := js(t, p, `document.getElementById('save').textContent`); got != `"Saved"` {
		t.Errorf("the save did not finish before the answer: %s", got)
	}
	// A link in a frame to a 204 answer: the frame keeps its page.
	restore := scopeStep(ctx)
	res, err := p.Click(ctx, Target{Text: "Check for news"}, ClickOptions{NativeOnly: true})
	restore()
	if err != nil || len(notAd(res.FramesNavigated)) > 0 || res.Warning != "" {
		t.Errorf("a link in a frame to a 204 answer: %+v %v", res, err)
	}
	res = clickOnce("#embed")
	if len(notAd(res.FramesNavigated)) > 0 || res.Warning != "" {
		t.Errorf("a button that adds a frame: %+v", res.Effect)
	}
	res = clickOnce("#gone")
	if len(notAd(res.FramesNavigated)) > 0 || res.Warning != "" {
		t.Errorf("a frame removed while it navigates: %+v", res.Effect)
	}
	res = clickOnce("#refused")
	if !strings.Contains(res.Warning, "error page") {
		t.Errorf("a frame that refuses to be framed: %+v", res.Effect)
	}
}

// TestSnapshotShowsAFrameThatIsLoading: while a cross-site frame waits for
// a slow server, Chrome holds every call into it; the snapshot shows the
// frame as loading instead of waiting (before, each capture waited 5 to
// 15 s), and shows its page once it has come.
func TestSnapshotShowsAFrameThatIsLoading(t *testing.T) {
	release := make(chan struct{})
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	t.Cleanup(free)
	partner := browsertest.ServeOn(t, "127.0.0.2", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/statement.html" {
			select {
			case <-release:
			case <-r.Context().Done():
				return
			}
		}
		writePage(w, r, map[string]string{
			"widget.html":    `<!doctype html><p>Balance</p><button>Show statement</button>`,
			"statement.html": `<!doctype html><h2>Statement</h2><p>March: 12 €</p>`,
		})
	}))
	p := loadHTML(t, `<!doctype html><title>Bank</title><main><h1>Accounts</h1><iframe id="w" src="`+partner+`widget.html"></iframe></main>`)
	ctx := testCtx(t)
	if s := frameSiteSnapshot(t, p); !strings.Contains(s.YAML, `button "Show statement"`) {
		t.Fatalf("the widget before: %s", s.YAML)
	}
	var set bool
	if err := p.CallInto(ctx, &set, `(u) => { document.getElementById('w').src = u; return true }`, partner+"statement.html"); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		sctx, cancel := context.WithTimeout(ctx, 8*time.Second)
		s, err := p.Snapshot(sctx, SnapshotOptions{})
		cancel()
		if err != nil || !strings.Contains(s.YAML, "[loading]") || !strings.Contains(s.YAML, `heading "Accounts"`) {
			t.Fatalf("snapshot %d while the frame loads: %v\n%v", i+1, err, s)
		}
	}
	free()
	deadline := time.Now().Add(10 * time.Second)
	for {
		s := frameSiteSnapshot(t, p)
		if strings.Contains(s.YAML, `heading "Statement"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the frame's page never showed: %s", s.YAML)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestDownloadFromACrossSiteFrame: a statement a cross-site frame (a bank
// widget) downloads is the tab's download like any other: listed, and not
// taken for a navigation of the frame.
func TestDownloadFromACrossSiteFrame(t *testing.T) {
	bank := browsertest.ServeOn(t, "127.0.0.2", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/statement.csv" {
			w.Header().Set("Content-Type", "text/csv")
			w.Header().Set("Content-Disposition", `attachment; filename="statement.csv"`)
			w.Write([]byte("date,amount\n2026-03-01,12\n"))
			return
		}
		writePage(w, r, map[string]string{"widget.html": `<!doctype html><h2>Balance</h2><a href="/statement.csv">Download statement</a>`})
	}))
	p := loadHTML(t, `<!doctype html><title>Bank</title><main><h1>Accounts</h1><iframe src="`+bank+`widget.html"></iframe></main>`)
	ctx := testCtx(t)
	link := refOf(t, frameSiteSnapshot(t, p).YAML, `link "Download statement"`)
	mark := p.Downloads().Mark()
	restore := scopeStep(ctx)
	res, err := p.Click(ctx, Target{Ref: link}, ClickOptions{NativeOnly: true})
	restore()
	if err != nil || len(res.FramesNavigated) > 0 || res.Warning != "" {
		t.Fatalf("the click on the frame's download link: %+v %v", res, err)
	}
	// Its begin event can come a moment after the click's answer (the
	// frame's renderer asks for it on its own): look until it has.
	var list []Download
	for deadline := time.Now().Add(5 * time.Second); len(list) == 0 && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		list = p.Downloads().List(ctx, mark, t.TempDir())
	}
	if len(list) != 1 || list[0].SuggestedFilename != "statement.csv" || list[0].State != "denied" {
		t.Fatalf("the frame's download: %+v", list)
	}
}
