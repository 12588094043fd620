package browser

import (
	"context"
	"time"
)

// guardReport is what a field's guard saw (inpage/focusguard.js).
type guardReport struct {
	// Redirected is where typed text went instead of the field (it was
	// stopped), nil when it all went in.
	Redirected *pressHit `json:"redirected"`
	// Advanced lists the full fields the typing went on from, to the
	// next field the page moved focus to (split code inputs).
	Advanced []string `json:"advanced"`
}

// readGuard reads and disarms the field's guard.
func (el *Element) readGuard(ctx context.Context) (guardReport, error) {
	var r guardReport
	err := el.Call(ctx, &r, `() => `+epReadGuard.js()+`()`)
	return r, err
}

// disarmGuard disarms the field's guard when the action did not read it
// (it failed on the way), even when the step's time is up: a guard left
// armed would stop the keys of later steps. Nothing waits for it.
func (el *Element) disarmGuard(ctx context.Context) {
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	wait, err := el.Send(dctx, `() => `+epReadGuard.js()+`()`)
	if err != nil {
		cancel()
		return
	}
	go func() {
		defer cancel()
		wait(dctx, nil)
	}()
}

// focusStolen is the error of a fill or type whose field lost focus as it
// was focused (a focus handler of the page moved it): nothing was typed.
func focusStolen(to pressHit) error {
	return Errorf(KindElementIntercepted, "focus moved to %s as soon as the field was focused (the page moves it away); nothing was typed, into either", to).
		WithHint("take a snapshot to see which field has focus and why; if the field is the right one, fill it with react: true, which sets its value without typing")
}

// textRedirected is the error of a fill or type whose text was stopped on
// its way to another element: the page moved focus away from the field
// while the text went in.
func textRedirected(to pressHit) error {
	e := Errorf(KindElementIntercepted, "focus moved from the field to %s while the text was being entered (the page moves it away); the text was stopped before %s received any of it, and the field may hold part of it", to, to.Selector)
	e.Details = map[string]any{"focusMovedTo": to}
	return e.WithHint("take a snapshot to see which field has focus and why; if the field is the right one, fill it with react: true, which sets its value without typing")
}
