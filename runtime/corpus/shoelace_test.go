package corpus

import "testing"

// Shoelace's controls live in shadow roots; the snapshot pierces them and
// refs reach inside.

// TestShoelaceSelect opens an sl-select by its ref and picks an sl-option
// by the ref in the click's answer: the element's value changes.
func TestShoelaceSelect(t *testing.T) {
	t.Parallel()
	a := openPage(t, "shoelace.html", "[data-ready=shoelace]")
	box := refIn(t, a.snapshot(), `combobox "Theme"`)
	dark := refIn(t, a.look(`{"click":`+q(box)+`}`, `{"wait":"#theme[open]"}`), `option "Dark"`)
	a.do(`{"click":` + q(dark) + `}`)
	a.waitFor(`() => document.getElementById('theme').value === 'dark'`)
	if got := a.evalJSON(`() => document.getElementById('theme').open`); got != `false` {
		t.Errorf("the select is still open: %s", got)
	}
}

// TestShoelaceCheckbox checks an sl-checkbox by its ref.
func TestShoelaceCheckbox(t *testing.T) {
	t.Parallel()
	a := openPage(t, "shoelace.html", "[data-ready=shoelace]")
	box := refIn(t, a.snapshot(), `checkbox "Email me a weekly digest"`)
	a.do(`{"check":` + q(box) + `}`)
	if got := a.evalJSON(`() => document.getElementById('digest').checked`); got != `true` {
		t.Fatalf("digest.checked = %s", got)
	}
}

// TestShoelaceSwitch turns an sl-switch on by clicking its ref.
func TestShoelaceSwitch(t *testing.T) {
	t.Parallel()
	a := openPage(t, "shoelace.html", "[data-ready=shoelace]")
	sw := refIn(t, a.snapshot(), `switch "Beta features"`)
	a.do(`{"click":` + q(sw) + `}`)
	if got := a.evalJSON(`() => document.getElementById('beta').checked`); got != `true` {
		t.Fatalf("beta.checked = %s", got)
	}
}

// TestShoelaceDialog opens an sl-dialog and presses its Delete button by
// the ref in the click's answer: the handler runs once, the dialog closes.
func TestShoelaceDialog(t *testing.T) {
	t.Parallel()
	a := openPage(t, "shoelace.html", "[data-ready=shoelace]")
	open := refIn(t, a.snapshot(), `button "Delete account"`)
	del := refIn(t, a.look(`{"click":`+q(open)+`}`, `{"poll":"() => document.getElementById('confirm').open"}`), `button "Delete"`)
	a.do(`{"click":` + q(del) + `}`)
	a.waitFor(`() => !document.getElementById('confirm').open`)
	if got := a.evalJSON(`() => deletes`); got != `1` {
		t.Fatalf("deletes = %s, want 1", got)
	}
}

// TestShoelaceMenuCheckbox opens an sl-dropdown and checks a checkbox
// menu item (role menuitemcheckbox, aria-checked) by the ref in the
// click's answer: the item is checked and the other one unchanged.
func TestShoelaceMenuCheckbox(t *testing.T) {
	t.Parallel()
	a := openPage(t, "shoelace.html", "[data-ready=shoelace]")
	trigger := refIn(t, a.snapshot(), `button "View options"`)
	grid := refIn(t, a.look(`{"click":`+q(trigger)+`}`, `{"poll":"() => document.getElementById('view-menu').open"}`), `menuitemcheckbox "Show grid"`)
	a.do(`{"check":` + q(grid) + `}`)
	if got := a.evalJSON(`() => [document.getElementById('show-grid').checked, document.getElementById('show-rulers').checked]`); got != `[true,true]` {
		t.Fatalf("[grid, rulers] checked = %s", got)
	}
}
