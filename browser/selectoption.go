package browser

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// SelectWant names one option to select: by Value, Label or Index (set
// exactly one), or by Any (a value, failing that a label).
type SelectWant struct {
	Value *string `json:"value,omitempty"`
	Label *string `json:"label,omitempty"`
	Index *int    `json:"index,omitempty"`
	Any   *string `json:"any,omitempty"`
}

// OptionLabel selects the option whose label is l (case-insensitive).
func OptionLabel(l string) SelectWant { return SelectWant{Label: &l} }

// OptionIndex selects the option at position i (0-based).
func OptionIndex(i int) SelectWant { return SelectWant{Index: &i} }

// OptionAny selects the option whose value is s, failing that the one
// whose label is s.
func OptionAny(s string) SelectWant { return SelectWant{Any: &s} }

// String describes the wanted option for messages.
func (w SelectWant) String() string {
	switch {
	case w.Value != nil:
		return "value " + strconv.Quote(*w.Value)
	case w.Label != nil:
		return "label " + strconv.Quote(*w.Label)
	case w.Index != nil:
		return "index " + strconv.Itoa(*w.Index)
	case w.Any != nil:
		return strconv.Quote(*w.Any)
	}
	return "no option"
}

// SelectedOption is an option selected after selectOption.
type SelectedOption struct {
	Value string `json:"value"`
	Label string `json:"label"`
}

// SelectResult is the outcome of SelectOption (spec §9.8).
type SelectResult struct {
	Selected []SelectedOption `json:"selected"`
	Multiple bool             `json:"multiple"`
	TargetReport
	Effect
	// Warnings are notes for the step result.
	Warnings []string `json:"-"`
}

// selectAnswer is the engine's answer to selectOption: selectOptions'
// answer, plus what a custom dropdown offers and the wanted options that are
// not selected after the page's change handlers ran.
type selectAnswer struct {
	selectResult
	Role     string       `json:"role"`
	Name     string       `json:"name"`
	Selector string       `json:"selector"`
	Options  []string     `json:"options"`
	Missing  []SelectWant `json:"missing"`
	// Widget is the control of the widget a library shows in place of
	// the hidden <select> (inpage/replaced.js); Shows is what it shows
	// and Wanted the labels asked for, when it did not follow.
	Widget *widgetControl `json:"widget"`
	Shows  string         `json:"shows"`
	Wanted []string       `json:"wantedLabels"`
}

// widgetControl is the control a user operates of a widget that stands in
// for a hidden <select>.
type widgetControl struct {
	Ref  string `json:"ref"`
	Role string `json:"role"`
	Name string `json:"name"`
}

// SelectOption selects options of a native <select>: the wanted ones are
// selected, the others deselected, input and change fire, and the selection
// is read back after the page's handlers ran. An option that is not there
// yet or still disabled (options loaded or enabled by the page) is waited
// for up to the actionability timeout. A custom (ARIA) dropdown is refused
// with a hint to click it open and click the option; so is a <select> a
// library hides behind a widget that does not follow it (after the
// selection is put back).
func (p *Page) SelectOption(ctx context.Context, t Target, wants []SelectWant, o ActionOptions) (*SelectResult, error) {
	if len(wants) == 0 {
		return nil, Errorf(KindStepValidation, "no option given").WithHint("give value, label, index or values")
	}
	start := time.Now()
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = DefaultActionTimeout
	}
	ao := o
	ao.prep, ao.watch = "read", true
	res := &SelectResult{}
	st, err := p.perform(ctx, t, action{kind: "select", opts: ao, act: func(ctx context.Context, s *acting) error {
		deadline := start.Add(timeout)
		if d, ok := ctx.Deadline(); ok && d.Add(-lookupMargin).Before(deadline) {
			deadline = d.Add(-lookupMargin)
		}
		ans, err := p.selectWhenReady(ctx, t, s.el(), wants, deadline)
		if err == nil {
			err = ans.check(t, wants)
		}
		if err != nil {
			return err
		}
		res.Multiple = ans.Multiple
		for _, o := range ans.Selected {
			res.Selected = append(res.Selected, SelectedOption{Value: o["value"], Label: o["label"]})
		}
		return nil
	}})
	if err != nil {
		return nil, err
	}
	res.TargetReport, res.Effect, res.Warnings = st.report, st.effect, st.warnings
	return res, nil
}

