package runtime

// What an answer's changes cover: shadow roots, frames, and not a diff
// across documents.

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// counterPage has web components: a cart widget whose button changes the
// text in its own shadow tree, nested inside a page shell component.
const counterPage = `<!doctype html><title>Widgets</title><main><h1>Widgets</h1><app-shell></app-shell></main>
<script>
customElements.define('cart-widget', class extends HTMLElement {
  constructor() {
    super();
    const root = this.attachShadow({mode: 'open'});
    root.innerHTML = '<p class="count">Cart is empty</p><button>Add item</button>';
    let n = 0;
    root.querySelector('button').addEventListener('click', () => {
      n++;
      root.querySelector('.count').textContent = n + ' item in cart';
      const li = document.createElement('p');
      li.textContent = 'Added: socks';
      root.append(li);
    });
  }
});
customElements.define('app-shell', class extends HTMLElement {
  constructor() {
    super();
    this.attachShadow({mode: 'open'}).innerHTML = '<section><h2>Shop</h2><cart-widget></cart-widget></section>';
  }
});
</script>`

// A click inside nested open shadow roots reports what it changed there:
// the answer's changes name the new text (before, the change log watched
// the document only, and the answer had no changes at all).
func TestClickInShadowRootReportsItsChanges(t *testing.T) {
	base := browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(counterPage))
	}))
	open := runJSON(t, `{"steps":[{"openTab":"`+base+`widgets.html"}]}`)
	mustOK(t, open)
	closeTabAfter(t, open)
	for _, capture := range []string{"compact", "full"} {
		out := runJSON(t, `{"tab":"`+open.Tab+`","capture":"`+capture+`","steps":[{"click":{"text":"Add item"}}]}`)
		mustOK(t, out)
		text := ""
		if out.Changes != nil {
			text = newsLines(out.Changes)
		}
		if !strings.Contains(text, "in cart") || !strings.Contains(text, "Added: socks") {
			t.Errorf("%s: changes = %s", capture, jsonString(out.Changes))
		}
	}
}

// A click inside a frame, same-site or cross-site (by a ref of the top
// snapshot), reports the text it changed there: the capture runs in the
// top document, and reads the log of the frame the action ran in too.
func TestClickInFrameReportsItsTextChanges(t *testing.T) {
	inner := `<!doctype html><title>Inner</title><p id="s">Nothing saved</p>
<button onclick="document.getElementById('s').textContent = 'Saved draft'">Save draft</button>`
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(inner))
	})
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Fatalf("listen on 127.0.0.2: %v", err)
	}
	other := httptest.NewUnstartedServer(handler)
	other.Listener.Close()
	other.Listener = ln
	other.Start()
	t.Cleanup(other.Close)
	base := browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/inner.html" {
			handler.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!doctype html><title>Editor</title><h1>Editor</h1>
<iframe title="Local editor" src="inner.html" width="400" height="120"></iframe>
<iframe title="Remote editor" src="` + other.URL + `/inner.html" width="400" height="120"></iframe>`))
	}))
	open := runJSON(t, `{"steps":[{"openTab":"`+base+`editor.html"},{"wait":{"selector":"iframe"}}]}`)
	mustOK(t, open)
	closeTabAfter(t, open)
	for _, frame := range []string{"Local editor", "Remote editor"} {
		snap := runJSON(t, `{"tab":"`+open.Tab+`","steps":[{"snapshot":true}]}`)
		mustOK(t, snap)
		yaml := jsonString(snap.Steps[0].Output)
		i := strings.Index(yaml, frame)
		if i < 0 {
			t.Fatalf("no frame %q in the snapshot: %s", frame, yaml)
		}
		rest := yaml[i:]
		j := strings.Index(rest, `button \"Save draft\" [ref=`)
		if j < 0 {
			t.Fatalf("no Save draft button in frame %q: %s", frame, rest)
		}
		ref := rest[j+len(`button \"Save draft\" [ref=`):]
		ref = ref[:strings.Index(ref, "]")]
		out := runJSON(t, `{"tab":"`+open.Tab+`","capture":"compact","steps":[{"click":"`+ref+`"}]}`)
		mustOK(t, out)
		if out.Changes == nil || !strings.Contains(newsLines(out.Changes), "Saved draft") {
			t.Errorf("click in %s: changes = %s", frame, jsonString(out.Changes))
		}
	}
}

// A click that reloads the page answers with the reloaded page and no
// diff: the same URL, but another document, whose elements are all new
// (before, the answer listed every element as removed and added again).
// The summary says the page reloaded (before, nothing did).
func TestReloadingClickHasNoDiff(t *testing.T) {
	base := browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!doctype html><title>Inbox</title><main><h1>Inbox</h1><nav><a href="#a">All</a> <a href="#b">Unread</a></nav>
<button onclick="location.reload()">Refresh</button><input aria-label="Search"></main>`))
	}))
	open := runJSON(t, `{"steps":[{"openTab":"`+base+`inbox.html"}]}`)
	mustOK(t, open)
	closeTabAfter(t, open)
	out := runJSON(t, `{"tab":"`+open.Tab+`","capture":"compact","steps":[{"click":{"text":"Refresh"}}]}`)
	mustOK(t, out)
	if ch := out.Changes; ch == nil || !strings.HasPrefix(ch.Summary, "Clicked. The page reloaded") || len(ch.Added)+len(ch.Removed)+len(ch.Changed)+len(ch.Text) > 0 || !strings.Contains(out.ViewportSnap, "Refresh") {
		t.Errorf("a reload: changes = %s, snapshot = %q", jsonString(out.Changes), out.ViewportSnap)
	}
}
