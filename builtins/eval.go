package builtins

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/lang"
)

func init() {
	register(map[string]ActionFunc{
		"pageFunction": pageFunction,
	})
}

func pageFunction(c *Call) (any, error) {
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	o := options[lang.PageFunctionOptions](c)
	src := o.Fn
	if src == "" {
		src = o.Expression
	}
	if c.Args.Pos != nil {
		if src, err = posString(c, "JavaScript source"); err != nil {
			return nil, err
		}
	}
	if src == "" {
		return nil, invalid("page_function needs JavaScript").WithAdvice(forExample(`{"pageFunction": "() => document.title"}`))
	}
	var opts browser.FunctionOptions
	switch {
	case o.Refs == nil:
	case o.Refs.List != nil:
		opts.Refs = o.Refs.List
	case o.Refs.All:
		opts.Refs = true
	}
	ser := o.Serialize == nil || *o.Serialize
	// Unset: plain JSON as is, non-JSON values tagged (our shape);
	// serialize: true asks for the spec's {type, value} around every
	// value; false for JSON.stringify's.
	opts.Plain = !ser
	opts.Typed = ser && o.Serialize != nil
	raw, err := p.Scripts().Run(c.Ctx, src, opts)
	if err != nil {
		return nil, err
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	return v, nil
}

func init() {
	register(map[string]ActionFunc{"poll": poll})
}

// poll evaluates a predicate until it holds. Running out of time is not a
// failure: the output says resolved false with the last value, and a warning.
func poll(c *Call) (any, error) {
	o := options[lang.PollOptions](c)
	pred := &Predicate{JS: o.Fn.JS, Fn: o.Fn.Fn}
	if c.Args.Pos != nil {
		var err error
		if pred, err = ParsePredicate("poll", c.Args.Pos); err != nil {
			return nil, err
		}
	}
	if pred == nil || pred.JS == "" && pred.Fn == nil {
		return nil, invalid("poll needs a predicate").WithAdvice(forExample(`{"poll": "() => document.querySelector('#done')"}`))
	}
	if o.Serialize {
		if pred.JS == "" {
			return nil, invalid("poll: serialize applies to a JavaScript predicate; a Starlark function's values are Starlark values already")
		}
		pred.Typed = true
	}
	interval := o.Interval
	// Leave room before the step deadline to report the last value.
	ctx, cancel := context.WithCancel(c.Ctx)
	if dl, ok := c.Ctx.Deadline(); ok {
		ctx, cancel = context.WithDeadline(c.Ctx, dl.Add(-50*time.Millisecond))
	}
	defer cancel()
	docs := -1
	if p, err := c.Env.Page(); err == nil {
		docs = p.Documents()
	}
	res, err := c.Poller.Poll(ctx, pred, interval)
	if err != nil {
		return nil, err
	}
	if res.Resolved {
		return Shaped{map[string]any{"resolved": true, "value": res.Value, "elapsed": res.Elapsed.Milliseconds()}, pollFields}, nil
	}
	warning := fmt.Sprintf("poll did not resolve within %s", res.Elapsed.Round(time.Millisecond))
	if p, err := c.Env.Page(); err == nil && docs >= 0 && p.Documents() != docs {
		warning += "; " + browser.NewDocumentNote + ": take a snapshot to see it"
	}
	c.Warn("%s", warning)
	return Shaped{map[string]any{"resolved": false, "lastValue": res.Value, "elapsed": res.Elapsed.Milliseconds()}, pollFields}, nil
}
