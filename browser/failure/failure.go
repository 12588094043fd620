// Package failure holds the typed error of a step that failed in the
// browser: its kind (the spec's execution error subtype, §16.2), the
// message, the hint of what to do next (typed steps in Advice, which each
// frontend writes in its own syntax) and structured details. Package
// browser aliases it (browser.Error, browser.Kind…); the leaf packages
// peeled off browser return it too.
package failure

import (
	"errors"
	"fmt"
	"strings"

	"github.com/cdp-skill/cdp-skill/browser/suggest"
)

// Kind is the subtype of an execution error (spec §16.2). Agents branch on it.
type Kind string

// The execution error subtypes.
const (
	KindNavigation         Kind = "NavigationError"
	KindNavigationAborted  Kind = "NavigationAbortedError"
	KindTimeout            Kind = "TimeoutError"
	KindElementNotFound    Kind = "ElementNotFoundError"
	KindElementNotEditable Kind = "ElementNotEditableError"
	KindStaleElement       Kind = "StaleElementError"
	KindPageCrashed        Kind = "PageCrashedError"
	KindContextDestroyed   Kind = "ContextDestroyedError"
	KindStepValidation     Kind = "StepValidationError"
	KindJavaScript         Kind = "JavaScriptError"
	KindAssertion          Kind = "AssertionError"
	KindSelector           Kind = "InvalidSelectorError"
	KindExecution          Kind = "ExecutionError"
	// KindAmbiguousTarget: a text or label matched several distinct
	// controls equally well; Details.candidates lists them with refs.
	KindAmbiguousTarget Kind = "AmbiguousTargetError"
	// KindElementIntercepted: a modal, backdrop or overlay a user would
	// have to dismiss first covers the target; Details.interceptedBy names
	// it and its buttons with refs.
	KindElementIntercepted Kind = "ElementInterceptedError"
	// KindPageUnresponsive: the page's main thread does not answer (a
	// script that never returns, a dialog no command can answer).
	KindPageUnresponsive Kind = "PageUnresponsiveError"
	// KindBrowserCrashed: Chrome itself died since the previous command.
	KindBrowserCrashed Kind = "BrowserCrashedError"
)

// Error is an execution error with a subtype, a message for the agent and
// optional structured details (near matches, available options, …).
type Error struct {
	Kind    Kind
	Message string
	// Hint tells the agent what to do next.
	Hint string
	// Advice, when set, is the hint as typed steps (Hint is its JSON
	// rendering): a frontend writes it in its own syntax (AdviceIn).
	Advice *suggest.Hint
	// Details are merged into the failed step's output.
	Details map[string]any
	Err     error
}

func (e *Error) Error() string {
	msg := e.Message
	if msg == "" && e.Err != nil {
		msg = e.Err.Error()
	}
	if e.Hint != "" && !strings.Contains(msg, e.Hint) {
		msg = strings.TrimRight(msg, ". ") + ". " + e.Hint
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf builds an *Error of kind.
func Errorf(kind Kind, format string, args ...any) *Error {
	return &Error{Kind: kind, Message: fmt.Sprintf(format, args...)}
}

// WithHint sets the hint and returns e.
func (e *Error) WithHint(format string, args ...any) *Error {
	e.Hint = fmt.Sprintf(format, args...)
	return e
}

// WithAdvice sets the hint to h, whose steps each frontend writes in its
// own syntax, and returns e.
func (e *Error) WithAdvice(h *suggest.Hint) *Error {
	e.Advice = h
	e.Hint = h.Render(suggest.JSON)
	return e
}

// Advised is an error whose text holds a typed hint in its JSON
// rendering (TypedHint().Render(suggest.JSON)), for AdviceIn to write in
// a frontend's syntax: an *Error with Advice, or an error of another type
// that builds its text around a hint.
type Advised interface {
	error
	TypedHint() *suggest.Hint
}

// TypedHint is e's hint as typed steps (nil when it has none).
func (e *Error) TypedHint() *suggest.Hint {
	if e.Hint == "" {
		return nil
	}
	return e.Advice
}

// AdviceIn is err's text with the steps of every hint in it written in
// syntax: err.Error() with each typed hint's JSON rendering replaced (the
// hints of err and of the errors it wraps that are Advised).
func AdviceIn(err error, syntax suggest.Syntax) string {
	text := err.Error()
	if syntax == nil {
		return text
	}
	for e := err; e != nil; e = errors.Unwrap(e) {
		a, ok := e.(Advised)
		if !ok {
			continue
		}
		if h := a.TypedHint(); h != nil {
			if j := h.Render(suggest.JSON); j != "" {
				text = strings.ReplaceAll(text, j, h.Render(syntax))
			}
		}
	}
	return text
}
