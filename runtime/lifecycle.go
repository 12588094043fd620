package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"go.starlark.net/starlark"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/browser/chrome"
	"github.com/cdp-skill/cdp-skill/builtins"
	"github.com/cdp-skill/cdp-skill/lang"
)

// stepFailure is the Go error a failed, non-optional step raises in
// Starlark: it stops the program, and the output reports the step.
type stepFailure struct {
	result     *StepResult
	connection bool
	err        error
}

func (e *stepFailure) Error() string {
	return fmt.Sprintf("%s failed: %s", e.result.Action, e.result.Error)
}

func (e *stepFailure) Unwrap() error { return e.err }

// lifecycleArgs are the common keyword arguments of every action.
type lifecycleArgs struct {
	optional bool
	timeout  time.Duration
	// timeoutNote says the timeout was clamped (builtins.ToTimeout).
	timeoutNote string
	hooks       hookSet
	// outputPath names the file the step's full output is saved to.
	outputPath string
}

// splitLifecycle separates the lifecycle keywords from the action's own.
func splitLifecycle(kwargs []starlark.Tuple) (lifecycleArgs, []starlark.Tuple, error) {
	var la lifecycleArgs
	var rest []starlark.Tuple
	for _, kv := range kwargs {
		key := string(kv[0].(starlark.String))
		v := kv[1]
		var err error
		switch key {
		case "optional":
			b, ok := v.(starlark.Bool)
			if !ok {
				err = fmt.Errorf("optional must be True or False, not %s", v.Type())
			}
			la.optional = bool(b)
		case "timeout":
			if v != starlark.None {
				la.timeout, la.timeoutNote, err = builtins.ToTimeout(v)
				if err != nil {
					err = fmt.Errorf("timeout %v", err)
				}
			}
		case "ready_when":
			la.hooks.ready, err = builtins.ParsePredicate(key, v)
		case "settled_when":
			la.hooks.settled, err = builtins.ParsePredicate(key, v)
		case "observe":
			la.hooks.observe, err = builtins.ParsePredicate(key, v)
		case "output_path":
			s, ok := starlark.AsString(v)
			if !ok || strings.TrimSpace(s) == "" {
				err = fmt.Errorf("output_path must be a file name such as \"rows.json\", not %s", v.Type())
			}
			la.outputPath = s
		default:
			rest = append(rest, kv)
		}
		if err != nil {
			return la, nil, err
		}
	}
	return la, rest, nil
}

// actionBuiltin wraps an action implementation in the step lifecycle.
func (h *host) actionBuiltin(name string, a *lang.Action, impl builtins.ActionFunc) *starlark.Builtin {
	return starlark.NewBuiltin(name, func(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		return h.runStep(th, a, impl, args, kwargs)
	})
}

