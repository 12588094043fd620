package browsertest

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// FrameSite is a two-site fixture: the top page is served on 127.0.0.1 and
// the framed pages on 127.0.0.2, a different site, so Chromium (site per
// process) runs them in their own renderer as out-of-process iframes.
type FrameSite struct {
	Top   string // base URL on 127.0.0.1, ending in a slash
	Cross string // base URL on 127.0.0.2, ending in a slash

	mu          sync.Mutex
	submissions []string
}

// Submissions returns the form posts the cross site received.
func (s *FrameSite) Submissions() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.submissions...)
}

const frameFormPage = `<!doctype html><title>Checkout form</title><body>
<form id="f" method="post" action="/submit">
<label>Full name <input name="name"></label>
<label>Country <select name="country"><option>France</option><option>Japan</option><option>Peru</option></select></label>
<label><input type="checkbox" name="terms" value="yes"> I accept the terms</label>
<button type="button" id="count" onclick="this.dataset.n = (+this.dataset.n || 0) + 1; this.textContent = 'Counted ' + this.dataset.n">Count me</button>
<label>Receipt <input type="file" name="receipt"></label>
<button type="button" id="help" onmouseover="this.dataset.hovers = (+this.dataset.hovers || 0) + 1">Help</button>
<button type="submit">Place order</button>
</form></body>`

const frameOuterPage = `<!doctype html><title>Partner widget</title><body style="margin: 8px">
<h1>Partner</h1>
<ul id="list">
<li draggable="true" tabindex="0" id="a" style="padding: 8px; background: #eee">Alpha</li>
<li draggable="true" tabindex="0" id="b" style="padding: 8px; background: #ddd">Bravo</li>
<li id="bin" tabindex="0" style="padding: 20px; background: #ccf">Drop here</li>
</ul>
<script>
let dragged = null;
for (const li of document.querySelectorAll('[draggable]')) li.addEventListener('dragstart', (e) => { dragged = li.id; e.dataTransfer.setData('text/plain', li.id); });
const bin = document.getElementById('bin');
bin.addEventListener('dragover', (e) => e.preventDefault());
bin.addEventListener('drop', (e) => { e.preventDefault(); window.drops = (window.drops || []).concat(e.dataTransfer.getData('text/plain')); bin.textContent = 'Dropped ' + window.drops.join(','); });
</script>
<iframe id="inner" name="checkout" title="Checkout" src="/form.html" style="width: 600px; height: 220px"></iframe>
</body>`

const frameButtonPage = `<!doctype html><title>Tilted</title><body style="margin: 0">
<div style="height: 60px"></div>
<button id="t" style="margin-left: 300px; width: 80px; height: 30px" onclick="window.hits = (window.hits || 0) + 1; this.textContent = 'Tilted hit ' + window.hits">Tilted button</button>
</body>`

// NewFrameSite starts the two servers. The top page (index.html) holds a
// same-origin iframe, the cross-site partner frame (with its same-origin
// checkout form nested inside) and, lower down, a cross-site frame that is
// scaled and rotated holding one that is scaled again.
func NewFrameSite(t testing.TB) *FrameSite {
	s := &FrameSite{}
	s.Cross = ServeOn(t, "127.0.0.2", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/outer.html":
			w.Write([]byte(frameOuterPage))
		case "/form.html":
			w.Write([]byte(frameFormPage))
		case "/submit":
			r.ParseForm()
			s.mu.Lock()
			s.submissions = append(s.submissions, r.PostForm.Encode())
			s.mu.Unlock()
			w.Write([]byte(`<!doctype html><title>Thanks</title><p>Order placed</p>`))
		case "/tilt.html":
			w.Write([]byte(`<!doctype html><title>Tilt holder</title><body style="margin: 0">
<iframe id="tiltinner" src="/button.html" style="width: 400px; height: 160px; border: 3px solid #333; transform: scale(1.25); transform-origin: 0 0; margin: 10px"></iframe></body>`))
		case "/button.html":
			w.Write([]byte(frameButtonPage))
		case "/card.html":
			w.Write([]byte(frameCardPage(r.URL.Query().Get("n"))))
		default:
			http.NotFound(w, r)
		}
	}))
	s.Top = ServeOn(t, "127.0.0.1", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/index.html":
			fmt.Fprintf(w, `<!doctype html><title>Shop</title><main>
<h1>Shop</h1>
<button id="top" onclick="window.topHits = (window.topHits || 0) + 1">Top button</button>
<iframe id="same" title="Same" src="/same.html" style="width: 500px; height: 90px"></iframe>
<iframe id="partner" title="Partner" src="%souter.html" style="width: 700px; height: 520px"></iframe>
<div style="height: 700px"></div>
<iframe id="tilt" title="Tilt" src="%stilt.html" style="width: 560px; height: 260px; border: 0; transform: rotate(6deg) scale(0.6); transform-origin: 0 0"></iframe>
</main>
<script>addEventListener('mousedown', () => { window.topPresses = (window.topPresses || 0) + 1; }, true)</script>`, s.Cross, s.Cross)
		case "/same.html":
			w.Write([]byte(`<!doctype html><title>Same</title><body><p>Same-origin note</p><input aria-label="Same field"></body>`))
		case "/three.html":
			fmt.Fprintf(w, `<!doctype html><title>Three</title><main><h1>Three partners</h1>
<iframe src="%scard.html?n=1" style="width: 400px; height: 300px"></iframe>
<iframe src="%scard.html?n=2" style="width: 400px; height: 300px"></iframe>
<iframe src="%scard.html?n=3" style="width: 400px; height: 300px"></iframe></main>`, s.Cross, s.Cross, s.Cross)
		default:
			http.NotFound(w, r)
		}
	}))
	return s
}

// frameCardPage is a partner card of some thirty elements.
func frameCardPage(n string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<!doctype html><title>Card %s</title><body><h2>Card %s</h2><ul>`, n, n)
	for i := range 10 {
		fmt.Fprintf(&b, `<li><a href="#i%d">Item %s.%d</a> <button>Add %s.%d</button></li>`, i, n, i, n, i)
	}
	b.WriteString(`</ul><label>Coupon <input name="coupon"></label></body>`)
	return b.String()
}
