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

// TestPressThatReRendersIsSaid: a button the page replaces when pressed (a
// framework re-rendering on mousedown) gets the press, and the click event
// fires nowhere: the page's click handler never runs. The answer says so
// (it said nothing before), and nothing clicks a second time.
func TestPressThatReRendersIsSaid(t *testing.T) {
	p := loadHTML(t, `<main><h1>Cart</h1><div id="root"></div></main>
<script>
window.clicks = 0; window.downs = 0;
function render(root) {
  root.innerHTML = '';
  const b = document.createElement('button');
  b.textContent = 'Save';
  b.addEventListener('mousedown', () => { window.downs++; render(root); });
  b.addEventListener('click', () => { window.clicks++; });
  root.appendChild(b);
}
render(document.getElementById('root'));
</script>`)
	ctx := testCtx(t)
	res, err := p.Click(ctx, Target{Text: "Save"}, ClickOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := js(t, p, "[window.downs, window.clicks]"); got != "[1,0]" {
		t.Fatalf("downs and clicks = %s (%v)", got, res.Warnings)
	}
	warned := strings.Join(res.Warnings, " ")
	if !strings.Contains(warned, "re-rendered the element when it was pressed") || !strings.Contains(warned, "click handlers did not run") {
		t.Fatalf("a press that re-rendered the button, with no click: warnings %q", res.Warnings)
	}
}

// TestPressThatActsIsNotDoubted: a menu that picks its item on mousedown
// (Choices.js does) removes or re-renders the pressed item, so no click
// event fires; the press did the page's work, and the answer must not
// send the agent to click again. The pick ran once. The press's handler
// takes it for its own (prevents its default), or leaves something else
// under the pointer (the menu closed), or re-renders the item in another
// state (now selected); in the document or in a shadow root. Its
// neighbours keep their warnings
// (TestPressThatReRendersIsSaid, TestPressWithoutAClickIsSaid).
func TestPressThatActsIsNotDoubted(t *testing.T) {
	for _, c := range []struct{ name, onPress, shadow string }{
		{"prevented", `e.preventDefault(); menu.remove();`, "false"},
		{"closed", `menu.remove();`, "false"},
		{"selected", `render(item.textContent);`, "false"},
		{"shadow/closed", `menu.remove();`, "true"},
		{"shadow/selected", `render(item.textContent);`, "true"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := loadHTML(t, `<main><h1>Ticket</h1>
<div id="box">Priority: <span id="value">Normal</span></div>
<div id="host"></div>
</main>
<script>
window.picks = [];
const host = document.getElementById('host');
const root = `+c.shadow+` ? host.attachShadow({mode: 'open'}) : host;
root.innerHTML = '<ul id="menu" role="listbox"></ul>';
const menu = root.querySelector('#menu');
function render(selected) {
  menu.innerHTML = ['Low', 'Urgent'].map((v) => '<li role="option" aria-selected="' + (v === selected) + '">' + v + '</li>').join('');
}
render('');
menu.addEventListener('mousedown', (e) => {
  const item = e.target.closest('[role=option]');
  if (!item) return;
  window.picks.push(item.textContent);
  document.getElementById('value').textContent = item.textContent;
  `+c.onPress+`
});
</script>`)
			ctx := testCtx(t)
			res, err := p.Click(ctx, Target{Text: "Urgent"}, ClickOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got := js(t, p, "[window.picks, document.getElementById('value').textContent]"); got != `[["Urgent"],"Urgent"]` || res.Method != "cdp" {
				t.Fatalf("[picks, value] = %s, method %s", got, res.Method)
			}
			if len(res.Warnings) > 0 {
				t.Fatalf("a press that picked the item is doubted: %q", res.Warnings)
			}
		})
	}
}
