package browser

import (
	"errors"
	"fmt"
)

// DetachedError is the one error of a step whose target left the page
// while it ran: the element was re-rendered or removed (KindStaleElement),
// or its frame or document was replaced (KindContextDestroyed). Acting
// says the action's input had started, so the page may have acted and the
// step is not repeated; before that, the template (Page.perform) starts
// the step again from the target's lookup, once.
type DetachedError struct {
	// Kind is KindStaleElement or KindContextDestroyed.
	Kind Kind
	// Action is the step's action ("click", "fill", …); Phase the
	// template's phase it was in (prepare, watch, act, verify).
	Action, Phase string
	// Acting: the error came in or after the action's input.
	Acting bool
	// Target is the step's target, as the agent wrote it.
	Target string
	Err    error
}

func (e *DetachedError) Error() string {
	what := "its element left the page (re-rendered or removed)"
	if e.Kind == KindContextDestroyed {
		what = "its frame or document was replaced (a navigation, a reload, or the frame removed)"
	}
	if !e.Acting {
		return fmt.Sprintf("%s %s: %s before the %s started, twice: take a snapshot and act on what is there now", e.Action, e.Target, what, e.Action)
	}
	return fmt.Sprintf("%s %s: %s during the %s (%v), so the %s may have reached the page: take a snapshot before repeating it", e.Action, e.Target, what, e.Phase, e.Err, e.Action)
}

func (e *DetachedError) Unwrap() error { return e.Err }

// As makes a DetachedError an *Error of its kind, for callers that branch
// on Kind (KindOf, the step's error subtype).
func (e *DetachedError) As(target any) bool {
	if t, ok := target.(**Error); ok {
		*t = &Error{Kind: e.Kind, Message: e.Error(), Err: e.Err}
		return true
	}
	return false
}

// detached turns an error of a template phase into a DetachedError when it
// says the target left the page, and returns any other error as it is.
func detached(s *acting, ac action, phase string, err error) error {
	if err == nil {
		return nil
	}
	var d *DetachedError
	if errors.As(err, &d) {
		return err
	}
	var typed *Error
	if errors.As(err, &typed) && typed.Message != "" {
		// A message of ours already says what happened (a stale ref, a
		// frame gone), with its hint.
		return err
	}
	k := KindOf(err)
	if k != KindStaleElement && k != KindContextDestroyed {
		return err
	}
	acting := phase == "act" || phase == "verify"
	return &DetachedError{Kind: k, Action: ac.kind, Phase: phase, Acting: acting, Target: s.t.String(), Err: err}
}
