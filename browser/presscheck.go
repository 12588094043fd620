package browser

import (
	"context"
	"fmt"
)

// pressRedirected is the error of a click whose press reached another
// element than the target (the probe's hit-target check, act.js
// armProbe): the page changed what is under the pointer when the pointer
// arrived, and the press, with the rest of the click, was stopped before
// the page's own listeners saw it.
func pressRedirected(t Target, a *Actionable, probe probeResult) error {
	at := ""
	if a.Point != nil {
		at = fmt.Sprintf(" at (%.0f, %.0f)", a.Point.X, a.Point.Y)
	}
	var e *Error
	if r := probe.Renamed; r != nil {
		e = Errorf(KindElementIntercepted, "%s changed from %q to %q when the pointer reached it; the click was stopped before the page saw it, so nothing was clicked", t, r.From, r.To)
		e.WithHint("take a snapshot to see the page as it is now; if %q is what you mean, click it again", r.To)
	} else {
		e = Errorf(KindElementIntercepted, "the press%s reached %s, not %s: the page changed what is under the pointer when the pointer arrived; the click was stopped before the page saw it, so nothing was clicked", at, probe.Blocked, t)
		e.WithHint("take a snapshot to see the page as it is now, and click the element you mean by its new ref")
	}
	e.Details = map[string]any{"pressReached": probe.Blocked}
	return e
}

// focusAfterPart runs when a click on a part of the target's widget (an
// editor's text layer) left the editable target without focus: it focuses
// the target, as the widget would have, and says so.
func (p *Page) focusAfterPart(ctx context.Context, a *Actionable, res *ClickResult) {
	var ans focusAnswer
	err := a.El.call(ctx, &ans, epFocusElement)
	switch {
	case err == nil && ans.Focused:
		res.Warnings = append(res.Warnings, fmt.Sprintf("the click landed on %s, part of the element's widget, and the element did not take focus; focused it with element.focus()", a.Part))
	default:
		res.Warnings = append(res.Warnings, fmt.Sprintf("the click landed on %s, part of the element's widget, but the element does not have focus: text typed now would not go into it; click the widget where its text is, or use fill", a.Part))
	}
}
