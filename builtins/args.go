package builtins

import (
	"fmt"
	"math"
	"strings"
	"time"

	"go.starlark.net/starlark"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/lang"
)

// Args are the arguments of an action call: at most one positional value,
// and keyword values keyed by their JSON (camelCase) parameter name.
type Args struct {
	action *lang.Action
	Pos    starlark.Value
	// Opts is the action's typed options struct (a pointer), decoded from
	// the keywords; nil for an action that declares none.
	Opts  any
	kw    map[string]starlark.Value
	order []string
}

// NewArgs validates a call's arguments against the catalog entry. Common
// lifecycle keywords must already be removed.
func NewArgs(a *lang.Action, args starlark.Tuple, kwargs []starlark.Tuple) (*Args, error) {
	out := &Args{action: a, kw: map[string]starlark.Value{}}
	switch len(args) {
	case 0:
	case 1:
		if a.Positional == "" && !a.MapForm {
			return nil, invalid("%s takes no positional argument; use keywords: %s", a.Builtin(), strings.Join(a.Keywords(), ", "))
		}
		out.Pos = args[0]
	default:
		return nil, invalid("%s takes at most one positional argument, got %d", a.Builtin(), len(args))
	}
	for _, kv := range kwargs {
		key := string(kv[0].(starlark.String))
		p, ok := a.Param(key)
		if !ok || p.Keyword() != key {
			return nil, invalid("%s got an unexpected keyword argument %q; valid: %s", a.Builtin(), key, strings.Join(a.Keywords(), ", "))
		}
		out.kw[p.Name] = kv[1]
		out.order = append(out.order, p.Name)
	}
	opts, err := a.DecodeOptions(out.kw)
	if err != nil {
		return nil, invalid("%v", err)
	}
	out.Opts = opts
	return out, nil
}

// options returns the call's decoded options struct of type T. A builtin
// asking for a type its catalog entry does not declare is a programming
// error.
func options[T any](c *Call) *T {
	o, ok := c.Args.Opts.(*T)
	if !ok {
		panic(fmt.Sprintf("builtins: %s declares options %T, not %T", c.Action.Name, c.Args.Opts, o))
	}
	return o
}

// invalid is a validation error of a step's arguments.
func invalid(format string, args ...any) *browser.Error {
	return browser.Errorf(browser.KindStepValidation, format, args...)
}

// Has reports whether the keyword parameter was given (and is not None).
func (a *Args) Has(name string) bool {
	v, ok := a.kw[name]
	return ok && v != starlark.None
}

// Value returns the raw keyword value.
func (a *Args) Value(name string) (starlark.Value, bool) {
	v, ok := a.kw[name]
	if !ok || v == starlark.None {
		return nil, false
	}
	return v, true
}

// Keywords returns the names of the given keyword parameters in call order.
func (a *Args) Keywords() []string { return a.order }

// String returns a string parameter.
func (a *Args) String(name string) (string, error) {
	v, ok := a.Value(name)
	if !ok {
		return "", nil
	}
	s, ok := starlark.AsString(v)
	if !ok {
		return "", invalid("%s: %s must be a string, not %s", a.action.Builtin(), lang.SnakeCase(name), v.Type())
	}
	return s, nil
}

// Bool returns a bool parameter (def when absent).
func (a *Args) Bool(name string, def bool) (bool, error) {
	v, ok := a.Value(name)
	if !ok {
		return def, nil
	}
	b, ok := v.(starlark.Bool)
	if !ok {
		return false, invalid("%s: %s must be True or False, not %s", a.action.Builtin(), lang.SnakeCase(name), v.Type())
	}
	return bool(b), nil
}

// Int returns an integer parameter (def when absent).
func (a *Args) Int(name string, def int) (int, error) {
	v, ok := a.Value(name)
	if !ok {
		return def, nil
	}
	n, err := toInt(v)
	if err != nil {
		return 0, invalid("%s: %s %v", a.action.Builtin(), lang.SnakeCase(name), err)
	}
	return n, nil
}

// Float returns a number parameter (def when absent).
func (a *Args) Float(name string, def float64) (float64, error) {
	v, ok := a.Value(name)
	if !ok {
		return def, nil
	}
	f, ok := starlark.AsFloat(v)
	if !ok {
		return 0, invalid("%s: %s must be a number, not %s", a.action.Builtin(), lang.SnakeCase(name), v.Type())
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, invalid("%s: %s must be a finite number, not %v", a.action.Builtin(), lang.SnakeCase(name), f)
	}
	return f, nil
}

// Duration returns a duration parameter given in ms or as "500ms", "2s".
func (a *Args) Duration(name string, def time.Duration) (time.Duration, error) {
	v, ok := a.Value(name)
	if !ok {
		return def, nil
	}
	d, err := ToDuration(v)
	if err != nil {
		return 0, invalid("%s: %s %v", a.action.Builtin(), lang.SnakeCase(name), err)
	}
	return d, nil
}

// Data returns a keyword parameter converted to JSON-shaped Go data.
func (a *Args) Data(name string) (any, error) {
	v, ok := a.Value(name)
	if !ok {
		return nil, nil
	}
	return FromStarlark(v)
}

// ToDuration reads an int/float of milliseconds or a Go duration string.
func ToDuration(v starlark.Value) (time.Duration, error) { return lang.ToDuration(v) }

func toInt(v starlark.Value) (int, error) { return lang.ToInt(v) }

// Params echoes the call's arguments as JSON-shaped data, as the agent
// would have written them (camelCase keys).
func (a *Args) Params() any {
	if len(a.order) == 0 {
		if a.Pos == nil {
			if a.action != nil && a.action.Positional != "" {
				// An action that takes a value was given none: the
				// agent wrote {} (true is the form of actions that
				// take none).
				return &lang.Object{Values: map[string]any{}}
			}
			return true
		}
		v, err := FromStarlark(a.Pos)
		if err != nil {
			return a.Pos.String()
		}
		return v
	}
	o := &lang.Object{Values: map[string]any{}}
	if a.Pos != nil {
		v, _ := FromStarlark(a.Pos)
		o.Keys = append(o.Keys, "value")
		o.Values["value"] = v
	}
	for _, k := range a.order {
		v, err := FromStarlark(a.kw[k])
		if err != nil {
			v = a.kw[k].String()
		}
		o.Keys = append(o.Keys, k)
		o.Values[k] = v
	}
	return o
}

// posString reads the positional argument as a string.
func posString(c *Call, what string) (string, error) {
	if s, ok := starlark.AsString(c.Args.Pos); ok {
		return s, nil
	}
	return "", invalid("%s takes %s, not %s", c.Action.Builtin(), what, c.Args.Pos.Type())
}
