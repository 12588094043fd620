package corpus

import "testing"

// TestFlatpickrPickDate opens flatpickr's calendar by clicking the field's
// ref and clicks a day by its ref in the click's answer (the calendar hangs
// off the body): the picker's selected date is that day, picked once.
func TestFlatpickrPickDate(t *testing.T) {
	t.Parallel()
	a := openPage(t, "flatpickr.html", "[data-ready=flatpickr]")
	field := refIn(t, a.snapshot(), `textbox "Check-in date"`)
	day := refIn(t, a.look(`{"click":`+q(field)+`}`), `[clickable]`, `]: 15`)
	noWarning(t, a.do(`{"click":`+q(day)+`}`))
	if got := a.evalJSON(`() => [checkin.selectedDates.map((d) => checkin.formatDate(d, 'Y-m-d')), checkin.input.value, picks]`); got != `[["2025-06-15"],"2025-06-15",1]` {
		t.Fatalf("[selected, field, picks] = %s", got)
	}
}

// TestFlatpickrTypeDate types a date into a flatpickr field that allows
// input and presses Enter: flatpickr parses it into its selected date.
func TestFlatpickrTypeDate(t *testing.T) {
	t.Parallel()
	a := openPage(t, "flatpickr.html", "[data-ready=flatpickr]")
	field := refIn(t, a.snapshot(), `textbox "Check-out date"`)
	a.do(`{"type":{"ref":`+q(field)+`,"text":"2025-07-04"}}`, `{"press":"Enter"}`)
	if got := a.evalJSON(`() => checkout.selectedDates.map((d) => checkout.formatDate(d, 'Y-m-d'))`); got != `["2025-07-04"]` {
		t.Fatalf("checkout.selectedDates = %s", got)
	}
}

// TestTomSelectPickOption types into Tom Select's combobox and clicks the
// matching option by its ref: the select's value is Japan, changed once.
func TestTomSelectPickOption(t *testing.T) {
	t.Parallel()
	a := openPage(t, "tomselect.html", "[data-ready=tomselect]")
	box := refIn(t, a.snapshot(), `combobox "Country"`)
	a.do(`{"click":`+q(box)+`}`, `{"type":"Jap"}`)
	option := refIn(t, a.snapshot(), `option "Japan"`)
	a.do(`{"click":` + q(option) + `}`)
	if got := a.evalJSON(`() => [country.getValue(), document.getElementById('country').value, countryChanges]`); got != `["jp","jp",1]` {
		t.Fatalf("[value, select's value, changes] = %s", got)
	}
}

// TestTomSelectRemoveTag clicks the remove button of the "Fragile" tag
// of a Tom Select multi-select: only Express stays selected.
func TestTomSelectRemoveTag(t *testing.T) {
	t.Parallel()
	a := openPage(t, "tomselect.html", "[data-ready=tomselect]")
	remove := refIn(t, a.snapshot(), `link "×"`) // the first tag's, Fragile
	a.do(`{"click":` + q(remove) + `}`)
	if got := a.evalJSON(`() => tags.getValue()`); got != `["express"]` {
		t.Fatalf("tags.getValue() = %s", got)
	}
}

// TestTomSelectAddTagByKeyboard types into the Tags combobox and presses
// Enter: Tom Select adds the highlighted option.
func TestTomSelectAddTagByKeyboard(t *testing.T) {
	t.Parallel()
	a := openPage(t, "tomselect.html", "[data-ready=tomselect]")
	box := refIn(t, a.snapshot(), `combobox "Tags"`)
	a.do(`{"type":{"ref":`+q(box)+`,"text":"Gif"}}`, `{"wait":".ts-dropdown .option.active"}`, `{"press":"Enter"}`)
	if got := a.evalJSON(`() => tags.getValue()`); got != `["fragile","express","gift"]` {
		t.Fatalf("tags.getValue() = %s", got)
	}
}

// TestChoicesPickOption opens a Choices.js single select by its ref and
// clicks an option by its ref: Choices' value is that option.
func TestChoicesPickOption(t *testing.T) {
	t.Parallel()
	a := openPage(t, "choices.html", "[data-ready=choices]")
	box := refIn(t, a.snapshot(), `listbox "Priority"`)
	noWarning(t, a.do(`{"click":`+q(box)+`}`, `{"wait":".choices.is-open"}`))
	option := refIn(t, a.snapshot(), `option "Urgent"`)
	noWarning(t, a.do(`{"click":`+q(option)+`}`))
	if got := a.evalJSON(`() => [priority.getValue(true), document.getElementById('priority').value, priorityChanges]`); got != `["urgent","urgent",1]` {
		t.Fatalf("[value, select's value] = %s", got)
	}
}

// TestChoicesAddLabels types two labels into a Choices.js text input,
// each ended with Enter: Choices holds both as items.
func TestChoicesAddLabels(t *testing.T) {
	t.Parallel()
	a := openPage(t, "choices.html", "[data-ready=choices]")
	box := refIn(t, a.snapshot(), `textbox "Add a label"`)
	a.do(`{"type":{"ref":`+q(box)+`,"text":"backend"}}`, `{"press":"Enter"}`, `{"type":"ui"}`, `{"press":"Enter"}`)
	if got := a.evalJSON(`() => labels.getValue(true)`); got != `["backend","ui"]` {
		t.Fatalf("labels.getValue(true) = %s", got)
	}
}

// TestJQueryUIAutocompletePick types into a jQuery UI autocomplete and
// clicks a suggestion by its ref: the menu's items have no role and the
// menu handles their clicks, yet an agent acting by refs must be able to
// pick one. The field holds it and the select handler ran once.
func TestJQueryUIAutocompletePick(t *testing.T) {
	t.Parallel()
	a := openPage(t, "jqueryui.html", "[data-ready=jqueryui]")
	field := refIn(t, a.snapshot(), `textbox "Destination"`)
	item := refIn(t, a.look(`{"type":{"ref":`+q(field)+`,"text":"Cam"}}`, `{"wait":".ui-autocomplete .ui-menu-item"}`), `Cambodia`)
	a.do(`{"click":` + q(item) + `}`)
	if got := a.evalJSON(`() => [$('#destination').val(), selected]`); got != `["Cambodia",["Cambodia"]]` {
		t.Fatalf("[field, selected] = %s", got)
	}
}

// TestJQueryUIAutocompleteKeyboard picks the second suggestion with the
// arrow keys and Enter.
func TestJQueryUIAutocompleteKeyboard(t *testing.T) {
	t.Parallel()
	a := openPage(t, "jqueryui.html", "[data-ready=jqueryui]")
	field := refIn(t, a.snapshot(), `textbox "Destination"`)
	a.do(`{"type":{"ref":`+q(field)+`,"text":"Ca"}}`, `{"wait":".ui-autocomplete .ui-menu-item"}`, `{"press":"ArrowDown"}`, `{"press":"ArrowDown"}`, `{"press":"Enter"}`)
	if got := a.evalJSON(`() => [$('#destination').val(), selected]`); got != `["Cameroon",["Cameroon"]]` {
		t.Fatalf("[field, selected] = %s", got)
	}
}
