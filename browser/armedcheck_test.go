package browser

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// storeSite is a small shop page built like real ones: a header with a
// cart counter, a sidebar, a form whose handlers fetch and render later,
// a button the page shows late, a modal and a toast. Each handler counts
// its runs in window.runs and renders what its fetch answered.
func storeSite(t *testing.T) string {
	t.Helper()
	return browsertest.ServeHandler(t, storeHandler(storePage))
}

const storePage = `<!doctype html><title>Shop</title>
<header><nav><a href="#">Home</a> <a href="#">Deals</a></nav><span>Cart: <b id="cart">0</b></span></header>
<aside><ul><li><a href="#">Shoes</a></li><li><a href="#">Hats</a></li></ul></aside>
<main>
<h1>Red shoes</h1>
<button id="add" onclick="runs.add++; fetch('price.json').then(r => r.json()).then(d => { cart.textContent = d.count; out.textContent = 'added at ' + d.price })">Add to cart</button>
<button id="late" hidden onclick="runs.late++; fetch('price.json').then(r => r.json()).then(d => { out.textContent = 'late ' + d.price })">Buy now</button>
<button id="under" onclick="runs.under++">Under the modal</button>
<form onsubmit="return false">
<label>Coupon <input id="coupon" oninput="runs.coupon++; setTimeout(() => { out.textContent = 'coupon ' + this.value }, 60)"></label>
<label>Size <select id="size" onchange="runs.size++; fetch('price.json').then(r => r.json()).then(d => { out.textContent = 'size ' + this.value + ' ' + d.price })"><option>40</option><option>41</option><option>42</option></select></label>
</form>
<p id="out"></p>
<button class="dup">Save</button><button class="dup">Save</button>
</main>
<div id="toast" role="status">Free shipping today</div>
<div id="modal" hidden style="position:fixed;inset:0;background:rgba(0,0,0,.4)"><div role="dialog" aria-label="Newsletter" style="background:#fff;margin:20vh auto;width:300px"><p>Join us</p><button onclick="modal.hidden = true">No thanks</button></div></div>
<script>window.runs = {add: 0, late: 0, under: 0, coupon: 0, size: 0};
window.pageSetTimeout = setTimeout; window.pageFetch = fetch; window.pageRAF = requestAnimationFrame</script>`