func (h *host) runStep(th *starlark.Thread, a *lang.Action, impl builtins.ActionFunc, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if th.Local(inHookKey) != nil {
		return nil, fmt.Errorf("%s is an action and cannot run inside a hook; hooks may only read the page (url, exists, text, js, …)", a.Builtin())
	}
	if !a.LooksUpFirst {
		// The URL's answer is read before the step; a lookup goes out
		// behind the read and does not wait for it.
		h.resolveURLBefore()
	}
	res := &StepResult{Action: a.Name}
	if !h.prog.FromJSON {
		res.At = callerPosition(th)
	}
	h.steps = append(h.steps, res)

	la, rest, err := splitLifecycle(kwargs)
	if err != nil {
		return h.fail(res, nil, la, browser.Errorf(browser.KindStepValidation, "%s: %v", a.Builtin(), err))
	}
	target, err := openOutputPath(la.outputPath, h.env.OutputDir)
	if err != nil {
		return h.fail(res, nil, la, err)
	}
	if target != nil {
		defer target.Close()
	}
	call := &builtins.Call{Env: h.env, Thread: th, Action: a, Poller: h, Loader: h.load}
	if la.timeoutNote != "" {
		call.Warnings = append(call.Warnings, la.timeoutNote)
	}
	call.Args, err = builtins.NewArgs(a, args, rest)
	if err != nil {
		return h.fail(res, nil, la, err)
	}
	la.hooks = la.hooks.merge(h.defaultHooks()).merge(h.siteHooks())
	if a.Visual {
		h.visualSteps++
		if h.verb == "" {
			h.verb, h.verbStep = a.Verb, len(h.steps)
		}
		h.beforeVisual()
	}
	dlMark := h.downloadMark()
	timeout := h.stepTimeout
	if la.timeout > 0 {
		timeout = clampTimeout(la.timeout)
	}
	var under pageUnder
	var stepPage *browser.Page
	var stepFrame *browser.Frame
	if p, perr := h.env.Page(); perr == nil {
		stepPage = p
		// The step runs in the frame its command selected (the top
		// document until a frame step), as that frame is now. The frame
		// travels in the step's context; the page holds none.
		leaveGoneFrame(h.env, a, res)
		enterCtx, cancelEnter := context.WithTimeout(h.ctx, timeout)
		stepFrame = p.Frames().Now(enterCtx, h.env.Frame())
		cancelEnter()
		prevFrame := h.stepFrame
		h.stepFrame = stepFrame
		defer func() { h.stepFrame = prevFrame }()
		if a.Name == "recipe" {
			// A recipe's frame steps scope its own steps only.
			defer h.env.SelectFrame(h.env.Frame())
		}
		under = newPageUnder(h.env, p, stepFrame)
		if a.Visual {
			// After the page under the step is noted: a document that
			// comes while the news are read is the step's to explain.
			h.betweenVisual(h.ctx)
			h.lastVisual = &visualMark{step: len(h.steps) - 1, action: a.Name}
			h.captureAhead(p, la)
		}
	}
	// The step's time starts after the news between steps are read.
	ctx, cancel := context.WithTimeout(h.ctx, timeout)
	defer cancel()
	// The step's frame travels in its context. An action on a ref or text
	// inside another frame moves its own context there: its hooks (which
	// run in their own) and the next step run where the command is.
	ctx = browser.WithFrame(ctx, stepFrame)
	actCtx := browser.WithFrame(ctx, stepFrame)
	inner := impl
	impl = func(c *builtins.Call) (any, error) {
		c.Ctx = actCtx
		th.SetLocal(builtins.CtxKey, actCtx)
		defer func() { c.Ctx = ctx; th.SetLocal(builtins.CtxKey, ctx) }()
		return inner(c)
	}
	h.dog.arm(timeout, fmt.Sprintf("step %d (%s)", len(h.steps), a.Name), len(h.steps), a.Name)
	defer h.dog.disarm()
	call.Ctx = ctx
	th.SetLocal(builtins.CtxKey, ctx)
	defer th.SetLocal(builtins.CtxKey, h.ctx)
	out, err := h.lifecycle(ctx, call, impl, la, res)
	// No key, button or drag outlives its step, whatever failed.
	call.Warnings = append(call.Warnings, stepPage.EndStep(h.ctx)...)
	call.Warnings = append(call.Warnings, stepPage.TakeRefusedLoads()...)
	h.endBeforeSent()
	h.noteStepNavigated(a, under, out)
	call.Finish()
	call.Warnings = append(call.Warnings, h.env.TakeWarnings()...)
	h.takeDialogs(res)
	if err != nil {
		switch {
		case errors.Is(h.ctx.Err(), context.Canceled):
			// Whatever the step was waiting for, it ended because the
			// caller stopped it, not because the page answered.
			err = &browser.Error{Kind: browser.KindExecution, Message: fmt.Sprintf("step %d (%s) was cancelled before it finished: the caller cancelled the command or went away", len(h.steps), a.Name), Err: err,
				Hint: "the step may have partly run: take a snapshot to see the page before repeating it"}
		case ctx.Err() != nil && h.ctx.Err() == nil && !answeredInTime(err):
			err = &browser.Error{Kind: browser.KindTimeout, Message: fmt.Sprintf("step %d (%s) did not finish within its %s timeout: %s", len(h.steps), a.Name, timeout, waitingFor(err)), Err: err,
				Hint: "raise the step's timeout if the page is slow, or check that what it waits for can happen"}
		}
		err = h.checkPage(a, timeout, err)
		err = under.explain(h.ctx, a, err)
		if h.env.Frame() == nil {
			// The step's frame went with its page's document: what the
			// failure shows is the top document's.
			h.stepFrame = nil
		}
		if h.verbStep == len(h.steps) && h.verb == a.Verb {
			// What the page shows now is not what the verb would say.
			h.verb = "After the failed " + a.Name
		}
		return h.fail(res, call, la, err)
	}
	res.Status = StatusOK
	under.navigated(a)
	if res.Output, err = h.stepOutput(a, out, target); err != nil {
		return h.fail(res, call, la, err)
	}
	h.noteDownloads(ctx, a, res, dlMark)
	h.noteNavigation(a, out)
	h.noteTree(a, out)
	if e, ok := out.(interface{ NavigatedFrames() []string }); ok {
		h.framesNavigated = append(h.framesNavigated, e.NavigatedFrames()...)
	}
	if ti, ok := out.(builtins.TabInfo); ok && a.AdoptsTab {
		// Attaching to a tab is not navigating it: navigated compares
		// against the URL the tab had when connected.
		h.urlBefore, h.urlPending = ti.URL, nil
	}
	res.Warning = append(res.Warning, call.Warnings...)
	v, err := builtins.ToStarlark(out)
	if err != nil {
		return nil, err
	}
	// Recipes read the observe hook's value from the result too.
	if rec, ok := v.(*builtins.Record); ok && res.Observation != nil {
		if obs, err := builtins.ToStarlark(res.Observation); err == nil {
			v = rec.With("observation", obs)
		}
	}
	return v, nil
}

