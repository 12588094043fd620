package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"go.starlark.net/starlark"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/builtins"
)

// hookSet holds the three lifecycle hooks; nil means unset.
type hookSet struct {
	ready, settled, observe *builtins.Predicate
}

// merge fills the unset hooks of s from d.
func (s hookSet) merge(d hookSet) hookSet {
	if s.ready == nil {
		s.ready = d.ready
	}
	if s.settled == nil {
		s.settled = d.settled
	}
	if s.observe == nil {
		s.observe = d.observe
	}
	return s
}

const hookInterval = 100 * time.Millisecond

// inHookKey marks threads that run hooks: actions are refused there.
const inHookKey = "cdp-skill.inHook"

// Poll implements builtins.Poller: JavaScript polls inside the page,
// Starlark callables on their own budgeted thread.
func (h *host) Poll(ctx context.Context, p *builtins.Predicate, interval time.Duration) (builtins.PollOutcome, error) {
	if interval <= 0 {
		interval = hookInterval
	}
	start := time.Now()
	if p.JS != "" {
		pg, err := h.env.Page()
		if err != nil {
			return builtins.PollOutcome{}, err
		}
		res, err := pg.Scripts().PollWith(ctx, p.JS, browser.PollOptions{Interval: interval, Typed: p.Typed})
		if err != nil {
			return builtins.PollOutcome{Elapsed: time.Since(start)}, err
		}
		return builtins.PollOutcome{Resolved: res.Resolved, Value: jsonValue(res.Value), Elapsed: res.Elapsed}, nil
	}
	var last any
	for {
		v, err := h.callHook(ctx, p.Fn)
		if err != nil {
			if ctx.Err() != nil {
				return builtins.PollOutcome{Value: last, Elapsed: time.Since(start)}, nil
			}
			return builtins.PollOutcome{Value: last, Elapsed: time.Since(start)}, err
		}
		last, _ = builtins.FromStarlark(v)
		if v.Truth() {
			return builtins.PollOutcome{Resolved: true, Value: last, Elapsed: time.Since(start)}, nil
		}
		if err := browser.Sleep(ctx, interval); err != nil {
			return builtins.PollOutcome{Value: last, Elapsed: time.Since(start)}, nil
		}
	}
}

// Observe implements builtins.Poller: it evaluates p once.
func (h *host) Observe(ctx context.Context, p *builtins.Predicate) (any, error) {
	if p.JS != "" {
		pg, err := h.env.Page()
		if err != nil {
			return nil, err
		}
		raw, err := pg.Scripts().Run(ctx, p.JS)
		if err != nil {
			return nil, err
		}
		return jsonValue(raw), nil
	}
	v, err := h.callHook(ctx, p.Fn)
	if err != nil {
		return nil, err
	}
	return builtins.FromStarlark(v)
}

// callHook calls a Starlark hook on its own thread, with its own step budget
// and the step's context, so a hook that spins forever is stopped without
// ending the program.
func (h *host) callHook(ctx context.Context, fn starlark.Callable) (starlark.Value, error) {
	th := &starlark.Thread{Name: "hook " + fn.Name(), Print: h.print}
	th.SetMaxExecutionSteps(hookMaxSteps)
	th.SetLocal(builtins.EnvKey, h.env)
	th.SetLocal(builtins.CtxKey, ctx)
	th.SetLocal(inHookKey, true)
	stop := context.AfterFunc(ctx, func() { th.Cancel("the step timed out") })
	defer stop()
	v, err := starlark.Call(th, fn, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("hook %s failed: %w", fn.Name(), err)
	}
	return v, nil
}

func jsonValue(raw json.RawMessage) any {
	if len(raw) == 0 {
		return nil
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	return v
}
