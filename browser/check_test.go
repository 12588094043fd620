package browser

import (
	"strings"
	"testing"
	"time"
)

// TestCheckEveryCheckableRole checks and unchecks each kind of checkable
// control — native checkbox and radio, div[role=checkbox] (with and without
// an initial aria-checked, named from outside), role=radio, role=switch,
// menuitemcheckbox and menuitemradio, option and treeitem with
// aria-checked (one option starting without it, one marked by
// aria-selected only) — and reads the page's own state: each
// handler ran exactly once per change and never for a no-op.
func TestCheckEveryCheckableRole(t *testing.T) {
	p, _ := openFixture(t, "checkroles.html")
	cases := []struct {
		target Target
		id     string
		role   string
		// state reads the control's state in the page.
		state string
	}{
		{Target{Label: "Native box"}, "native", "checkbox", "document.getElementById('native').checked"},
		{Target{Text: "Email me"}, "emails", "checkbox", "document.getElementById('emails').getAttribute('aria-checked') === 'true'"},
		{Target{Selector: "#sms"}, "sms", "checkbox", "document.getElementById('sms').getAttribute('aria-checked') === 'true'"},
		{Target{Label: "Push alerts"}, "push", "checkbox", "document.getElementById('push').getAttribute('aria-checked') === 'true'"},
		{Target{Text: "Do not disturb"}, "dnd", "switch", "document.getElementById('dnd').getAttribute('aria-checked') === 'true'"},
		{Target{Text: "Word wrap"}, "wrap", "menuitemcheckbox", "document.getElementById('wrap').getAttribute('aria-checked') === 'true'"},
		{Target{Selector: "#olives"}, "olives", "option", "document.getElementById('olives').getAttribute('aria-checked') === 'true'"},
		{Target{Text: "Basil"}, "basil", "option", "document.getElementById('basil').getAttribute('aria-checked') === 'true'"},
		{Target{Text: "Large"}, "large", "option", "document.getElementById('large').getAttribute('aria-selected') === 'true'"},
		{Target{Selector: "#readme"}, "readme", "treeitem", "document.getElementById('readme').getAttribute('aria-checked') === 'true'"},
		{Target{Text: "LICENSE"}, "license", "treeitem", "document.getElementById('license').getAttribute('aria-checked') === 'true'"},
	}
	for _, c := range cases {
		res := setChecked(t, p, c.target, true)
		if !res.Changed || res.Role != c.role {
			t.Errorf("check %s: %+v, want changed with role %s", c.target, res, c.role)
		}
		if got := js(t, p, c.state); got != "true" {
			t.Errorf("check %s: page state %s", c.target, got)
		}
		// Already checked: a no-op that says so, no click.
		if res := setChecked(t, p, c.target, true); res.Changed || res.Method != "" {
			t.Errorf("check of a checked %s clicked it: %+v", c.target, res)
		}
		res = setChecked(t, p, c.target, false)
		if !res.Changed {
			t.Errorf("uncheck %s: %+v", c.target, res)
		}
		if got := js(t, p, c.state); got != "false" {
			t.Errorf("uncheck %s: page state %s", c.target, got)
		}
		if res := setChecked(t, p, c.target, false); res.Changed {
			t.Errorf("uncheck of an unchecked %s clicked it: %+v", c.target, res)
		}
		if got := js(t, p, "window.clicks['"+c.id+"']"); got != "2" {
			t.Errorf("%s: handler ran %s times for one check and one uncheck, want 2", c.target, got)
		}
	}
}

// TestCheckARIARadios checks ARIA and native radios: the group's own state
// moves, each handler runs once, a checked radio is a no-op, and
// unchecking a radio is refused without clicking.
func TestCheckARIARadios(t *testing.T) {
	p, _ := openFixture(t, "checkroles.html")
	ctx := testCtx(t)
	if res := setChecked(t, p, Target{Text: "Daily"}, true); res.Changed || res.Role != "radio" {
		t.Fatalf("check of the checked ARIA radio: %+v", res)
	}
	if res := setChecked(t, p, Target{Text: "Weekly"}, true); !res.Changed || res.Role != "radio" {
		t.Fatalf("check an ARIA radio: %+v", res)
	}
	setChecked(t, p, Target{Text: "Dense"}, true)
	setChecked(t, p, Target{Label: "Pro"}, true)
	got := js(t, p, `[...document.querySelectorAll('[aria-checked=true], input:checked')].map((e) => e.id).join(' ') + ' ' + JSON.stringify(window.clicks)`)
	if want := `"pro weekly dense {\"weekly\":1,\"dense\":1,\"pro\":1}"`; got != want {
		t.Fatalf("page state = %s, want %s", got, want)
	}
	for _, tg := range []Target{{Text: "Weekly"}, {Label: "Pro"}, {Text: "Dense"}} {
		_, err := p.SetChecked(ctx, tg, false, ActionOptions{})
		if KindOf(err) != KindStepValidation || !strings.Contains(err.Error(), "cannot be unchecked") {
			t.Errorf("uncheck radio %s: %v", tg, err)
		}
	}
	if got := js(t, p, "JSON.stringify(window.clicks)"); got != `"{\"weekly\":1,\"dense\":1,\"pro\":1}"` {
		t.Fatalf("refused unchecks clicked: %s", got)
	}
}

// TestCheckRefusals: a disabled ARIA checkbox is refused without a click,
// and a non-checkable element gets a message that does not contradict
// itself.
func TestCheckRefusals(t *testing.T) {
	p, _ := openFixture(t, "checkroles.html")
	ctx := testCtx(t)
	_, err := p.SetChecked(ctx, Target{Text: "Locked"}, true, ActionOptions{Timeout: 1500 * time.Millisecond})
	if KindOf(err) != KindElementNotEditable || !strings.Contains(err.Error(), "disabled checkbox") {
		t.Fatalf("check a disabled ARIA checkbox: %v", err)
	}
	_, err = p.SetChecked(ctx, Target{Text: "Notification settings"}, true, ActionOptions{})
	if KindOf(err) != KindElementNotEditable || !strings.Contains(err.Error(), "not checkable: it is a heading") {
		t.Fatalf("check a heading: %v", err)
	}
	if got := js(t, p, "JSON.stringify(window.clicks)"); got != `"{}"` {
		t.Fatalf("refusals clicked: %s", got)
	}
}

// TestCheckWhoseChangeHandlerReloads: a settings page saves each change
// and reloads (at once, or a timer later): the check happened, once, and
// the answer says the new state could not be read back, instead of
// claiming the page rejected it.
func TestCheckWhoseChangeHandlerReloads(t *testing.T) {
	p, _ := openFixture(t, "checkreload.html")
	ctx := testCtx(t)
	for i, tg := range []Target{{Label: "Email me weekly"}, {Text: "Dark mode"}} {
		res, err := p.SetChecked(ctx, tg, true, ActionOptions{})
		if err != nil || !res.Changed || !strings.Contains(strings.Join(res.Warnings, " "), "could not be read back") {
			t.Errorf("check %s, whose change handler reloads the page: %+v %v", tg, res, err)
		}
		want := `"Saved ` + string(rune('1'+i)) + ` times"`
		if got := js(t, p, "document.getElementById('saves').textContent"); got != want {
			t.Errorf("check %s: the page says %s, want %s", tg, got, want)
		}
	}
}
