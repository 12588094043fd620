package browser

import (
	"context"
	"errors"
	"strings"

	"github.com/cdp-skill/cdp-skill/browser/failure"
	"github.com/cdp-skill/cdp-skill/browser/suggest"
)

// Kind is the subtype of an execution error (spec §16.2). Agents branch on it.
type Kind = failure.Kind

// The execution error subtypes (see package failure).
const (
	KindNavigation         = failure.KindNavigation
	KindNavigationAborted  = failure.KindNavigationAborted
	KindTimeout            = failure.KindTimeout
	KindElementNotFound    = failure.KindElementNotFound
	KindElementNotEditable = failure.KindElementNotEditable
	KindStaleElement       = failure.KindStaleElement
	KindPageCrashed        = failure.KindPageCrashed
	KindContextDestroyed   = failure.KindContextDestroyed
	KindStepValidation     = failure.KindStepValidation
	KindJavaScript         = failure.KindJavaScript
	KindAssertion          = failure.KindAssertion
	KindSelector           = failure.KindSelector
	KindExecution          = failure.KindExecution
	KindAmbiguousTarget    = failure.KindAmbiguousTarget
	KindElementIntercepted = failure.KindElementIntercepted
	KindPageUnresponsive   = failure.KindPageUnresponsive
	KindBrowserCrashed     = failure.KindBrowserCrashed
)

// Error is an execution error with a subtype, a message for the agent and
// optional structured details (near matches, available options, …).
type Error = failure.Error

// Errorf builds an *Error of kind.
func Errorf(kind Kind, format string, args ...any) *Error {
	return failure.Errorf(kind, format, args...)
}

// AdviceIn is err's text with the steps of every hint in it written in
// syntax (failure.AdviceIn).
func AdviceIn(err error, syntax suggest.Syntax) string { return failure.AdviceIn(err, syntax) }

// contextDestroyedPatterns are CDP messages that mean the JavaScript context
// went away (navigation, frame removal).
var contextDestroyedPatterns = []string{
	"Cannot find context with specified id",
	"Execution context was destroyed",
	"Inspected target navigated or closed",
	"Cannot find default execution context",
	"Session with given id not found",
	// A frame of the page's own renderer that is gone (a same-site
	// iframe after its parent reloaded): its old context may still be
	// on record, since frame ids are never reused.
	"No frame for given id found",
}

// stalePatterns are CDP messages that mean a node handle is no longer valid.
var stalePatterns = []string{
	"Could not find object with given id",
	"Node with given id does not belong to the document",
	"No node with given id found",
	"Node is detached from document",
	"Could not find node with given id",
}

// KindOf classifies any error into an execution subtype, reading CDP error
// messages where needed.
func KindOf(err error) Kind {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return KindTimeout
	}
	msg := err.Error()
	for _, p := range contextDestroyedPatterns {
		if strings.Contains(msg, p) {
			return KindContextDestroyed
		}
	}
	for _, p := range stalePatterns {
		if strings.Contains(msg, p) {
			return KindStaleElement
		}
	}
	if strings.Contains(msg, "Target crashed") || strings.Contains(msg, "Page crashed") {
		return KindPageCrashed
	}
	return KindExecution
}
