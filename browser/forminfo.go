package browser

import (
	"context"
	"fmt"
	"strings"
)

// FormField is one field of a form as formState reports it. Value is a
// string (passwords masked), a list for multiple selects and file inputs.
type FormField struct {
	Name              string `json:"name"`
	Type              string `json:"type"`
	Label             string `json:"label"`
	Value             any    `json:"value"`
	Checked           *bool  `json:"checked,omitempty"`
	Required          bool   `json:"required"`
	Valid             bool   `json:"valid"`
	Disabled          bool   `json:"disabled"`
	ValidationMessage string `json:"validationMessage,omitempty"`
}

// FormState is the state of a form's fields (spec §11.10).
type FormState struct {
	Fields     []FormField `json:"fields"`
	Valid      bool        `json:"valid"`
	FieldCount int         `json:"fieldCount"`
}

// FormState reads the fields of the form a selector or ref names (buttons
// and hidden inputs left out) without changing them. A control or button
// stands for its form; another element for the fields inside it.
func (p *Page) FormState(ctx context.Context, sel string) (*FormState, error) {
	var out FormState
	if err := p.callEngineOn(ctx, sel, epFormState, &out, KindElementNotFound); err != nil {
		return nil, err
	}
	if out.Fields == nil {
		out.Fields = []FormField{}
	}
	return &out, nil
}

// Validity holds the HTML5 validity flags of a field.
type Validity struct {
	ValueMissing    bool `json:"valueMissing"`
	TypeMismatch    bool `json:"typeMismatch"`
	PatternMismatch bool `json:"patternMismatch"`
	TooLong         bool `json:"tooLong"`
	TooShort        bool `json:"tooShort"`
	RangeUnderflow  bool `json:"rangeUnderflow"`
	RangeOverflow   bool `json:"rangeOverflow"`
	StepMismatch    bool `json:"stepMismatch"`
	BadInput        bool `json:"badInput"`
	CustomError     bool `json:"customError"`
}

// FieldValidity is the answer of Validate (spec §11.11). WillValidate is
// false for a field barred from validation (disabled, readonly).
type FieldValidity struct {
	Valid        bool     `json:"valid"`
	Message      string   `json:"message"`
	Validity     Validity `json:"validity"`
	WillValidate *bool    `json:"willValidate,omitempty"`
}

// Validate reads the HTML5 validation state of a field (or of a label's
// control).
func (p *Page) Validate(ctx context.Context, sel string) (*FieldValidity, error) {
	var out FieldValidity
	if err := p.callEngineOn(ctx, sel, epValidate, &out, KindElementNotEditable); err != nil {
		return nil, err
	}
	return &out, nil
}

// FieldError is an invalid field that kept a form from being submitted.
type FieldError struct {
	Field   string `json:"field"`
	Label   string `json:"label,omitempty"`
	Message string `json:"message"`
}

// SubmitResult is the outcome of Submit. Prevented is true when a submit
// handler of the page cancelled the submission (event.preventDefault(), as
// script-driven forms do); Submitted is then false unless the page went on
// to navigate (or open a tab) itself.
type SubmitResult struct {
	Submitted bool         `json:"submitted"`
	Valid     bool         `json:"valid"`
	Prevented bool         `json:"prevented,omitempty"`
	Errors    []FieldError `json:"errors,omitempty"`
	Form      string       `json:"-"`
	Effect
	// Warnings are notes for the step result.
	Warnings []string `json:"-"`
}

// Submit submits the form a selector or ref names (the form, or a button
// or field in it) with form.requestSubmit(), so the page's submit handlers
// run, and waits for a navigation it starts. When a handler cancels the
// submission and nothing navigates, the result says so (Prevented) with a
// warning. When a field fails validation nothing is submitted: the result
// is {submitted: false, valid: false, errors}, with a warning (spec
// §11.12).
func (p *Page) Submit(ctx context.Context, sel string) (*SubmitResult, error) {
	el, err := p.readElement(ctx, sel)
	if err != nil {
		return nil, err
	}
	defer el.release()
	w, err := p.watch(ctx)
	if err != nil {
		return nil, err
	}
	var res SubmitResult
	var out struct {
		SubmitResult
		Error string `json:"error"`
		Form  string `json:"form"`
	}
	err = el.call(ctx, &out, epSubmit)
	switch {
	case err != nil && KindOf(err) == KindContextDestroyed:
		// A submit handler navigated synchronously: it was submitted.
		out.Submitted, out.Valid = true, true
	case err != nil:
		w.stop()
		return nil, engineError("submit", err)
	case out.Error != "":
		w.stop()
		return nil, Errorf(KindElementNotFound, "%s", out.Error).WithHint("point submit at a <form> or at a button inside one")
	case !out.Valid:
		// Nothing was submitted: the answer says why (spec §11.12),
		// and the step's warning says what to do.
		w.stop()
		return &SubmitResult{Errors: out.Errors, Form: out.Form,
			Warnings: []string{invalidForm(out.Form, out.Errors)}}, nil
	}
	res = out.SubmitResult
	res.Effect = w.finish(ctx, SettleWindow)
	if res.Effect.Warning != "" {
		res.Warnings = append(res.Warnings, res.Effect.Warning)
	}
	switch {
	case res.Prevented && (res.Navigated || len(res.NewTabs) > 0):
		// The handler cancelled the native submission but went on itself
		// (form.submit(), a router): the form did lead somewhere.
		res.Submitted = true
	case res.Prevented:
		res.Warnings = append(res.Warnings, fmt.Sprintf("the page's submit handler cancelled the submission of %s (preventDefault) and nothing navigated: "+
			"the page handles the form in script, so check its outcome (snapshot, assert or wait)", out.Form))
	}
	return &res, nil
}

// invalidForm says why a submit was refused: the invalid fields, and
// what to do.
func invalidForm(form string, errs []FieldError) string {
	var parts []string
	for _, e := range errs {
		name := e.Field
		if e.Label != "" && e.Label != e.Field {
			name = fmt.Sprintf("%s (%q)", e.Field, e.Label)
		}
		parts = append(parts, fmt.Sprintf("%s: %s", name, e.Message))
	}
	return fmt.Sprintf("the form %s was not submitted: %d field(s) are invalid: %s; fill them with valid values (formState shows them all), then submit again",
		form, len(errs), strings.Join(parts, "; "))
}
