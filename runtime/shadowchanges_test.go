package runtime

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// storefrontPage is a shop built from web components, each with its own
// shadow root: a product card whose "Add to cart" button lives in the
// card's root, a cart badge in the header (another root) that the card
// updates, a toast region (a third root) that shows "Added!" for a
// moment, and a clock that ticks on its own every 5 ms.
const storefrontPage = `<!doctype html><title>Store</title>
<header><a href="/">Store</a> <cart-badge></cart-badge></header>
<main><h1>Socks</h1><live-clock></live-clock><product-card></product-card><toast-region></toast-region></main>
<script>
window.adds = 0;
customElements.define('cart-badge', class extends HTMLElement {
  constructor() { super(); this.attachShadow({mode: 'open'}).innerHTML = '<span role="status">Cart: 0 items</span>'; }
  set count(n) { this.shadowRoot.querySelector('span').textContent = 'Cart: ' + n + (n === 1 ? ' item' : ' items'); }
});
customElements.define('live-clock', class extends HTMLElement {
  constructor() {
    super(); this.attachShadow({mode: 'open'}).innerHTML = '<span>Clock 0</span>';
    let n = 0; setInterval(() => { this.shadowRoot.querySelector('span').textContent = 'Clock ' + (++n); }, 5);
  }
});
customElements.define('toast-region', class extends HTMLElement {
  constructor() { super(); this.attachShadow({mode: 'open'}).innerHTML = '<div class="toasts"></div>'; }
  show(text) {
    const t = document.createElement('div'); t.textContent = text;
    this.shadowRoot.querySelector('.toasts').appendChild(t);
    setTimeout(() => t.remove(), 50);
  }
});
customElements.define('product-card', class extends HTMLElement {
  constructor() {
    super();
    this.attachShadow({mode: 'open'}).innerHTML = '<h2>Wool socks</h2><button>Add to cart</button>';
    this.shadowRoot.querySelector('button').addEventListener('click', () => {
      window.adds++;
      document.querySelector('cart-badge').count = window.adds;
      document.querySelector('toast-region').show('Added!');
    });
  }
});
</script>`

// TestChangesInOtherComponentsShadowRoots: a click in one web component
// that updates another's shadow tree (the cart badge) and shows a toast
// in a third reports both, as it would in the light DOM, and never the
// clock that ticks in a fourth; the handler ran once.
func TestChangesInOtherComponentsShadowRoots(t *testing.T) {
	base := browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, storefrontPage)
	}))
	for _, capture := range []string{"compact", "full"} {
		out := runJSON(t, `{"steps":[{"openTab":"`+base+`store.html"}]}`)
		mustOK(t, out)
		closeTabAfter(t, out)
		add := runJSON(t, `{"tab":"`+out.Tab+`","capture":"`+capture+`","steps":[{"click":{"text":"Add to cart"}}]}`)
		mustOK(t, add)
		news := jsonString(add.Changes)
		if strings.Contains(news, "Clock") {
			t.Errorf("%s: the ticking clock is in the changes: %s", capture, news)
		}
		if add.Changes == nil || !strings.Contains(newsLines(add.Changes), "Cart: 1 item") {
			t.Errorf("%s: the badge's new count is not reported: %s", capture, news)
		}
		if add.Changes == nil || len(add.Changes.Transient) != 1 || add.Changes.Transient[0] != "Added!" {
			t.Errorf("%s: the toast is not transient: %s", capture, news)
		}
		read := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"pageFunction":"window.adds"}]}`)
		if got := jsonString(read.Steps[0].Output); got != "1" {
			t.Errorf("%s: the card's handler ran %s times", capture, got)
		}
	}
}
