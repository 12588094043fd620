package runtime

import (
	"net/http"
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
			text = strings.Join(out.Changes.Text, "\n")
		}
		if !strings.Contains(text, "in cart") || !strings.Contains(text, "Added: socks") {
			t.Errorf("%s: changes = %s", capture, jsonString(out.Changes))
		}
	}
}
