package browser

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"
)

// PollResult is the outcome of polling a predicate.
type PollResult struct {
	Resolved bool            `json:"resolved"`
	Value    json.RawMessage `json:"value,omitempty"`
	Elapsed  time.Duration   `json:"-"`
}

var functionPattern = lazyRegexp(`^\s*(async\s+)?(function\b|[A-Za-z_$][\w$]*\s*=>)`)

// IsFunctionSource reports whether src is a JavaScript function expression
// (function …, async …, x => …, (a, b) => …) rather than a bare expression.
func IsFunctionSource(src string) bool {
	if functionPattern().MatchString(src) {
		return true
	}
	s := strings.TrimSpace(src)
	s = strings.TrimPrefix(s, "async")
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "(") {
		return false
	}
	// Find the parenthesis that closes the first one, then look for =>.
	depth := 0
	inStr := rune(0)
	for i, r := range s {
		switch {
		case inStr != 0:
			if r == inStr && (i == 0 || s[i-1] != '\\') {
				inStr = 0
			}
		case r == '\'' || r == '"' || r == '`':
			inStr = r
		case r == '(':
			depth++
		case r == ')':
			depth--
			if depth == 0 {
				return strings.HasPrefix(strings.TrimSpace(s[i+1:]), "=>")
			}
		}
	}
	return false
}

// FunctionExpr returns a JavaScript expression that evaluates to a function
// for src: src itself when it is a function, or a function returning the
// bare expression.
func FunctionExpr(src string) string {
	if IsFunctionSource(src) {
		return "(" + src + ")"
	}
	return "(() => (" + src + "))"
}

var pollJS = `async (interval, budget) => {
  const pred = %s;
  const end = performance.now() + budget;
  for (;;) {
    let v, err;
    try { v = await pred(); } catch (e) { err = String(e && e.message || e); }
    const ser = (x, keep) => { try { return SERIALIZE(x, keep); } catch { return x === undefined ? null : x; } };
    if (err === undefined && v) return {ok: true, value: ser(v, true)};
    const left = end - performance.now();
    if (left <= 0) return {ok: false, value: err !== undefined ? {error: err} : (v === undefined ? null : ser(v))};
    // Never sleep past the slice's end: the last value must come back
    // before the caller's deadline.
    await new Promise(r => setTimeout(r, Math.min(interval, left)));
  }
}`

// pollSliceMin is the shortest slice worth starting: below it the poll
// ends with the last value it has.
const pollSliceMin = 5 * time.Millisecond

// Poll evaluates the JavaScript predicate src in the page every interval
// until it returns a truthy value or ctx ends. Polling runs inside the page
// in slices, so a navigation in between only restarts the slice.
func (sc *Scripts) Poll(ctx context.Context, src string, interval time.Duration) (*PollResult, error) {
	return sc.PollWith(ctx, src, PollOptions{Interval: interval})
}

// PollOptions tune a poll.
type PollOptions struct {
	// Interval is the time between evaluations (0: 100 ms).
	Interval time.Duration
	// Typed gives every value in the spec's {type, value} shape (as
	// FunctionOptions.Typed does for a page function).
	Typed bool
}

// PollWith is Poll with options.
func (sc *Scripts) PollWith(ctx context.Context, src string, o PollOptions) (*PollResult, error) {
	p := sc.p
	interval := o.Interval
	if interval <= 0 {
		interval = 100 * time.Millisecond
	}
	start := time.Now()
	// Values come back through the serializer in the page's world, a
	// function literal in the poll (best effort: when the page broke it
	// they come back as JSON has them); only a resolved value leaves its
	// elements in the channel, for their refs.
	ch := newPageChannel()
	fn := strings.Replace(strings.ReplaceAll(pollJS, "SERIALIZE", ch.serializer(o.Typed)), "%s", FunctionExpr(src), 1)
	last := &PollResult{}
	for {
		budget := 1500 * time.Millisecond
		if last.Value == nil {
			// The first slice evaluates once and answers at once, so a
			// value is in hand after one round trip however loaded the
			// machine is.
			budget = 0
		} else if dl, ok := ctx.Deadline(); ok {
			// Each slice takes at most half the time left, so slices
			// keep coming back (with their last value) however slow the
			// round trips are, and a timeout still reports lastValue.
			left := time.Until(dl)
			if left/2 < pollSliceMin {
				last.Elapsed = time.Since(start)
				return last, nil
			}
			budget = max(0, min(budget, left/2))
		}
		var out struct {
			OK    bool            `json:"ok"`
			Value json.RawMessage `json:"value"`
		}
		expr, err := callExpr(fn, interval.Milliseconds(), budget.Milliseconds())
		if err != nil {
			return nil, err
		}
		var raw json.RawMessage
		// V8's timeout stops a predicate that never returns.
		raw, err = sc.evalTimeout(ctx, expr, budget+time.Second)
		if err == nil {
			err = json.Unmarshal(raw, &out)
		}
		if err != nil {
			if ctx.Err() != nil {
				last.Elapsed = time.Since(start)
				return last, nil
			}
			var js *JSError
			if errors.As(err, &js) {
				return nil, js
			}
			if !p.navigationGone(err) {
				return nil, err
			}
			if err := Sleep(ctx, interval); err != nil {
				last.Elapsed = time.Since(start)
				return last, nil
			}
			continue
		}
		last = &PollResult{Resolved: out.OK, Value: out.Value, Elapsed: time.Since(start)}
		if out.OK {
			last.Value = sc.withRefs(ctx, last.Value, ch)
		}
		if out.OK || ctx.Err() != nil {
			return last, nil
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < 30*time.Millisecond {
			return last, nil
		}
	}
}
