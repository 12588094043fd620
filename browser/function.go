package browser

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/runtime"
)

// FunctionOptions tune Scripts.Run (spec §12.1).
type FunctionOptions struct {
	// Refs hands the function the live elements of refs: true passes one
	// object mapping every ref to its element; a list passes the elements
	// of those refs as arguments, in order.
	Refs any
	// Plain returns the JSON value as is instead of type-tagging values
	// JSON cannot carry (Date, Map, Element, NaN, undefined…).
	Plain bool
	// Typed wraps every value as {type, value}, the spec's serializer shape
	// (§12.1, §17.7): {"type":"number","value":3}, arrays and plain objects
	// with their members wrapped in turn.
	Typed bool
	// Timeout aborts a long evaluation.
	Timeout time.Duration
}

// Scripts runs the agent's JavaScript in the tab: a function or
// expression (with the elements of refs handed over), a poll until a
// value is truthy, a pipeline of operations. Reach it by Page.Scripts.
type Scripts struct {
	p *Page
}

// Run runs agent-supplied JavaScript: a function expression is
// called (with the ref elements when asked), anything else is evaluated as
// a bare expression (statements allowed, the completion value is returned).
// Promises are awaited. The value goes through the serializer unless Plain.
func (sc *Scripts) Run(ctx context.Context, src string, o ...FunctionOptions) (json.RawMessage, error) {
	var opts FunctionOptions
	if len(o) > 0 {
		opts = o[0]
	}
	src = strings.TrimSpace(src)
	if src == "" {
		return nil, Errorf(KindStepValidation, "empty JavaScript")
	}
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	} else if dl, ok := ctx.Deadline(); ok {
		// A busy loop in page code cannot be cancelled by the context:
		// V8's own timeout stops it, so the tab never stays frozen.
		opts.Timeout = time.Until(dl)
	}
	var raw json.RawMessage
	var err error
	if IsFunctionSource(src) {
		raw, err = sc.runFunctionSource(ctx, src, opts)
	} else {
		if opts.Refs != nil {
			return nil, Errorf(KindStepValidation, "refs need a function that takes them, e.g. \"(els) => els.s1e4.textContent\"")
		}
		raw, err = sc.runExpression(ctx, src, opts)
	}
	if err != nil {
		var js *JSError
		if errors.As(err, &js) {
			js.Source = src
			return nil, explainJSError(js, src)
		}
		if ctx.Err() != nil && opts.Timeout > 0 {
			return nil, Errorf(KindTimeout, "the JavaScript did not finish within %s", opts.Timeout)
		}
		return nil, err
	}
	return raw, nil
}

// runFunctionSource calls a function in one evaluation. The serializer
// its value goes through is a function literal in the evaluation, and the
// refs' elements reach it through a channel named at random for the call
// (pagechannel.go): nothing of cdp-skill's stays in the page's world.
func (sc *Scripts) runFunctionSource(ctx context.Context, src string, opts FunctionOptions) (json.RawMessage, error) {
	ch := newPageChannel()
	args, err := sc.handOverRefs(ctx, opts.Refs, ch)
	defer sc.releaseGroups(ctx, handoverGroup)
	if err != nil {
		return nil, err
	}
	ser := ch.serializer(opts.Typed) + "(v, true)"
	if opts.Plain {
		ser = "(v === undefined ? null : JSON.parse(JSON.stringify(v) ?? 'null'))"
	}
	expr := `(async () => {
const v = await (` + src + `)(...` + args + `);
return ` + ser + `;
})()`
	raw, err := sc.evalTimeout(ctx, expr, opts.Timeout)
	if err != nil {
		if args != "[]" {
			// The function did not run: the refs' elements may still be
			// in the channel.
			sess, ctxID := sc.p.exec(ctx)
			ch.drop(sess, ctxID)
		}
		return nil, err
	}
	return sc.withRefs(ctx, raw, ch), nil
}

// handoverGroup holds the remote objects of a handover until the
// function ran.
const handoverGroup = "cdp-skill-handover"

