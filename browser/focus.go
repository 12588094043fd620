package browser

import (
	"context"
	"fmt"
)

// FocusResult is the outcome of Focus.
type FocusResult struct {
	Focused bool `json:"focused"`
	TargetReport
	Effect
	Warnings []string `json:"-"`
}

// focusAnswer is the engine's answer to focusElement.
type focusAnswer struct {
	Focused   bool   `json:"focused"`
	Active    string `json:"active"`
	Focusable bool   `json:"focusable"`
	Disabled  bool   `json:"disabled"`
	What      string `json:"what"`
}

// Focus moves keyboard focus to the target (the control of a label) with
// element.focus() and verifies that the deep active element, through shadow
// roots, is it. Its watch sees what the page's focus handlers set off (a
// hint shown, a request, a navigation), as an action's does.
func (p *Page) Focus(ctx context.Context, t Target, o ActionOptions) (*FocusResult, error) {
	s, err := p.perform(ctx, t, action{kind: "focus", opts: o, act: func(ctx context.Context, s *acting) error {
		var ans focusAnswer
		if err := s.el().call(ctx, &ans, epFocusElement); err != nil {
			return fmt.Errorf("focus %s: %w", t, err)
		}
		if !ans.Focused {
			return ans.err(t)
		}
		return nil
	}})
	if err != nil {
		return nil, err
	}
	return &FocusResult{Focused: true, TargetReport: s.report, Effect: s.effect, Warnings: s.warnings}, nil
}

// err explains why focus did not land.
func (a focusAnswer) err(t Target) error {
	switch {
	case a.Disabled:
		return Errorf(KindElementNotEditable, "%s is disabled and cannot take focus", t)
	case !a.Focusable:
		return Errorf(KindElementNotEditable, "%s (%s) cannot take focus: it is not a form control, link or element with tabindex", t, a.What).
			WithHint("focus a control inside it, or click it")
	case a.Active != "":
		return Errorf(KindElementNotEditable, "focus did not stay on %s: %s has it", t, a.Active).
			WithHint("a script of the page moves focus (a modal focus trap?); click the element instead")
	}
	return Errorf(KindElementNotEditable, "%s did not take focus", t).WithHint("it may be inert or in a hidden part of the page; click it instead")
}
