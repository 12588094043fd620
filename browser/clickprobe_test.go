package browser

import (
	"strings"
	"testing"
)

// TestClickProbeSeesEveryWayTheClickArrives: the press probe counts any
// event of the click that reaches the element, so a click the page
// received is never followed by a JavaScript click that would run its
// handler a second time — through a closed shadow root (window's
// listeners cannot see into it), and on a page that stops pointerdown and
// mousedown at window.
func TestClickProbeSeesEveryWayTheClickArrives(t *testing.T) {
	p := loadHTML(t, `<main><h1>Shop</h1>
<x-counter id="c1"></x-counter>
<button id="buy" onclick="window.buys = (window.buys || 0) + 1">Buy</button>
</main>
<script>
customElements.define('x-counter', class extends HTMLElement {
  constructor() {
    super();
    const root = this.attachShadow({mode: 'closed'});
    root.innerHTML = '<button>Add one</button>';
    root.querySelector('button').addEventListener('click', () => { window.adds = (window.adds || 0) + 1; });
  }
});
</script>`)
	ctx := testCtx(t)
	s, err := p.Snapshot(ctx, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Click(ctx, Target{Ref: refOf(t, s.YAML, `button "Add one"`)}, ClickOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := js(t, p, "window.adds"); got != "1" || res.Method != "cdp" {
		t.Fatalf("a button in a closed shadow root: handler ran %s times, method %s (%v)", got, res.Method, res.Warnings)
	}
	js(t, p, `['pointerdown', 'mousedown'].forEach((type) => window.addEventListener(type, (e) => e.stopImmediatePropagation(), true))`)
	res, err = p.Click(ctx, Target{Ref: refOf(t, s.YAML, `button "Buy"`)}, ClickOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := js(t, p, "window.buys"); got != "1" || res.Method != "cdp" {
		t.Fatalf("a page that stops the press at window: handler ran %s times, method %s (%v)", got, res.Method, res.Warnings)
	}
}

// TestPressWithoutAClickIsSaid: a button that jumps away when pressed gets
// the press but not the click (the release lands elsewhere). The answer
// says so, and nothing clicks it a second time.
func TestPressWithoutAClickIsSaid(t *testing.T) {
	p := loadHTML(t, `<main><h1>Jumpy</h1>
<button id="b" onmousedown="window.downs = (window.downs || 0) + 1; this.style.position = 'relative'; this.style.left = '300px'" onclick="window.clicks = (window.clicks || 0) + 1">Jump</button>
</main>`)
	ctx := testCtx(t)
	res, err := p.Click(ctx, Target{Selector: "#b"}, ClickOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := js(t, p, "[window.downs, window.clicks || 0]"); got != "[1,0]" {
		t.Fatalf("downs and clicks = %s (%v)", got, res.Warnings)
	}
	if !strings.Contains(strings.Join(res.Warnings, " "), "no click event fired") {
		t.Fatalf("a press without a click reported no warning: %+v", res)
	}
}