// lifecycle runs ready_when → action → settled_when → observe.
func (h *host) lifecycle(ctx context.Context, call *builtins.Call, impl builtins.ActionFunc, la lifecycleArgs, res *StepResult) (any, error) {
	if hk := la.hooks.ready; hk != nil {
		res, err := h.Poll(ctx, hk, hookInterval)
		if err != nil {
			return nil, fmt.Errorf("ready_when: %w", err)
		}
		if !res.Resolved {
			return nil, &browser.Error{Kind: browser.KindTimeout,
				Message: fmt.Sprintf("ready_when did not hold within %s (last value: %s)", res.Elapsed.Round(time.Millisecond), brief(res.Value)),
				Hint:    "the action did not run; check the predicate or raise the step timeout"}
		}
	}
	out, err := impl(call)
	if err != nil {
		return nil, err
	}
	if hk := la.hooks.settled; hk != nil {
		res, err := h.Poll(ctx, hk, hookInterval)
		switch {
		case err != nil:
			call.Warn("settled_when failed after %s: %v", res.Elapsed.Round(time.Millisecond), err)
		case !res.Resolved:
			call.Warn("settled_when did not hold within %s (last value: %s)", res.Elapsed.Round(time.Millisecond), brief(res.Value))
		}
	}
	if hk := la.hooks.observe; hk != nil {
		octx := ctx
		if ctx.Err() != nil {
			var cancel context.CancelFunc
			octx, cancel = context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			defer cancel()
		}
		obs, err := h.Observe(octx, hk)
		if err != nil {
			call.Warn("observe failed: %v", err)
		} else {
			res.Observation = obs
		}
	}
	return out, nil
}

