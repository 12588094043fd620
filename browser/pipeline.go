package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// PipelineOp is one micro-operation of a pipeline (spec §12.3): find with
// fill/click/type/check/select, or waitFor, sleep, return.
type PipelineOp map[string]any

// PipelineResult is a pipeline's answer.
type PipelineResult struct {
	Completed bool              `json:"completed"`
	Steps     int               `json:"steps"`
	FailedAt  *int              `json:"failedAt,omitempty"`
	Error     string            `json:"error,omitempty"`
	Results   []json.RawMessage `json:"results"`
	Effect
}

// pipelineActions are the verbs that go with find.
var pipelineActions = []string{"fill", "click", "type", "check", "select"}

// CompilePipeline turns the operations into one async JavaScript function,
// so the whole sequence costs one evaluation. Bad operations are reported
// with their index before anything runs.
func CompilePipeline(ops []PipelineOp) (string, error) {
	if len(ops) == 0 {
		return "", Errorf(KindStepValidation, "pipeline has no steps")
	}
	var b strings.Builder
	// The operations' surface is a function literal the expression calls
	// (inpage/pipeline.js): nothing of it stays in the page's world.
	b.WriteString("(async () => {\nconst E = (" + pipelineBundle().source + ")();\n")
	b.WriteString(pipelinePrelude)
	for i, op := range ops {
		code, err := compileOp(i, op)
		if err != nil {
			return "", err
		}
		if i == len(ops)-1 {
			// A last click may navigate; run it after the answer is on
			// its way, so the navigation cannot swallow the answer.
			code = strings.Replace(code, "el.click();", "setTimeout(() => el.click(), 0);", 1)
		}
		fmt.Fprintf(&b, "i = %d;\n%s\n", i, code)
	}
	fmt.Fprintf(&b, "return {completed: true, steps: %d, results};\n} catch (e) {\nreturn {completed: false, steps: %d, failedAt: i, error: String(e && e.message || e), results};\n}\n})()", len(ops), len(ops))
	return b.String(), nil
}

// pipelinePrelude follows the surface E: what every pipeline defines.
const pipelinePrelude = `const results = [];
let i = 0;
const find = (sel) => {
  let el = null;
  try { el = E.find({selector: sel}); } catch (e) { throw new Error('invalid selector ' + JSON.stringify(sel) + ': ' + e.message); }
  if (!el) throw new Error('no element matches ' + JSON.stringify(sel));
  return el;
};
const waitFor = async (pred, timeout) => {
  const end = performance.now() + timeout;
  for (;;) {
    let v; try { v = await pred(); } catch (e) { v = false; }
    if (v) return E.serialize(v);
    if (performance.now() >= end) throw new Error('waitFor did not hold within ' + timeout + ' ms');
    await new Promise((r) => setTimeout(r, 100));
  }
};
const typeInto = (el, text) => {
  el.focus();
  for (const ch of text) {
    const opts = {key: ch, bubbles: true, cancelable: true, composed: true};
    el.dispatchEvent(new KeyboardEvent('keydown', opts));
    el.dispatchEvent(new KeyboardEvent('keypress', opts));
    if ('value' in el) E.setValue(el, el.value + ch, true); else el.textContent += ch;
    el.dispatchEvent(new KeyboardEvent('keyup', opts));
  }
  if ('value' in el) el.dispatchEvent(new Event('change', {bubbles: true}));
};
try {
`

