package builtins

import (
	"context"
	"fmt"
	"time"

	"go.starlark.net/starlark"
)

// Predicate is a hook or poll condition: JavaScript source evaluated in the
// page, or a Starlark callable run by the interpreter.
type Predicate struct {
	JS string
	Fn starlark.Callable
	// Typed asks a JavaScript predicate's values in the spec's
	// {type, value} shape (poll's serialize: true).
	Typed bool
}

// ParsePredicate accepts a JavaScript string or a Starlark callable; None
// (or nil) gives nil.
func ParsePredicate(name string, v starlark.Value) (*Predicate, error) {
	switch x := v.(type) {
	case nil, starlark.NoneType:
		return nil, nil
	case starlark.String:
		if string(x) == "" {
			return nil, invalid("%s is empty: give JavaScript such as \"() => !document.querySelector('.spinner')\" or a function", name)
		}
		return &Predicate{JS: string(x)}, nil
	case starlark.Callable:
		return &Predicate{Fn: x}, nil
	}
	return nil, invalid("%s must be JavaScript source (a string) or a function, not %s", name, v.Type())
}

// String describes the predicate for messages.
func (p *Predicate) String() string {
	if p.Fn != nil {
		return fmt.Sprintf("function %s", p.Fn.Name())
	}
	return p.JS
}

// PollOutcome is the result of polling a predicate.
type PollOutcome struct {
	Resolved bool
	// Value is the last value, JSON-shaped.
	Value   any
	Elapsed time.Duration
}

// Poller evaluates predicates. The runtime implements it, because Starlark
// callables run on threads it owns, each with its own step budget.
type Poller interface {
	// Poll evaluates p every interval until it is truthy or ctx ends.
	Poll(ctx context.Context, p *Predicate, interval time.Duration) (PollOutcome, error)
	// Observe evaluates p once and returns its value.
	Observe(ctx context.Context, p *Predicate) (any, error)
}
