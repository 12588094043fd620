package browser

import (
	"strings"
	"testing"
	"time"
)

func fill(t *testing.T, p *Page, tg Target, v string, o FillOptions) *FillResult {
	t.Helper()
	res, err := p.Fill(testCtx(t), tg, v, o)
	if err != nil {
		t.Fatalf("fill %s: %v", tg, err)
	}
	return res
}

func TestFillVerifiesAndReadsBack(t *testing.T) {
	p, _ := openFixture(t, "form.html")
	res := fill(t, p, Target{Selector: "#email"}, "ann@example.com", FillOptions{Clear: true})
	if res.Method != "insertText" || res.Verified == nil || !*res.Verified || js(t, p, "document.getElementById('email').value") != `"ann@example.com"` {
		t.Fatalf("fill: %+v", res)
	}
	fill(t, p, Target{Label: "Email address"}, "bob@example.com", FillOptions{Clear: true})
	fill(t, p, Target{Label: "Password"}, "s3cret!", FillOptions{Clear: true})
	fill(t, p, Target{Label: "Search box"}, "shoes", FillOptions{Clear: true})
	fill(t, p, Target{Label: "Your city"}, "Oslo", FillOptions{Clear: true})
	got := js(t, p, "['email','pw','search','ph'].map(id => document.getElementById(id).value)")
	if got != `["bob@example.com","s3cret!","shoes","Oslo"]` {
		t.Fatalf("label fills = %s", got)
	}
	fill(t, p, Target{Selector: "#ta"}, " more", FillOptions{Clear: false})
	fill(t, p, Target{Selector: "#ce"}, "new text", FillOptions{Clear: true})
	if got := js(t, p, "[document.getElementById('ta').value, document.getElementById('ce').textContent]"); got != `["old more","new text"]` {
		t.Fatalf("append/contenteditable = %s", got)
	}
}

func TestFillReactControlledInput(t *testing.T) {
	p, _ := openFixture(t, "form.html")
	res := fill(t, p, Target{Label: "React name"}, "Grace", FillOptions{Clear: true})
	// React's own state (not only the DOM value) must hold the text.
	if got := js(t, p, "window.reactState"); got != `"Grace"` || *res.Verified != true {
		t.Fatalf("react state = %s (%+v)", got, res)
	}
	fill(t, p, Target{Label: "React name"}, "Ada", FillOptions{Clear: true, React: true})
	if got := js(t, p, "window.reactState"); got != `"Ada"` {
		t.Fatalf("react mode state = %s", got)
	}
}

func TestFillSpecialFields(t *testing.T) {
	p, _ := openFixture(t, "form.html")
	fill(t, p, Target{Selector: "#phone"}, "5551234567", FillOptions{Clear: true})
	if got := js(t, p, "document.getElementById('phone').value"); got != `"(555) 123-4567"` {
		t.Fatalf("masked phone = %s", got)
	}
	res := fill(t, p, Target{Selector: "#date"}, "2026-11-25", FillOptions{Clear: true})
	if res.Method != "setter" || js(t, p, "document.getElementById('date').value") != `"2026-11-25"` {
		t.Fatalf("date: %+v", res)
	}
	res = fill(t, p, Target{Selector: "#sel"}, "Pro", FillOptions{Clear: true})
	if res.Method != "select" || js(t, p, "window.planChanged") != `"pro"` {
		t.Fatalf("select via fill: %+v", res)
	}
	_, err := p.Fill(testCtx(t), Target{Selector: "#short"}, "abcdef", FillOptions{Clear: true})
	if KindOf(err) != KindElementNotEditable || !strings.Contains(err.Error(), "at most 3 characters") {
		t.Fatalf("maxlength: %v", err)
	}
	_, err = p.Fill(testCtx(t), Target{Selector: "#cb"}, "x", FillOptions{Clear: true})
	if KindOf(err) != KindElementNotEditable || !strings.Contains(err.Error(), "checkbox") {
		t.Fatalf("checkbox: %v", err)
	}
	_, err = p.Fill(testCtx(t), Target{Selector: "#ro"}, "x", FillOptions{Clear: true, ActionOptions: ActionOptions{Timeout: 300e6}})
	if err == nil || js(t, p, "document.getElementById('ro').value") != `"fixed"` {
		t.Fatalf("readonly: %v", err)
	}
}

func TestFillPasswordNeverEchoed(t *testing.T) {
	p, _ := openFixture(t, "form.html")
	js(t, p, `document.getElementById('pw').addEventListener('input', (e) => { e.target.value = e.target.value.slice(0, 3); })`)
	_, err := p.Fill(testCtx(t), Target{Selector: "#pw"}, "hunter22", FillOptions{Clear: true})
	if err == nil || strings.Contains(err.Error(), "hun") {
		t.Fatalf("password error leaks the value: %v", err)
	}
}