func compileOp(i int, op PipelineOp) (string, error) {
	str := func(k string) (string, bool) {
		v, ok := op[k]
		if !ok {
			return "", false
		}
		s, isStr := v.(string)
		return s, isStr
	}
	js := func(v any) string {
		data, _ := json.Marshal(v)
		return string(data)
	}
	if sel, ok := str("find"); ok {
		for _, a := range pipelineActions {
			v, has := op[a]
			if !has {
				continue
			}
			switch v.(type) {
			case string, float64, bool:
			default:
				if a != "click" {
					return "", Errorf(KindStepValidation, "pipeline step %d: %s takes a string or a number, not %s", i, a, jsonKind(v)).
						WithHint(`write {"find": %s, "%s": "text"}`, js(sel), a)
				}
			}
			switch a {
			case "fill", "select":
				return fmt.Sprintf("{ const el = find(%s); const got = E.setValue(el, String(%s)); results.push({step: %d, %s: true, value: el.type === 'password' ? undefined : got}); }", js(sel), js(v), i, a), nil
			case "click":
				return fmt.Sprintf("{ const el = find(%s); el.click(); results.push({step: %d, clicked: true}); }", js(sel), i), nil
			case "type":
				return fmt.Sprintf("{ const el = find(%s); typeInto(el, String(%s)); results.push({step: %d, typed: true}); }", js(sel), js(v), i), nil
			case "check":
				on, isBool := v.(bool)
				if !isBool {
					return "", Errorf(KindStepValidation, "pipeline step %d: check must be true or false", i)
				}
				return fmt.Sprintf("{ const el = find(%s); if (el.checked !== %t) { el.checked = %t; el.dispatchEvent(new Event('input', {bubbles: true})); el.dispatchEvent(new Event('change', {bubbles: true})); } results.push({step: %d, checked: el.checked}); }", js(sel), on, on, i), nil
			}
		}
		return "", Errorf(KindStepValidation, "pipeline step %d: find needs one of %s", i, strings.Join(pipelineActions, ", "))
	}
	if src, ok := str("waitFor"); ok {
		if cssLike(src) {
			return "", Errorf(KindStepValidation, "pipeline step %d: waitFor takes a JavaScript predicate, and %q looks like a CSS selector", i, src).
				WithHint(`write {"waitFor": "() => document.querySelector('%s')"}`, strings.TrimSpace(src))
		}
		timeout := 10000.0
		if t, has := op["timeout"].(float64); has && t > 0 {
			timeout = t
		}
		return fmt.Sprintf("results.push({step: %d, waited: await waitFor(%s, %g)});", i, FunctionExpr(src), timeout), nil
	}
	if ms, ok := op["sleep"].(float64); ok {
		return fmt.Sprintf("await new Promise((r) => setTimeout(r, %g)); results.push({step: %d, slept: %g});", ms, i, ms), nil
	}
	if src, ok := str("return"); ok {
		return fmt.Sprintf("results.push({step: %d, value: E.serialize(await %s())});", i, FunctionExpr(src)), nil
	}
	var keys []string
	for k := range op {
		keys = append(keys, k)
	}
	return "", Errorf(KindStepValidation, "pipeline step %d (%s) is not an operation: use {find, fill|click|type|check|select}, {waitFor}, {sleep} or {return}", i, strings.Join(keys, ", "))
}

// jsonKind names the JSON kind of a decoded value for errors.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "an object"
	case []any:
		return "a list"
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	}
	return fmt.Sprintf("%T", v)
}

// Pipeline runs the operations in one evaluation in the current frame.
// A failing operation stops the pipeline; the error says which one.
func (sc *Scripts) Pipeline(ctx context.Context, ops []PipelineOp, timeout time.Duration) (*PipelineResult, error) {
	p := sc.p
	src, err := CompilePipeline(ops)
	if err != nil {
		return nil, err
	}
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < timeout {
		timeout = time.Until(dl)
	}
	w, err := p.watch(ctx)
	if err != nil {
		return nil, err
	}
	raw, err := sc.evalTimeout(ctx, src, timeout)
	eff := w.finish(ctx, SettleWindow)
	if err != nil {
		if KindOf(err) == KindContextDestroyed {
			return nil, Errorf(KindContextDestroyed, "the page navigated in the middle of the pipeline (a click or submit before the last operation), so the operations after it did not run").
				WithHint("make the operation that navigates the last one, or split the pipeline")
		}
		return nil, err
	}
	var r PipelineResult
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("pipeline: decode result: %w", err)
	}
	if r.Results == nil {
		r.Results = []json.RawMessage{}
	}
	r.Effect = eff
	if !r.Completed {
		e := Errorf(KindExecution, "pipeline step %d failed: %s", *r.FailedAt, r.Error)
		e.Details = map[string]any{"failedAt": *r.FailedAt, "results": r.Results, "completed": false}
		return &r, e
	}
	return &r, nil
}

// cssLike reports whether src is a CSS selector rather than JavaScript:
// an id, a class or an attribute test first ("#results", ".done",
// "[data-state=ready]"), and no call or arrow.
func cssLike(src string) bool {
	src = strings.TrimSpace(src)
	return src != "" && strings.ContainsRune("#.[", rune(src[0])) && !strings.ContainsAny(src, "();{}") && !strings.Contains(src, "=>")
}
