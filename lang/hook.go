package lang

import (
	"fmt"
	"reflect"

	"go.starlark.net/starlark"
)

// Hook is a predicate parameter: JavaScript source evaluated in the page,
// or (in a recipe) a Starlark function run by the interpreter. It is the
// one option type that holds a Starlark value, because a function cannot
// be turned into data; Fn is nil unless a function was given.
type Hook struct {
	// JS is the JavaScript source ("" when Fn is set).
	JS string
	// Fn is the Starlark function.
	Fn starlark.Callable
}

// IsZero reports whether no hook was given.
func (h Hook) IsZero() bool { return h.JS == "" && h.Fn == nil }

var (
	hookType     = reflect.TypeOf(Hook{})
	callableType = reflect.TypeOf((*starlark.Callable)(nil)).Elem()
)

// decodeHook reads a hook: non-empty JavaScript or a Starlark function.
func decodeHook(v starlark.Value) (Hook, error) {
	switch x := v.(type) {
	case starlark.String:
		if x == "" {
			return Hook{}, fmt.Errorf("is empty: give JavaScript such as \"() => !document.querySelector('.spinner')\" or a function")
		}
		return Hook{JS: string(x)}, nil
	case starlark.Callable:
		return Hook{Fn: x}, nil
	}
	return Hook{}, fmt.Errorf("must be JavaScript source (a string) or a function, not %s", v.Type())
}

// decodeCallable sets a starlark.Callable field (a route handler): only a
// recipe can give one, since JSON has no functions.
func decodeCallable(dst reflect.Value, v starlark.Value, name string, n naming) error {
	fn, ok := v.(starlark.Callable)
	if !ok {
		return n.fail("%s must be a Starlark function (recipes only), not %s", name, v.Type())
	}
	dst.Set(reflect.ValueOf(fn))
	return nil
}