// storeHandler serves page, and price.json a little later.
func storeHandler(page string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "price.json") {
			time.Sleep(40 * time.Millisecond)
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"price": "$59", "count": 1}`))
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(page))
	})
}

func openStore(t *testing.T) *Page {
	t.Helper()
	base := storeSite(t)
	p := openTestTab(t)
	if _, err := p.Navigate(testCtx(t), base+"shop.html", WaitLoad); err != nil {
		t.Fatal(err)
	}
	return p
}

// pageRestored reports whether the page's own timer, fetch and frame
// functions are back after an action (its watch is not left armed): the
// browser's own, as they are once the start-up watch settled.
const pageRestored = "[setTimeout, fetch, requestAnimationFrame].map(" + isNativeJS + ").join()"

// The action's watch is armed in the round trip that finds and checks its
// target. Each action here starts work that renders later (a fetch, a
// timer): the answer comes after it rendered, so the watch saw the
// action's work, and each handler ran once.
func TestActionWatchArmedWithTheCheck(t *testing.T) {
	p := openStore(t)
	ctx := testCtx(t)
	out := func() string { return js(t, p, "out.textContent") }

	click(t, p, Target{Selector: "#add"}, ClickOptions{})
	if got := out(); got != `"added at $59"` || js(t, p, "cart.textContent") != `"1"` {
		t.Errorf("click by selector: out = %s, cart = %s", got, js(t, p, "cart.textContent"))
	}
	click(t, p, Target{Text: "Add to cart"}, ClickOptions{})
	s, err := p.Snapshot(ctx, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	js(t, p, "out.textContent = ''")
	click(t, p, Target{Ref: refOf(t, s.YAML, `button "Add to cart"`)}, ClickOptions{})
	if got := out(); got != `"added at $59"` {
		t.Errorf("click by ref: out = %s", got)
	}
	if _, err := p.Fill(ctx, Target{Label: "Coupon"}, "SPRING", FillOptions{Clear: true}); err != nil {
		t.Fatal(err)
	}
	if got := out(); got != `"coupon SPRING"` {
		t.Errorf("fill by label: out = %s", got)
	}
	label := "42"
	if _, err := p.SelectOption(ctx, Target{Selector: "#size"}, []SelectWant{{Label: &label}}, ActionOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := out(); got != `"size 42 $59"` {
		t.Errorf("select: out = %s", got)
	}
	if got := js(t, p, "JSON.stringify(runs)"); got != `"{\"add\":3,\"late\":0,\"under\":0,\"coupon\":1,\"size\":1}"` {
		t.Errorf("handler runs = %s, want add 3 (one per click), coupon 1 (one input: the text goes in at once), size 1", got)
	}
	if got := js(t, p, pageRestored); got != `"true,true,true"` {
		t.Errorf("page functions after the actions = %s", got)
	}
}

// A target the page shows only later is waited for: the watch armed with
// the first check (which found it hidden) is put back, and the click that
// follows is watched on its own — its fetch rendered, its handler ran once.
func TestActionWatchOnALateTarget(t *testing.T) {
	p := openStore(t)
	js(t, p, "setTimeout(() => { document.getElementById('late').hidden = false }, 300)")
	click(t, p, Target{Selector: "#late"}, ClickOptions{})
	if got := js(t, p, "[runs.late, out.textContent].join()"); got != `"1,late $59"` {
		t.Errorf("late target: runs, out = %s", got)
	}
	if got := js(t, p, pageRestored); got != `"true,true,true"` {
		t.Errorf("page functions after a late target = %s", got)
	}
}

// An action that fails before it acts leaves no watch armed: the page's
// functions are back and no handler ran.
func TestActionWatchPutBackWhenTheActionFails(t *testing.T) {
	p := openStore(t)
	ctx := testCtx(t)
	short := ActionOptions{Timeout: 400 * time.Millisecond}
	if _, err := p.Click(ctx, Target{Selector: "#missing"}, ClickOptions{ActionOptions: short}); KindOf(err) != KindElementNotFound {
		t.Errorf("missing target: %v", err)
	}
	if _, err := p.Click(ctx, Target{Text: "Save"}, ClickOptions{ActionOptions: short}); KindOf(err) != KindAmbiguousTarget {
		t.Errorf("ambiguous target: %v", err)
	}
	js(t, p, "modal.hidden = false")
	if _, err := p.Click(ctx, Target{Selector: "#under"}, ClickOptions{ActionOptions: short}); KindOf(err) != KindElementIntercepted {
		t.Errorf("target under a modal: %v", err)
	}
	if _, err := p.Fill(ctx, Target{Selector: "#cart"}, "x", FillOptions{ActionOptions: short}); KindOf(err) != KindElementNotEditable {
		t.Errorf("fill a non-field: %v", err)
	}
	if got := js(t, p, "JSON.stringify(runs)"); got != `"{\"add\":0,\"late\":0,\"under\":0,\"coupon\":0,\"size\":0}"` {
		t.Errorf("handler runs after failed actions = %s", got)
	}
	if got := js(t, p, pageRestored); got != `"true,true,true"` {
		t.Errorf("page functions after failed actions = %s", got)
	}
}

// The store embedded below the fold of a portal, once from its own site
// (an out-of-process iframe) and once from the portal's: a click by a ref
// of the portal's snapshot acts in the frame, is watched there (its fetch
// rendered when the answer came) and runs its handler once.
func TestActionWatchInFrames(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Fatalf("listen on 127.0.0.2: %v", err)
	}
	other := httptest.NewUnstartedServer(storeHandler(storePage))
	other.Listener.Close()
	other.Listener = ln
	other.Start()
	t.Cleanup(other.Close)
	portal := `<!doctype html><title>Portal</title><h1>Portal</h1><section style="height: 1200px">News</section>
<iframe name="far" title="Partner store" src="` + other.URL + `/store.html" style="width: 600px; height: 500px"></iframe>
<iframe name="near" title="Our store" src="store.html" style="width: 600px; height: 500px"></iframe>`
	base := browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/portal.html" {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte(portal))
			return
		}
		storeHandler(storePage).ServeHTTP(w, r)
	}))
	p := openTestTab(t)
	ctx := testCtx(t)
	if _, err := p.Navigate(ctx, base+"portal.html", WaitLoad); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"far", "near"} {
		s, err := p.Snapshot(ctx, SnapshotOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ref := refInFrame(t, s.YAML, name, `button "Add to cart"`)
		click(t, p, Target{Ref: ref}, ClickOptions{})
		if _, _, err := p.Frames().Switch(ctx, FrameSpec{Name: name}); err != nil {
			t.Fatal(err)
		}
		if got := js(t, p, "[runs.add, out.textContent, cart.textContent].join()"); got != `"1,added at $59,1"` {
			t.Errorf("click in frame %s: runs, out, cart = %s", name, got)
		}
		if got := js(t, p, pageRestored); got != `"true,true,true"` {
			t.Errorf("page functions in frame %s = %s", name, got)
		}
		p.Frames().Switch(ctx, FrameSpec{Top: true})
	}
}

// refInFrame returns the ref of the line holding needle under the iframe
// line that names title's frame (by its order: far first, near second).
func refInFrame(t *testing.T, yaml, frame, needle string) string {
	t.Helper()
	title := map[string]string{"far": "Partner store", "near": "Our store"}[frame]
	i := strings.Index(yaml, title)
	if i < 0 {
		t.Fatalf("no frame %q in:\n%s", title, yaml)
	}
	return refOf(t, yaml[i:], needle)
}
