package browser

import (
	"encoding/json"

	"github.com/chromedp/cdproto/runtime"
)

// lookupFollow is an evaluation in the engine's world sent right behind an
// element lookup, in the same round trip, on the element the lookup
// returned (the engine's lastElement): the actionability check rides with
// the find of its target. A lookup that is one call in the engine's world
// of the frame it acts in (find, the resolve of a ref) sends it and fills
// ran and raw; any other leaves ran false, and the caller makes its own
// call.
type lookupFollow struct {
	expr string
	// sent runs once, when the lookup and expr are written and before
	// their answers come: what it sends reaches the page after them.
	sent func()
	ran  bool
	// raw is expr's value: null when the lookup returned no element.
	raw json.RawMessage
}

// sentHook returns f's sent once (nil for a nil f, or after the first).
func (f *lookupFollow) sentHook() func() {
	if f == nil || f.sent == nil {
		return nil
	}
	hook := f.sent
	f.sent = nil
	return hook
}

// behind returns the lookup's evaluations with f's after them.
func (f *lookupFollow) behind(lookup ...runtime.EvaluateParams) []runtime.EvaluateParams {
	if f == nil {
		return lookup
	}
	return append(lookup, runtime.EvaluateParams{Expression: engineGuarded(f.expr, "null"), ReturnByValue: ptr(true), AwaitPromise: ptr(true), UserGesture: ptr(true)})
}

// read takes f's answer, the last of rs, when it came without an error or
// exception.
func (f *lookupFollow) read(rs []runtime.EvaluateResult, errs []error) {
	if f == nil {
		return
	}
	f.ran, f.raw = false, nil
	last := len(rs) - 1
	if errs[last] != nil || rs[last].ExceptionDetails != nil || rs[last].Result == nil {
		return
	}
	f.ran, f.raw = true, json.RawMessage(rs[last].Result.Value)
	if len(f.raw) == 0 {
		f.raw = json.RawMessage("null")
	}
}

// found reports whether f ran on an element (its answer is not null).
func (f *lookupFollow) found() bool {
	return f != nil && f.ran && string(f.raw) != "null"
}