// fail records a failed step; an optional step is skipped and returns None,
// and so does any failed step under stop_on_error = False.
func (h *host) fail(res *StepResult, call *builtins.Call, la lifecycleArgs, err error) (starlark.Value, error) {
	var a *lang.Action
	if call != nil {
		a = call.Action
	}
	res.Error = h.stepErrorText(a, err)
	var ce *browser.ConnectionError
	connection := errors.As(err, &ce)
	if !connection {
		res.ErrorType = string(browser.KindOf(err))
	}
	if call != nil && call.Args != nil {
		res.typed = call.Args.Params()
		res.Params = maskTypedParams(res.Action, res.typed)
		res.Warning = append(res.Warning, call.Warnings...)
	}
	if la.optional {
		res.Status = StatusSkipped
		return starlark.None, nil
	}
	res.Status = StatusError
	res.Context = h.failureContext(res, call, err)
	explainHidden(res)
	f := &stepFailure{result: res, connection: connection, err: err}
	h.failed = f
	if h.keepGoing && !connection {
		// stop_on_error = False: the step stays an error in steps[] and
		// errors[], and the program goes on (a lost connection still
		// stops it: no later step could reach the browser).
		return starlark.None, nil
	}
	return nil, f
}

// unackProbe is how long checkPage waits for a page that did not
// acknowledge a step's input event.
const unackProbe = 250 * time.Millisecond

// checkPage explains a step that timed out when the page itself stopped
// answering (a crash, an endless script): the step then fails with
// PageCrashedError or PageUnresponsiveError, and later steps on the tab fail
// fast instead of each waiting out its timeout.
func (h *host) checkPage(a *lang.Action, timeout time.Duration, err error) error {
	if browser.KindOf(err) != browser.KindTimeout || !h.env.HasPage() {
		return err
	}
	pg, perr := h.env.Page()
	if perr != nil {
		return err
	}
	wait := time.Second
	unack := errors.Is(err, browser.ErrUnacknowledged)
	if unack {
		// The page already did not answer for the rest of the step.
		wait = unackProbe
	}
	var fault *browser.Error
	if !errors.As(pg.Probe(h.ctx, wait), &fault) {
		return err
	}
	var typed *browser.Error
	if unack && pg.Answers() && errors.As(err, &typed) {
		// A script held the input up and was stopped: the tab answers
		// again, and the error keeps the step's phase.
		return &browser.Error{Kind: fault.Kind, Message: typed.Message + "; then " + fault.Message, Hint: fault.Hint + "; take a snapshot, then retry the action", Err: err}
	}
	return &browser.Error{Kind: fault.Kind, Message: fmt.Sprintf("%s did not finish within the %s step timeout: %s", a.Name, timeout, fault.Message), Hint: fault.Hint, Advice: fault.Advice, Err: err}
}

// takeDialogs reports on res the dialogs answered since the previous step
// ended (a dialog a step's timer opens shows up on the next step).
func (h *host) takeDialogs(res *StepResult) {
	pg, err := h.env.Page()
	if err != nil {
		return
	}
	if pg != h.dialogPage {
		h.opts.Pool.setDialogMark(h.dialogPage, h.dialogMark)
		h.dialogPage, h.dialogMark = pg, h.opts.Pool.dialogMark(pg)
	}
	if d := pg.Dialogs().Since(h.dialogMark); len(d) > 0 {
		if had, ok := res.Dialogs.([]browser.Dialog); ok {
			d = append(had, d...)
		}
		res.Dialogs = d
	}
	h.dialogMark = pg.Dialogs().Mark()
}

// diagnosedKinds are the failures where seeing the page helps the agent
// pick another target.
var diagnosedKinds = map[browser.Kind]bool{
	browser.KindElementNotFound: true, browser.KindTimeout: true, browser.KindStaleElement: true,
	browser.KindElementNotEditable: true, browser.KindSelector: true,
}