// selectWhenReady selects the options on el, retrying until deadline while
// a wanted option is missing or disabled (the engine changes nothing
// then). Each retry finds the target again, as a page that loads options
// may replace the <select>. It releases el.
func (p *Page) selectWhenReady(ctx context.Context, t Target, el *Element, wants []SelectWant, deadline time.Time) (selectAnswer, error) {
	var ans selectAnswer
	start := time.Now()
	for attempt := 0; ; attempt++ {
		if el != nil {
			ans = selectAnswer{}
			err := el.call(ctx, &ans, epSelectOption, wants)
			el.release()
			if err != nil && KindOf(err) != KindStaleElement {
				return ans, fmt.Errorf("select %s: %w", describeWants(wants), err)
			}
			if err == nil && ans.Error != "no-option" && ans.Error != "disabled-option" {
				return ans, nil
			}
		}
		delay := retryDelays[min(attempt+1, len(retryDelays)-1)]
		if time.Now().Add(delay).After(deadline) {
			return ans, ans.waitedErr(t, wants, time.Since(start))
		}
		if err := Sleep(ctx, delay); err != nil {
			return ans, ans.waitedErr(t, wants, time.Since(start))
		}
		var err error
		if el, _, err = p.locate(ctx, t); err != nil {
			return ans, err
		}
	}
}

// waitedErr is the error for an option still missing or disabled after
// waiting: the engine's, with how long it waited and what can be chosen.
func (a selectAnswer) waitedErr(t Target, wants []SelectWant, waited time.Duration) error {
	if a.Error == "" {
		return notFound(t, waited)
	}
	err := a.check(t, wants)
	var e *Error
	if !errors.As(err, &e) {
		return err
	}
	e.Message += fmt.Sprintf(" (waited %s for it)", waited.Round(10*time.Millisecond))
	if a.Error == "disabled-option" && len(a.Available) > 0 {
		var opts []string
		for _, o := range a.Available {
			opts = append(opts, fmt.Sprintf("%q (value %q)", o["label"], o["value"]))
		}
		e.Message += "; enabled options: " + strings.Join(opts, ", ")
		if a.Count > len(a.Available) {
			e.Message += fmt.Sprintf(" and %d more", a.Count-len(a.Available))
		}
		e.Details = map[string]any{"available": a.Available}
	}
	if e.Hint == "" {
		e.Hint = "pick one of the listed options; if the page fills or enables the options after another choice (a dependent field), make that choice first"
	}
	return e
}

// check turns the engine's answer into an error when the selection failed.
func (a selectAnswer) check(t Target, wants []SelectWant) error {
	switch {
	case a.Error == "custom":
		return a.customError(t)
	case a.Error == "replaced":
		return a.replacedError(t)
	case a.Error != "":
		return a.err(describeWants(wants))
	case len(a.Missing) > 0:
		var now []string
		for _, s := range a.Selected {
			now = append(now, strconv.Quote(s["label"]))
		}
		return Errorf(KindElementNotEditable, "the selection did not hold: %s is not selected after the change event (selected now: %s)",
			describeWants(a.Missing), strings.Join(now, ", ")).
			WithHint("a change handler of the page resets it; check what the page expects (validation, dependent fields)")
	}
	return nil
}

// customError explains that the target is not a native <select>.
func (a selectAnswer) customError(t Target) error {
	what := fmt.Sprintf("a %s (%s", a.Role, a.Selector)
	if a.Name != "" {
		what += fmt.Sprintf(", %q", a.Name)
	}
	what += ")"
	e := Errorf(KindElementNotEditable, "%s is %s, not a native <select>: selectOption only sets <select> elements", t, what)
	if len(a.Options) > 0 {
		e.Message += fmt.Sprintf("; options in the page: %q", a.Options)
		e.Details = map[string]any{"options": a.Options}
	}
	switch a.Role {
	case "slider":
		return e.WithAdvice(sliderKeys.After("it is a slider: fill it with the number (%s), or ", sliderFill))
	case "combobox", "listbox", "button", "menu", "menubutton":
		return e.WithHint("it is a custom dropdown: click it to open it, then click the option (click with text of the option, or its ref from a new snapshot)")
	}
	return e.WithHint("target the <select> element by selector, ref or label; for a custom dropdown click it open, then click the option")
}

// replacedError explains that the <select> is hidden behind a library's
// widget that did not follow the selection, which was put back.
func (a selectAnswer) replacedError(t Target) error {
	w := a.Widget
	if w == nil {
		w = &widgetControl{}
	}
	ctl := fmt.Sprintf("%s %q [ref=%s]", w.Role, w.Name, w.Ref)
	e := Errorf(KindElementNotEditable, "%s is a <select> (%s) that the page hides behind its own widget, %s, which did not follow the selection (it shows %q); the <select> was put back as it was",
		t, a.Selector, ctl, a.Shows)
	e.Details = map[string]any{"widget": w}
	opt := strings.Join(a.Wanted, ", ")
	return e.WithHint("pick it as a user does: click %s to open it (type to filter if it has a search box), then click the option %q by its ref from the click's answer", w.Ref, opt)
}

func describeWants(wants []SelectWant) string {
	parts := make([]string, len(wants))
	for i, w := range wants {
		parts[i] = w.String()
	}
	return strings.Join(parts, ", ")
}
