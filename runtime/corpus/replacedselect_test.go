package corpus

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// A native <select> that a library hides behind its own widget is not a
// control of its own in the snapshot (the widget is what the user sees),
// and selectOption on it (by selector or label) is verified on the widget:
// one that follows the change is set; one that does not is refused at
// once, the <select> put back, with the widget's ref to click.

// TestHiddenSelectNotInSnapshot: Tom Select and Choices.js hide their
// <select>s; the snapshot shows only their widgets.
func TestHiddenSelectNotInSnapshot(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ page, ready, hidden, widget string }{
		{"tomselect.html", "[data-ready=tomselect]", `combobox "Pick a country`, `combobox "Country"`},
		{"choices.html", "[data-ready=choices]", `option "Urgent"`, `listbox "Priority"`},
	} {
		a := openPage(t, c.page, c.ready)
		yaml := a.snapshot()
		if strings.Contains(yaml, c.hidden) || !strings.Contains(yaml, c.widget) {
			t.Errorf("%s: want %s and no %s in:\n%s", c.page, c.widget, c.hidden, yaml)
		}
	}
}

// TestSelectOptionOnHiddenSelectRefused: selectOption on the <select>
// behind Tom Select (which does not follow it) and behind Choices.js
// answers an error naming the widget's ref, at once, and leaves the
// library's value and the <select>'s as they were, with no change heard.
func TestSelectOptionOnHiddenSelectRefused(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ page, ready, step, widget, state, want string }{
		{"tomselect.html", "[data-ready=tomselect]", `{"selectOption":{"selector":"#country","value":"jp"}}`, `combobox "Country"`,
			`() => [country.getValue(), document.getElementById('country').value, countryChanges]`, `["","",0]`},
		{"choices.html", "[data-ready=choices]", `{"selectOption":{"selector":"#priority","label":"Urgent"}}`, `listbox "Priority"`,
			`() => [priority.getValue(true), document.getElementById('priority').value]`, `["normal","normal"]`},
	} {
		a := openPage(t, c.page, c.ready)
		ref := refIn(t, a.snapshot(), c.widget)
		out := a.runSteps(c.step)
		if out.OK() || len(out.Steps) == 0 {
			t.Fatalf("%s: selectOption on the hidden <select> answered %s", c.page, out.JSON())
		}
		msg := out.Steps[0].Error
		if !strings.Contains(msg, "did not follow the selection") || !strings.Contains(msg, "click "+ref) {
			t.Errorf("%s: the error does not name the widget's ref %s: %s", c.page, ref, msg)
		}
		if got := a.evalJSON(c.state); got != c.want {
			t.Errorf("%s: state after the refused selectOption = %s, want %s", c.page, got, c.want)
		}
		if a.took > stepBudget/2 {
			t.Errorf("%s: the refusal took %v: it waited instead of answering", c.page, a.took)
		}
	}
}

// TestSelectOptionOnFollowingHiddenSelect: Tom Select with its
// change_listener plugin follows its <select>: selectOption by label sets
// it, and the widget shows the new value.
func TestSelectOptionOnFollowingHiddenSelect(t *testing.T) {
	t.Parallel()
	a := openPage(t, "tomselect.html", "[data-ready=tomselect]")
	a.do(`{"selectOption":{"selector":"#carrier","label":"DHL"}}`)
	if got := a.evalJSON(`() => [carrier.getValue(), document.getElementById('carrier').value, carrier.control.innerText.trim()]`); got != `["dhl","dhl","DHL"]` {
		t.Fatalf("[value, select's value, shown] = %s", got)
	}
}

// TestFillOnHiddenSelect: fill on a hidden <select> is a selectOption:
// refused behind Tom Select's widget that does not follow it, done behind
// the one that does.
func TestFillOnHiddenSelect(t *testing.T) {
	t.Parallel()
	a := openPage(t, "tomselect.html", "[data-ready=tomselect]")
	out := a.runSteps(`{"fill":{"selector":"#country","value":"Japan"}}`)
	if out.OK() || !strings.Contains(out.Steps[0].Error, "did not follow the selection") {
		t.Errorf("fill on the <select> behind Tom Select answered %s", out.JSON())
	}
	a.do(`{"fill":{"selector":"#carrier","value":"UPS"}}`)
	if got := a.evalJSON(`() => [country.getValue(), countryChanges, carrier.getValue(), carrier.control.innerText.trim()]`); got != `["",0,"ups","UPS"]` {
		t.Fatalf("[country, changes, carrier, carrier shows] = %s", got)
	}
}

