package runtime

import (
	"fmt"
	"sync"

	"go.starlark.net/starlark"

	"github.com/cdp-skill/cdp-skill/builtins"
	"github.com/cdp-skill/cdp-skill/lang"
)

// actionImpl is a catalog action with its implementation and Starlark name.
type actionImpl struct {
	action *lang.Action
	impl   builtins.ActionFunc
	name   string
}

// implemented lists the catalog actions that have an implementation, once
// per process (every program predeclares them all).
var implemented = sync.OnceValue(func() []actionImpl {
	var list []actionImpl
	for _, a := range lang.Actions() {
		if impl, ok := builtins.Lookup(a.Name); ok {
			list = append(list, actionImpl{a, impl, a.Builtin()})
		}
	}
	return list
})

// buildPredeclared assembles the names every recipe sees: each catalog
// action wrapped in the lifecycle, the getters of package builtins, the
// language helpers of the runtime, and args.
func (h *host) buildPredeclared() starlark.StringDict {
	d := make(starlark.StringDict, len(implemented())+len(builtins.Functions())+8)
	for _, ai := range implemented() {
		d[ai.name] = h.actionBuiltin(ai.name, ai.action, ai.impl)
	}
	for name, fn := range builtins.Functions() {
		d[name] = fn
	}
	d["configure"] = starlark.NewBuiltin("configure", h.configure)
	d["with_hooks"] = starlark.NewBuiltin("with_hooks", h.withHooks)
	d["fail"] = starlark.NewBuiltin("fail", failBuiltin)
	for _, name := range []string{"str", "repr", "print"} {
		d[name] = boundedFormat(name, h.mem)
	}
	addBudgeted(d, h.mem)
	d["args"] = argsDict(h.prog.Args)
	return d
}

// configure(timeout=, capture=, strict=, stop_on_error=) sets program-wide
// defaults.
func (h *host) configure(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var timeout, capture starlark.Value
	strict := h.env.Strict
	stop := !h.keepGoing
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "timeout?", &timeout, "capture?", &capture, "strict?", &strict, "stop_on_error?", &stop); err != nil {
		return nil, err
	}
	h.env.Strict = strict
	h.keepGoing = !stop
	if timeout != nil && timeout != starlark.None {
		d, note, err := builtins.ToTimeout(timeout)
		if err != nil {
			return nil, fmt.Errorf("configure: timeout %v", err)
		}
		if note != "" {
			h.env.Warn("configure: " + note)
		}
		h.stepTimeout = clampTimeout(d)
	}
	if capture != nil && capture != starlark.None {
		if err := h.setCapture(capture); err != nil {
			return nil, fmt.Errorf("configure: %w", err)
		}
	}
	return starlark.None, nil
}

// with_hooks(body, ready_when=, settled_when=, observe=) applies hooks to
// every action inside body() that does not set its own.
func (h *host) withHooks(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var body starlark.Callable
	var ready, settled, observe starlark.Value
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "body", &body, "ready_when?", &ready, "settled_when?", &settled, "observe?", &observe); err != nil {
		return nil, err
	}
	var set hookSet
	var err error
	if set.ready, err = builtins.ParsePredicate("ready_when", ready); err != nil {
		return nil, err
	}
	if set.settled, err = builtins.ParsePredicate("settled_when", settled); err != nil {
		return nil, err
	}
	if set.observe, err = builtins.ParsePredicate("observe", observe); err != nil {
		return nil, err
	}
	h.hooks = append(h.hooks, set)
	defer func() { h.hooks = h.hooks[:len(h.hooks)-1] }()
	return starlark.Call(th, body, nil, nil)
}

func failBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var msg string
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &msg); err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("%s", msg)
}