// failureContext gathers diagnostics for a failed step (spec §16.3): the
// error's own details (interceptor, available options…) and, for a target
// that missed, the page state, visible buttons and links with refs,
// visible errors and near matches.
func (h *host) failureContext(res *StepResult, call *builtins.Call, err error) any {
	ctxMap := map[string]any{}
	var be *browser.Error
	if errors.As(err, &be) {
		for k, v := range be.Details {
			ctxMap[k] = v
		}
	}
	query, _ := ctxMap["query"].(string)
	delete(ctxMap, "query")
	if query == "" && call != nil && call.Args != nil {
		query = targetQuery(call.Args)
	}
	if p, perr := h.env.Page(); perr == nil && diagnosedKinds[browser.KindOf(err)] {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(h.ctx), 3*time.Second)
		defer cancel()
		// The failure is described where the step ran: its command's frame.
		ctx = browser.WithFrame(ctx, h.stepFrame)
		for k, v := range p.Diagnose(ctx, query) {
			ctxMap[k] = v
		}
		if sel := selectorTarget(call); sel != "" && browser.KindOf(err) == browser.KindElementNotFound {
			if in := p.FramesWithSelector(ctx, sel); len(in) > 0 {
				ctxMap["inFrames"] = in
				res.Error += fmt.Sprintf(" It matches inside frame %s: switch into it first with {\"frame\": %q} (or frame(%q) in a recipe), or use a ref from a snapshot.", in[0].Frame, in[0].Frame, in[0].Frame)
			}
		}
	}
	if len(ctxMap) == 0 {
		return nil
	}
	return ctxMap
}

// selectorTarget is the CSS selector a step targeted ("" for any other
// target): spec §13.3 — a selector that matches only inside an iframe is
// said to.
func selectorTarget(call *builtins.Call) string {
	if call == nil || call.Args == nil {
		return ""
	}
	if s, err := call.Args.String("selector"); err == nil && s != "" {
		return s
	}
	for _, k := range []string{"text", "label", "ref"} {
		if s, err := call.Args.String(k); err == nil && s != "" {
			return ""
		}
	}
	if s, ok := starlark.AsString(call.Args.Pos); ok && call.Args.Pos != nil && !browser.IsRef(strings.TrimSpace(s)) {
		return s
	}
	return ""
}

// targetQuery is the text a failed target was looking for.
func targetQuery(a *builtins.Args) string {
	for _, k := range []string{"text", "label", "selector", "ref"} {
		if s, err := a.String(k); err == nil && s != "" {
			return s
		}
	}
	if s, ok := starlark.AsString(a.Pos); ok && a.Pos != nil {
		return s
	}
	return ""
}

// defaultHooks returns the innermost scoped hooks.
func (h *host) defaultHooks() hookSet {
	var s hookSet
	for i := len(h.hooks) - 1; i >= 0; i-- {
		s = s.merge(h.hooks[i])
	}
	return s
}

// callerPosition is the file:line of the recipe call that invoked a builtin.
func callerPosition(th *starlark.Thread) string {
	stack := th.CallStack()
	for i := len(stack) - 1; i >= 0; i-- {
		if pos := stack[i].Pos; pos.IsValid() && pos.Filename() != "<builtin>" {
			return fmt.Sprintf("%s:%d", pos.Filename(), pos.Line)
		}
	}
	return ""
}

// brief renders a hook value for a message.
func brief(v any) string {
	// JSON spelling, so "" and "0" differ from 0 and false.
	data, err := json.Marshal(v)
	s := string(data)
	if err != nil {
		s = fmt.Sprint(v)
	}
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return s
}

// waitingFor says what a step that ran out of time was doing: its error,
// or, when that is only the bare deadline, that the browser did not answer.
// answeredInTime says whether an error that came back after the step's
// time ran out is the browser's own answer to keep: a TimeoutError, or the
// typed outcome of a wait that ran out (the element was not found, stayed
// covered or disabled, the assertion failed), which says more than "did
// not finish in time". An error that only carries the expired context is
// not.
func answeredInTime(err error) bool {
	if errors.As(err, new(*chrome.NotDevToolsError)) {
		// It says what held the port; the step's timeout is not the cause.
		return true
	}
	var typed *browser.Error
	if !errors.As(err, &typed) {
		return false
	}
	switch typed.Kind {
	case browser.KindTimeout:
		return true
	case browser.KindElementNotFound, browser.KindElementNotEditable, browser.KindElementIntercepted, browser.KindAssertion:
		return !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled)
	}
	return false
}

func waitingFor(err error) string {
	if err.Error() == context.DeadlineExceeded.Error() {
		return "the browser did not answer in time (the page may be busy or hung)"
	}
	return err.Error()
}