// TestFailedLookupDoesNotOfferTheHiddenSelect: a click on text that is
// not there lists near matches to act on; the <select> Tom Select or
// Choices hides is not one of them (acting on it goes nowhere the user
// sees), the widget is.
func TestFailedLookupDoesNotOfferTheHiddenSelect(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ page, ready, widget, text, hidden string }{
		{"tomselect.html", "[data-ready=tomselect]", `combobox "Country"`, "Country Japan", "select#country"},
		{"choices.html", "[data-ready=choices]", `listbox "Priority"`, "Priority Urgent", "select#priority"},
	} {
		a := openPage(t, c.page, c.ready)
		ref := refIn(t, a.snapshot(), c.widget)
		out := a.runSteps(`{"click":{"text":"` + c.text + `","timeout":500}}`)
		if out.OK() || len(out.Steps) == 0 {
			t.Fatalf("%s: a click on missing text answered %s", c.page, out.JSON())
		}
		failure := string(out.JSON())
		if strings.Contains(failure, c.hidden) || !strings.Contains(failure, `"ref":"`+ref+`"`) {
			t.Errorf("%s: near matches offer the hidden select or miss the widget's ref %s: %s", c.page, ref, failure)
		}
	}
}

// TestTomSelectWithAChosenValueIsACombobox: Tom Select's single select
// with a chosen value moves its combobox input off-screen and shows the
// value in its control; the snapshot and the answer's viewport show that
// control as the combobox, named by the select's label, with the chosen
// value, and a click on its ref opens the select (its dropdown shows, the
// value stays). The select with no value keeps its input as the combobox.
func TestTomSelectWithAChosenValueIsACombobox(t *testing.T) {
	t.Parallel()
	a := openPage(t, "tomselect.html", "[data-ready=tomselect]")
	full := a.snapshot()
	view := a.look(`{"scroll":{"y":1}}`)
	for what, yaml := range map[string]string{"snapshot": full, "viewport": view} {
		if !strings.Contains(yaml, `combobox "Carrier" [collapsed]`) || !strings.Contains(yaml, `: "Post"`) || strings.Contains(yaml, "]: Post") {
			t.Errorf("%s: Tom Select's carrier is not a combobox with its value:\n%s", what, yaml)
		}
		if !strings.Contains(yaml, `combobox "Country" [collapsed]`) {
			t.Errorf("%s: the country select without a value lost its combobox:\n%s", what, yaml)
		}
	}
	ref := refIn(t, view, `combobox "Carrier"`, `"Post"`)
	if got := a.evalJSON(`() => [carrier.isOpen, getComputedStyle(carrier.dropdown).display]`); got != `[false,"none"]` {
		t.Fatalf("carrier before the click: [open, dropdown display] = %s", got)
	}
	clicked := a.do(`{"click":"` + ref + `"}`)
	if got := a.evalJSON(`() => [carrier.isOpen, getComputedStyle(carrier.dropdown).display, carrier.getValue()]`); got != `[true,"block","post"]` {
		t.Fatalf("carrier after clicking its combobox %s: [open, dropdown display, value] = %s", ref, got)
	}
	// The click's answer names what was clicked as the snapshot does.
	var step struct {
		Steps []struct {
			Output struct {
				Element map[string]any `json:"element"`
			} `json:"output"`
		} `json:"steps"`
	}
	if err := json.Unmarshal(clicked.JSON(), &step); err != nil || len(step.Steps) != 1 || fmt.Sprint(step.Steps[0].Output.Element) != "map[name:Carrier role:combobox]" {
		t.Errorf("the click's answer does not name the combobox: %s", clicked.JSON())
	}
	// Opened, the control is no longer the combobox: that is what
	// changed, not its value to "".
	if ch := string(clicked.JSON()); !strings.Contains(ch, `"field":"role","from":"combobox","to":"generic"`) || strings.Contains(ch, `"from":"Post","to":""`) {
		t.Errorf("the changes do not say the control stopped standing in for the combobox: %s", ch)
	}
}

// TestTomSelectWithAChosenValueByRole: queried by its role, Tom Select's
// select with a chosen value answers with the control shown in place of
// the input it moved off-screen: the snapshot's ref and the value shown
// (before, the input's own ref, which no click reaches: a click on it
// timed out outside the viewport). The query's ref opens the select.
func TestTomSelectWithAChosenValueByRole(t *testing.T) {
	t.Parallel()
	a := openPage(t, "tomselect.html", "[data-ready=tomselect]")
	ref := refIn(t, a.snapshot(), `combobox "Carrier"`, `"Post"`)
	res := string(a.do(`{"query":{"role":"combobox","name":"Carrier"}}`).JSON())
	if !strings.Contains(res, `"ref":"`+ref+`"`) || !strings.Contains(res, `"value":"Post"`) {
		t.Fatalf("the role query does not answer with the control's ref %s and its value: %s", ref, res)
	}
	a.do(`{"click":"` + ref + `"}`)
	if got := a.evalJSON(`() => [carrier.isOpen, getComputedStyle(carrier.dropdown).display, carrier.getValue()]`); got != `[true,"block","post"]` {
		t.Fatalf("carrier after a click on the query's ref: [open, dropdown display, value] = %s", got)
	}
}
