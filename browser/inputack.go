package browser

import (
	"context"
	"errors"
	"fmt"
)

// Chrome answers an input event only once the renderer handled it: a move
// waits for the page's next frame, a press for its handlers. A renderer
// that is busy (a long script, an event handler that does not return) or a
// tab that is hidden (it draws no frames) leaves the event unanswered. Every
// input call runs on the step's context, so the step still ends at its
// deadline; unacknowledged names the phase that Chrome never acknowledged,
// as a TimeoutError that says what to try.

// ErrUnacknowledged is wrapped by the TimeoutError of an input event Chrome
// never acknowledged (errors.Is): the page did not answer for the rest of
// the step, so a probe of it need not wait long.
var ErrUnacknowledged = errors.New("Chrome did not acknowledge an input event")

// unacknowledged turns the expired step context of an input call into a
// TimeoutError naming action and phase; other errors pass unchanged.
func unacknowledged(ctx context.Context, action, phase string, err error) error {
	if err == nil || ctx.Err() == nil || !errors.Is(err, ctx.Err()) {
		return err
	}
	return &Error{Kind: KindTimeout, Err: fmt.Errorf("%w: %w", ErrUnacknowledged, err),
		Message: fmt.Sprintf("%s: Chrome did not acknowledge the %s before the step's time ran out: the page's main thread is busy (a long script or event handler) or the tab is not in front", action, phase),
		Hint:    "the buttons and keys the step pressed were released; take a snapshot to see whether the page answers again, then retry (raise the step's timeout if the page is only slow)"}
}

// Answers reports whether the tab's page is not known to be crashed or
// unresponsive (see Probe).
func (p *Page) Answers() bool { return p.sess.Fault() == nil }
