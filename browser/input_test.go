package browser

import (
	"strings"
	"testing"
)

// TestTypeHonoursCancelledKeydown types into fields whose keydown handlers
// refuse some keys, as real sites filter input: a cancelled keydown
// suppresses its character (one keydown carrying the text, no separate
// char event), and every accepted key fires one input event.
func TestTypeHonoursCancelledKeydown(t *testing.T) {
	p, _ := openFixture(t, "keys.html")
	ctx := testCtx(t)
	if _, err := p.Type(ctx, Target{Label: "Name on card"}, "Ann3 Lee7", TypeOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Type(ctx, Target{Label: "Quantity"}, "1x2", TypeOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Type(ctx, Target{Label: "Notes"}, "Leave\nat door", TypeOptions{}); err != nil {
		t.Fatal(err)
	}
	got := js(t, p, `[document.getElementById('name').value, document.getElementById('qty').value, document.getElementById('notes').value, window.inputs]`)
	if want := `["Ann Lee","12","Leave\nat door",{"name":7,"qty":2,"notes":13}]`; got != want {
		t.Fatalf("page state = %s, want %s", got, want)
	}
	// One keydown and, for printing keys not cancelled, one keypress per
	// character; the capital A carries Shift.
	log := js(t, p, `window.log.slice(0, 6).join(' ')`)
	if want := `"down:A:0:shift press:A down:n:0 press:n down:n:0 press:n"`; log != want {
		t.Fatalf("events = %s, want %s", log, want)
	}
	if n := js(t, p, `window.log.filter((e) => e === 'down:3:0' || e === 'press:3').length`); n != "1" {
		t.Fatalf("the cancelled 3: %s events, want its keydown only", n)
	}
}

// TestPressModifierLocation: modifier keys report their side in
// KeyboardEvent.location (left 1, right 2), numpad keys 3.
func TestPressModifierLocation(t *testing.T) {
	p, _ := openFixture(t, "keys.html")
	ctx := testCtx(t)
	for _, k := range []string{"Control+a", "Shift+Tab", "ShiftRight", "ControlRight", "AltLeft", "Numpad5", "Enter"} {
		combo, err := p.Input().ParseKeys(k)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.PressKeys(ctx, Target{Selector: "#notes"}, combo, 1); err != nil {
			t.Fatalf("press %s: %v", k, err)
		}
	}
	got := js(t, p, `window.log.filter((e) => e.startsWith('down:')).join(' ')`)
	for _, want := range []string{"down:Control:1", "down:a:0", "down:Shift:1", "down:Tab:0:shift", "down:Shift:2:shift", "down:Control:2", "down:Alt:1", "down:5:3", "down:Enter:0"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in %s", want, got)
		}
	}
}

// TestClickMovesThePointerBeforeThePress: the move is sent together with
// the press (so it does not wait for a frame), and the page still sees a
// user's order — the pointer arrives, then presses, releases and clicks —
// once each.
func TestClickMovesThePointerBeforeThePress(t *testing.T) {
	p := loadHTML(t, `<!doctype html><main><button id="b">Save</button></main><script>
window.order = [];
const b = document.getElementById('b');
for (const type of ['pointerover', 'mouseover', 'pointermove', 'mousemove', 'pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click'])
  b.addEventListener(type, () => { if (window.order[window.order.length - 1] !== type) window.order.push(type); });
</script>`)
	click(t, p, Target{Selector: "#b"}, ClickOptions{})
	if got := js(t, p, "window.order.join(' ')"); got != `"pointerover mouseover pointermove mousemove pointerdown mousedown pointerup mouseup click"` {
		t.Fatalf("events: %s", got)
	}
}

// TestControlOrMetaSelectsAll presses ControlOrMeta+a in a field on
// Linux, where it is Control: the page sees Control held with a (select
// all), and the key combo is read without blocking on the page's lock
// while the platform is looked up.
func TestControlOrMetaSelectsAll(t *testing.T) {
	p := loadHTML(t, `<!doctype html><input id="f" value="hello"><script>
window.keys = [];
document.getElementById('f').addEventListener('keydown', (e) => window.keys.push(e.key + ':' + e.ctrlKey + ':' + e.metaKey));
</script>`)
	ctx := testCtx(t)
	combo, err := p.Input().ParseKeys("ControlOrMeta+a")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.PressKeys(ctx, Target{Selector: "#f"}, combo, 1); err != nil {
		t.Fatal(err)
	}
	got := js(t, p, `[window.keys.join(' '), document.getElementById('f').selectionStart, document.getElementById('f').selectionEnd]`)
	if want := `["Control:true:false a:true:false",0,5]`; got != want {
		t.Fatalf("keys and selection = %s, want %s", got, want)
	}
}