// handOverRefs passes the elements of refs from the engine's world, where
// refs live, to the page's, where agent JavaScript runs (by backend node
// id, worldhandover.go, then through ch), and returns the argument list
// expression that receives them: one object of every live ref (refs true)
// or the listed refs' elements in order.
func (sc *Scripts) handOverRefs(ctx context.Context, refs any, ch pageChannel) (string, error) {
	p := sc.p
	var list any
	switch r := refs.(type) {
	case bool:
		if !r {
			return "[]", nil
		}
		list = true
	case []string:
		list = r
	default:
		return "[]", nil
	}
	data, _ := json.Marshal(list)
	els, namesRes, err := p.engineEvaluateBoth(ctx,
		runtime.EvaluateParams{Expression: epRefElementList.js() + "(" + string(data) + ")", ObjectGroup: handoverGroup},
		runtime.EvaluateParams{Expression: "window.__cdpSkill.lastHandOver", ReturnByValue: ptr(true)})
	if err != nil {
		return "", p.frameGone(ctx, err)
	}
	if els.ExceptionDetails != nil {
		return "", engineError("refs", &JSError{Text: exceptionText(els.ExceptionDetails)})
	}
	var names []string
	if namesRes.Result != nil {
		json.Unmarshal(namesRes.Result.Value, &names)
	}
	sess, mainCtx := p.exec(ctx)
	items, err := arrayItems(ctx, sess, els.Result.ObjectID)
	if err != nil {
		return "", err
	}
	moved := moveElements(ctx, sess, items, mainCtx, handoverGroup)
	for i, m := range moved {
		if m == "" && i < len(names) {
			return "", Errorf(KindStaleElement, "ref %s: its element could not be handed to the page's JavaScript", names[i]).
				WithHint("take a new snapshot and pass its refs")
		}
	}
	take := "[]"
	if len(moved) > 0 {
		r, err := cdp.Call(ctx, sess, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
			FunctionDeclaration: ch.put(),
			ObjectID:            moved[0],
			Arguments:           objectArgs(moved),
		})
		if err == nil && r.ExceptionDetails != nil {
			err = &JSError{Text: exceptionText(r.ExceptionDetails)}
		}
		if err != nil {
			return "", fmt.Errorf("hand the refs' elements to the page: %w", err)
		}
		take = "(" + ch.take() + " || [])"
	}
	if list == true {
		data, _ := json.Marshal(names)
		return "[((h, n) => Object.fromEntries(n.map((r, i) => [r, h[i]])))(" + take + ", " + string(data) + ")]", nil
	}
	return take, nil
}

// withRefs fills in the refs of the elements a value serialized in the
// page's world holds (the placeholders keyed by ch): those elements go to
// the engine's world (where refs live) by backend node id, and their refs
// come back. Only values with elements pay the round trips; an element
// without a ref keeps none.
func (sc *Scripts) withRefs(ctx context.Context, raw json.RawMessage, ch pageChannel) json.RawMessage {
	if !bytes.Contains(raw, []byte(`"`+ch.key+`"`)) {
		return raw
	}
	refs := sc.refsOfSerialized(ctx, ch)
	pat := ch.refPattern()
	return pat.ReplaceAllFunc(raw, func(m []byte) []byte {
		i, _ := strconv.Atoi(string(pat.FindSubmatch(m)[1]))
		if i < len(refs) && refs[i] != nil {
			return []byte(`,"ref":` + jsString(*refs[i]))
		}
		return nil
	})
}

// refsOfSerialized answers the refs of the elements the page's serializer
// left in ch (nil entries: no ref).
func (sc *Scripts) refsOfSerialized(ctx context.Context, ch pageChannel) []*string {
	p := sc.p
	defer sc.releaseGroups(ctx, handoverGroup)
	sess, mainCtx := p.exec(ctx)
	res, err := cdp.Call(ctx, sess, runtime.Evaluate, runtime.EvaluateParams{Expression: ch.take(), ContextID: mainCtx, ObjectGroup: handoverGroup})
	if err != nil || res.Result == nil || res.Result.ObjectID == "" {
		return nil
	}
	items, err := arrayItems(ctx, sess, res.Result.ObjectID)
	if err != nil || len(items) == 0 {
		return nil
	}
	_, world, err := p.engineExec(ctx)
	if err != nil {
		return nil
	}
	moved := moveElements(ctx, sess, items, world, handoverGroup)
	r, err := cdp.Call(ctx, sess, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
		FunctionDeclaration: "function(...els) { return window.__cdpSkill && " + epRefsOf.js() + " ? " + epRefsOf.js() + "(els) : []; }",
		ExecutionContextID:  world,
		Arguments:           objectArgs(moved),
		ReturnByValue:       ptr(true),
	})
	var refs []*string
	if err == nil && r.Result != nil {
		json.Unmarshal(r.Result.Value, &refs)
	}
	return refs
}

// releaseGroups frees object groups of the current frame's session.
func (sc *Scripts) releaseGroups(ctx context.Context, groups ...string) {
	p := sc.p
	sess, _ := p.exec(ctx)
	for _, g := range groups {
		p.releaseGroup(sess, g)
	}
}

// runExpression evaluates a bare expression (its completion value), then
// serializes the result object in a second call when it is not plain data.
func (sc *Scripts) runExpression(ctx context.Context, src string, opts FunctionOptions) (json.RawMessage, error) {
	p := sc.p
	sess, ctxID := p.exec(ctx)
	params := runtime.EvaluateParams{Expression: src, ContextID: ctxID, AwaitPromise: ptr(true), UserGesture: ptr(true)}
	if opts.Timeout > 0 {
		params.Timeout = runtime.TimeDelta(opts.Timeout.Milliseconds())
	}
	res, err := cdp.Call(ctx, sess, runtime.Evaluate, params)
	if err != nil {
		return nil, err
	}
	if res.ExceptionDetails != nil {
		return nil, &JSError{Text: exceptionText(res.ExceptionDetails)}
	}
	if opts.Typed && !opts.Plain {
		return sc.serializeTyped(ctx, res.Result)
	}
	return sc.serializeRemote(ctx, res.Result, opts.Plain)
}