func TestTypeAndPress(t *testing.T) {
	p, _ := openFixture(t, "form.html")
	ctx := testCtx(t)
	res, err := p.Type(ctx, Target{Selector: "#keys"}, "héllo", TypeOptions{})
	if err != nil || res.Verified == nil || !*res.Verified {
		t.Fatalf("type: %+v %v", res, err)
	}
	if got := js(t, p, "[document.getElementById('keys').value, window.downs >= 4]"); got != `["h\u00e9llo",true]` {
		t.Fatalf("typed = %s", got)
	}
	combo, _ := p.Input().ParseKeys("Control+a")
	if _, err := p.PressKeys(ctx, Target{Selector: "#keys"}, combo, 1); err != nil {
		t.Fatal(err)
	}
	bs, _ := p.Input().ParseKeys("Backspace")
	p.PressKeys(ctx, Target{}, bs, 1)
	if got := js(t, p, "document.getElementById('keys').value"); got != `""` {
		t.Fatalf("select-all + backspace left %s", got)
	}
	fill(t, p, Target{Selector: "#email"}, "x@y.z", FillOptions{Clear: true})
	enter, _ := p.Input().ParseKeys("Enter")
	if _, err := p.PressKeys(ctx, Target{Selector: "#email"}, enter, 1); err != nil {
		t.Fatal(err)
	}
	if got := js(t, p, "window.submitted"); got != `"x@y.z"` {
		t.Fatalf("Enter did not submit: %s", got)
	}
	unknown, _ := p.Input().ParseKeys("Entr")
	if !unknown.Unknown || SuggestKey("Entr") != "Enter" {
		t.Errorf("unknown key: %+v suggest %q", unknown, SuggestKey("Entr"))
	}
	if _, err := p.Input().ParseKeys("Hyperr+a"); KindOf(err) != KindStepValidation {
		t.Errorf("bad modifier: %v", err)
	}
}

// profileForm is an account page that saves each field when it changes
// (onchange autosave), counting the saves per field: a name, a bio
// textarea, an email inside a web component's shadow root, and a form the
// Enter key submits.
const profileForm = `<!doctype html><title>Profile</title><header><h1>Account</h1></header><main>
<form id="f" onsubmit="event.preventDefault(); window.submits = (window.submits || 0) + 1">
<label>Name <input id="name" onchange="save(this)"></label>
<label>Bio <textarea id="bio" onchange="save(this)"></textarea></label>
<contact-card></contact-card>
<button>Save profile</button></form>
<label>Quick add <input id="quick" onchange="const el = this; window.items = (window.items || []).concat(el.value); setTimeout(() => el.value = '', 50)"></label>
<button id="elsewhere">Help</button></main>
<script>window.saves = {};
function save(el) { window.saves[el.id] = (window.saves[el.id] || 0) + 1; window.last = el.value; }
customElements.define('contact-card', class extends HTMLElement { connectedCallback() {
  const r = this.attachShadow({mode: 'open'});
  r.innerHTML = '<label>Email <input id="email"></label>';
  r.getElementById('email').addEventListener('change', (e) => save(e.target));
} });</script>`

// TestFillChangesOnce: a page hears one change event per fill, as from a
// user's edit, also once the field loses focus (the browser's own change
// is held back while the field holds what the fill put in): in an input,
// a textarea and a field inside a shadow root, for a fill followed by a
// click elsewhere, by another fill of the same field, by keys typed after
// it, and by Enter submitting the form; once the field lost focus, the
// same text typed again is heard.
func TestFillChangesOnce(t *testing.T) {
	p := loadHTML(t, profileForm)
	ctx := testCtx(t)
	click := func(sel string) {
		t.Helper()
		if _, err := p.Click(ctx, Target{Selector: sel}, ClickOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	fill(t, p, Target{Label: "Name"}, "Ann", FillOptions{Clear: true})
	fill(t, p, Target{Label: "Bio"}, "Gardener", FillOptions{Clear: true})
	fill(t, p, Target{Label: "Email"}, "ann@example.com", FillOptions{Clear: true})
	click("#elsewhere")
	if got := js(t, p, "JSON.stringify(window.saves)"); got != `"{\"name\":1,\"bio\":1,\"email\":1}"` {
		t.Errorf("one fill each, then a click elsewhere: saves %s", got)
	}
	// Two fills of one field: two edits, two changes, the last value saved.
	fill(t, p, Target{Label: "Name"}, "Bea", FillOptions{Clear: true})
	fill(t, p, Target{Label: "Name"}, "Cleo", FillOptions{Clear: true})
	click("#elsewhere")
	if got := js(t, p, "[window.saves.name, window.last]"); got != `[3,"Cleo"]` {
		t.Errorf("two fills of the name, then a click elsewhere: %s", got)
	}
	// Keys typed after the fill change the value again: the browser's own
	// change on leaving the field is news, and the page hears it.
	fill(t, p, Target{Label: "Name"}, "Dee", FillOptions{Clear: true})
	if _, err := p.Type(ctx, Target{Label: "Name"}, " Lee", TypeOptions{}); err != nil {
		t.Fatal(err)
	}
	click("#elsewhere")
	if got := js(t, p, "[window.saves.name, window.last]"); got != `[5,"Dee Lee"]` {
		t.Errorf("a fill, keys after it, then a click elsewhere: %s", got)
	}
	// A quick-add field the page clears a moment after its change: a fill
	// adds one item;
	// the same text typed again later is a new edit and adds another.
	fill(t, p, Target{Label: "Quick add"}, "milk", FillOptions{Clear: true})
	for deadline := time.Now().Add(5 * time.Second); js(t, p, "document.getElementById('quick').value") != `""` && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	click("#elsewhere")
	if _, err := p.Type(ctx, Target{Label: "Quick add"}, "milk", TypeOptions{}); err != nil {
		t.Fatal(err)
	}
	click("#elsewhere")
	if got := js(t, p, "window.items"); got != `["milk","milk"]` {
		t.Errorf("a fill, then the same text typed after the page cleared the field: items %s", got)
	}
	// Enter submits the form: once, and the name changes once.
	fill(t, p, Target{Label: "Name"}, "Eve", FillOptions{Clear: true})
	enter, _ := p.Input().ParseKeys("Enter")
	if _, err := p.PressKeys(ctx, Target{Label: "Name"}, enter, 1); err != nil {
		t.Fatal(err)
	}
	click("#elsewhere")
	if got := js(t, p, "[window.saves.name, window.submits]"); got != `[6,1]` {
		t.Errorf("a fill, then Enter: [name saves, submits] = %s", got)
	}
}
