package browser

import (
	"context"
	"time"
)

// CheckResult is the outcome of SetChecked (check / uncheck).
type CheckResult struct {
	Checked bool `json:"checked"`
	// Changed is false when the control already had the wanted state and
	// nothing was clicked.
	Changed bool `json:"changed"`
	// Role is checkbox, radio, switch, or the ARIA role carrying
	// aria-checked.
	Role string `json:"role,omitempty"`
	// Method and Via are the click's (see ClickResult), when it clicked.
	Method string `json:"method,omitempty"`
	Via    string `json:"via,omitempty"`
	TargetReport
	Effect
	// Warnings are notes for the step result.
	Warnings []string `json:"-"`
}

// checkTargetInfo is the engine's answer to checkTarget.
type checkTargetInfo struct {
	checkedInfo
	Disabled bool `json:"disabled"`
}

// SetChecked makes the target (a native checkbox or radio, an element with
// role checkbox, radio, switch, menuitemcheckbox, menuitemradio, option or
// treeitem (read from aria-selected when it has no aria-checked) or with
// aria-checked, the label of one, or an element inside one) checked or
// unchecked, read back from checked or aria-checked. When it already is,
// nothing is clicked (Changed false); otherwise it is clicked as Click does (a
// hidden input through its label) and the final state is verified: a click
// that did not change it is an error. Radios cannot be unchecked.
func (p *Page) SetChecked(ctx context.Context, t Target, want bool, o ActionOptions) (*CheckResult, error) {
	st, res, err := p.checkState(ctx, t, o.Timeout)
	if err != nil {
		return nil, err
	}
	if isRadio(st.Role) && !want {
		return nil, Errorf(KindStepValidation, "%s is a %s, which cannot be unchecked by clicking", t, st.Role).
			WithHint("check another option of the same group instead")
	}
	if st.Checked == want {
		res.Checked = want
		return res, nil
	}
	docs := p.Documents()
	cr, err := p.Click(ctx, t, ClickOptions{ActionOptions: o})
	if err != nil {
		return nil, err
	}
	res.Changed, res.Method, res.Via, res.AutoForced, res.Effect = true, cr.Method, cr.Via, cr.AutoForced, cr.Effect
	res.Warnings = cr.Warnings
	if res.Navigated || p.Documents() != docs {
		// The control read now would be the new document's: a change
		// handler that saves and reloads, or navigates.
		res.Checked = want
		res.Warnings = append(res.Warnings, "the page loaded a new document after the click (its change handler reloaded or navigated), so the new state could not be read back; take a snapshot to see it")
		return res, nil
	}
	got, err := p.readChecked(ctx, t, cr)
	if err != nil {
		return nil, err
	}
	res.Checked = got
	if got != want {
		return nil, Errorf(KindElementNotEditable, "%s is still %s after clicking it", t, checkedWord(got)).
			WithHint("the page rejected the change (a controlled component, validation, or a script resetting it); look at it in a snapshot, or click its label")
	}
	return res, nil
}

// isRadio reports whether a checkable role cannot be unchecked by a click.
func isRadio(role string) bool { return role == "radio" || role == "menuitemradio" }

// checkState finds the target and reads its checkable state, waiting (up
// to timeout) while it is disabled: a disabled control is an
// ElementNotEditableError, never clicked.
func (p *Page) checkState(ctx context.Context, t Target, timeout time.Duration) (checkTargetInfo, *CheckResult, error) {
	if timeout <= 0 {
		timeout = DefaultActionTimeout
	}
	deadline := time.Now().Add(timeout)
	for attempt := 0; ; attempt++ {
		el, err := p.waitElement(ctx, t, time.Until(deadline))
		if err != nil {
			return checkTargetInfo{}, nil, err
		}
		st, err := p.checkTarget(ctx, el, t)
		res := &CheckResult{Role: st.Role, TargetReport: p.targetReport(ctx, el, false)}
		el.release()
		if err != nil || !st.Disabled {
			return st, res, err
		}
		delay := retryDelays[min(attempt, len(retryDelays)-1)]
		if time.Now().Add(delay).After(deadline) {
			return st, nil, Errorf(KindElementNotEditable, "%s is a disabled %s (still disabled after %s), so it cannot be %s", t, st.Role, timeout.Round(time.Millisecond), checkedWord(!st.Checked)).
				WithHint("enable it first (the page may need another field filled or an option chosen), then check it again")
		}
		if err := Sleep(ctx, delay); err != nil {
			return st, nil, err
		}
	}
}

// checkTarget reads the state of a checkable element, failing for other
// elements.
func (p *Page) checkTarget(ctx context.Context, el *Element, t Target) (checkTargetInfo, error) {
	var st checkTargetInfo
	if err := el.call(ctx, &st, epCheckTarget); err != nil {
		return st, err
	}
	if st.Error != "" {
		return st, Errorf(KindElementNotEditable, "%s is %s", t, st.Error).
			WithHint("target the checkbox, radio or switch itself, or its label; for another kind of control use click")
	}
	return st, nil
}

// readChecked returns the state after the click: the click's own reading,
// or a fresh one.
func (p *Page) readChecked(ctx context.Context, t Target, cr *ClickResult) (bool, error) {
	if cr.Checked != nil {
		return *cr.Checked, nil
	}
	el, _, err := p.locate(ctx, t)
	if err != nil {
		return false, err
	}
	if el == nil {
		return false, Errorf(KindStaleElement, "%s left the page when it was clicked, so its state cannot be verified", t)
	}
	defer el.release()
	st, err := p.checkTarget(ctx, el, t)
	return st.Checked, err
}

func checkedWord(b bool) string {
	if b {
		return "checked"
	}
	return "unchecked"
}

// lookupMargin is how long before the step's deadline waitElement makes
// its last look, so that a miss reports ElementNotFoundError (with near
// matches) rather than the step's context expiring mid-call.
const lookupMargin = 50 * time.Millisecond

// waitElement waits (up to timeout, default DefaultActionTimeout, and no
// longer than ctx allows) until the target exists, without the
// actionability checks: for actions that work on hidden elements or check
// them themselves, and for the read steps.
func (p *Page) waitElement(ctx context.Context, t Target, timeout time.Duration) (*Element, error) {
	if timeout <= 0 {
		timeout = DefaultActionTimeout
	}
	start := time.Now()
	deadline := start.Add(timeout)
	if d, ok := ctx.Deadline(); ok && d.Add(-lookupMargin).Before(deadline) {
		deadline = d.Add(-lookupMargin)
		timeout = max(0, deadline.Sub(start))
	}
	for attempt := 0; ; attempt++ {
		el, _, err := p.locate(ctx, t)
		if err != nil {
			if attempt > 0 && ctx.Err() != nil {
				// The step's time ran out during a lookup (a slow page or
				// machine): still the typed not-found answer.
				return nil, notFound(t, time.Since(start))
			}
			return nil, err
		}
		if el != nil {
			return el, nil
		}
		// The last lookup runs at the deadline: an element that appears
		// in the wait's last moments is found, and "waited" is true.
		remaining := time.Until(deadline)
		if remaining <= 0 {
			return nil, notFound(t, timeout)
		}
		delay := min(retryDelays[min(attempt, len(retryDelays)-1)], remaining)
		if err := Sleep(ctx, delay); err != nil {
			// The step's context ended first: say how long it really waited.
			return nil, notFound(t, time.Since(start))
		}
	}
}