// serializeTyped is serializeRemote in the spec's {type, value} shape.
func (sc *Scripts) serializeTyped(ctx context.Context, o *runtime.RemoteObject) (json.RawMessage, error) {
	p := sc.p
	switch {
	case o == nil || o.Type == "undefined" || o.UnserializableValue != "":
		return sc.serializeRemote(ctx, o, false)
	case o.ObjectID == "":
		if o.Type == "object" || len(o.Value) == 0 {
			return json.RawMessage(`{"type":"null","value":null}`), nil
		}
		return json.Marshal(map[string]any{"type": string(o.Type), "value": json.RawMessage(o.Value)})
	}
	defer p.release(ctx, o.ObjectID)
	ch := newPageChannel()
	var raw json.RawMessage
	err := p.element(ctx, o.ObjectID).Call(ctx, &raw, `(v) => `+ch.serializer(true)+`(v, true)`)
	return sc.withRefs(ctx, raw, ch), err
}

// serializeRemote turns a remote object into the serializer's JSON (or,
// plain, into what JSON.stringify makes of it).
func (sc *Scripts) serializeRemote(ctx context.Context, o *runtime.RemoteObject, plain bool) (json.RawMessage, error) {
	p := sc.p
	if plain && (o == nil || o.Type == "undefined" || o.UnserializableValue != "") {
		return json.RawMessage("null"), nil
	}
	switch {
	case o == nil || o.Type == "undefined":
		return json.RawMessage(`{"type":"undefined"}`), nil
	case o.UnserializableValue != "":
		v := string(o.UnserializableValue)
		if o.Type == "bigint" {
			return json.Marshal(map[string]string{"type": "bigint", "value": strings.TrimSuffix(v, "n")})
		}
		return json.Marshal(map[string]string{"type": "number", "value": v})
	case o.ObjectID == "":
		if len(o.Value) == 0 {
			return json.RawMessage("null"), nil
		}
		return json.RawMessage(o.Value), nil
	}
	defer p.release(ctx, o.ObjectID)
	ch := newPageChannel()
	fn := `(v) => ` + ch.serializer(false) + `(v, true)`
	if plain {
		fn = `(v) => JSON.parse(JSON.stringify(v) ?? 'null')`
	}
	var raw json.RawMessage
	err := p.element(ctx, o.ObjectID).Call(ctx, &raw, fn)
	return sc.withRefs(ctx, raw, ch), err
}

// evalTimeout is Eval with Runtime.evaluate's own timeout (it stops a busy
// loop, which a context deadline cannot).
func (sc *Scripts) evalTimeout(ctx context.Context, expr string, timeout time.Duration) (json.RawMessage, error) {
	p := sc.p
	sess, ctxID := p.exec(ctx)
	params := runtime.EvaluateParams{Expression: expr, ContextID: ctxID, ReturnByValue: ptr(true), AwaitPromise: ptr(true), UserGesture: ptr(true)}
	if timeout > 0 {
		params.Timeout = runtime.TimeDelta(timeout.Milliseconds())
	}
	return evaluate(ctx, sess, params, "")
}

// explainJSError adds the shell-escaping diagnostic of spec §12.1 to a
// syntax error whose source looks mangled.
func explainJSError(js *JSError, src string) error {
	e := &Error{Kind: KindJavaScript, Message: js.Error(), Err: js}
	if strings.Contains(js.Text, "SyntaxError") {
		if problem := unbalanced(src); problem != "" {
			e.Hint = "the source has " + problem + ": this usually means the shell ate quotes or braces. Pass the JSON in single quotes, or write the step in a recipe file"
		}
	}
	return e
}

// unbalanced reports unbalanced quotes, braces, brackets or parentheses.
func unbalanced(src string) string {
	pairs := map[rune]rune{')': '(', ']': '[', '}': '{'}
	var stack []rune
	var quote rune
	escaped := false
	for _, r := range src {
		if quote != 0 {
			switch {
			case escaped:
				escaped = false
			case r == '\\':
				escaped = true
			case r == quote:
				quote = 0
			}
			continue
		}
		switch r {
		case '\'', '"', '`':
			quote = r
		case '(', '[', '{':
			stack = append(stack, r)
		case ')', ']', '}':
			if len(stack) == 0 || stack[len(stack)-1] != pairs[r] {
				return "an unmatched " + string(r)
			}
			stack = stack[:len(stack)-1]
		}
	}
	if quote != 0 {
		return "an unterminated " + string(quote) + " string"
	}
	if len(stack) > 0 {
		return "an unclosed " + string(stack[len(stack)-1])
	}
	return ""
}
