package runtime

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser"
)

// TestAnsweredInTime: when a step's time runs out just as the browser
// answers (a slow machine), a typed outcome of the wait is kept (a missing
// element stays an ElementNotFoundError, as the doc promises) and only an
// error that carries the expired context becomes a TimeoutError.
func TestAnsweredInTime(t *testing.T) {
	notFound := browser.Errorf(browser.KindElementNotFound, `no element matches text "Create account" (waited 2.1s)`)
	for _, tt := range []struct {
		name string
		err  error
		keep bool
	}{
		{"timeout", browser.Errorf(browser.KindTimeout, "did not become ready"), true},
		{"timeout wrapping the context", &browser.Error{Kind: browser.KindTimeout, Message: "x", Err: context.DeadlineExceeded}, true},
		{"not found", notFound, true},
		{"not found inside a hook error", fmt.Errorf("ready_when: %w", notFound), true},
		{"disabled", browser.Errorf(browser.KindElementNotEditable, "is disabled"), true},
		{"covered", browser.Errorf(browser.KindElementIntercepted, "covered"), true},
		{"assertion", browser.Errorf(browser.KindAssertion, "1 of 1 assertion(s) failed"), true},
		{"not found wrapping the context", &browser.Error{Kind: browser.KindElementNotFound, Message: "x", Err: context.DeadlineExceeded}, false},
		{"bare context error", context.DeadlineExceeded, false},
		{"wrapped context error", fmt.Errorf("locate: %w", context.DeadlineExceeded), false},
		{"other typed error", browser.Errorf(browser.KindJavaScript, "boom"), false},
		{"untyped", errors.New("something"), false},
	} {
		if got := answeredInTime(tt.err); got != tt.keep {
			t.Errorf("%s: answeredInTime = %v, want %v", tt.name, got, tt.keep)
		}
	}
}
