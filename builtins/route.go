package builtins

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"go.starlark.net/starlark"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/lang"
	"github.com/cdp-skill/cdp-skill/lang/stepopt"
)

// route handles route(url =, url_regex =, type =, method =, fulfill =,
// abort =, headers =, handler =, times =, clear =).
func route(c *Call) (any, error) {
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	if options[lang.RouteOptions](c).Clear {
		if len(c.Args.Keywords()) > 1 {
			return nil, invalid("route: clear removes every route and takes no other parameter")
		}
		p.Network().ClearRoutes(c.Ctx)
		return map[string]any{"cleared": true}, nil
	}
	r, how, err := routeFromArgs(c)
	if err != nil {
		return nil, err
	}
	if !p.Network().HasRoutes() {
		c.Env.AtEnd(func(ctx context.Context) {
			for _, e := range p.Network().TakeRouteErrors() {
				c.Env.Warn(e)
			}
			p.Network().ClearRoutes(ctx)
		})
	}
	if err := p.Network().AddRoute(c.Ctx, r); err != nil {
		return nil, err
	}
	return map[string]any{"routing": how, "until": "the end of this command"}, nil
}

// routeFromArgs builds the route the call describes and names what it does.
func routeFromArgs(c *Call) (*browser.Route, string, error) {
	r, what, err := routeMatch(c)
	if err != nil {
		return nil, "", err
	}
	var given []string
	for _, k := range []string{"fulfill", "abort", "headers", "handler"} {
		if c.Args.Has(k) {
			given = append(given, k)
		}
	}
	if len(given) != 1 {
		return nil, "", browser.Errorf(browser.KindStepValidation, "route needs exactly one of fulfill, abort, headers or handler; got %s", givenList(given)).
			WithAdvice(forExample(`{"route": {"url": "/api/items", "fulfill": {"json": []}}}`, `{"route": {"url": "*.png", "abort": true}}`, `{"route": {"url": "/api", "headers": {"X-Test": "1"}}}`))
	}
	how, err := routeAction(c, r, given[0])
	if err != nil {
		return nil, "", err
	}
	return r, how + " " + what, nil
}

// routeMatch reads which requests the route handles (url, url_regex, type,
// method, times) and describes them.
func routeMatch(c *Call) (*browser.Route, string, error) {
	r := &browser.Route{}
	o := options[lang.RouteOptions](c)
	pattern, re := o.URL, o.URLRegex
	var err error
	if r.Match, err = browser.NewURLMatcher(pattern, re); err != nil {
		return nil, "", err
	}
	r.Types = o.Type
	if err := browser.CheckResourceTypes(r.Types); err != nil {
		return nil, "", err
	}
	r.Method, r.Times = o.Method, o.Times
	if r.Times < 0 {
		return nil, "", invalid("route: times must be 0 (every request) or more, not %d", r.Times)
	}
	what := pattern
	if re != "" {
		what = "/" + re + "/"
	}
	if what == "" {
		what = "every request"
	}
	return r, what, nil
}

// routeAction sets what the route does from its one action parameter and
// names it.
func routeAction(c *Call, r *browser.Route, action string) (string, error) {
	var err error
	switch action {
	case "handler":
		r.Decide = routeHandler(c, options[lang.RouteOptions](c).Handler)
		return "a handler decides on", nil
	case "abort":
		reason, err := browser.CheckAbortReason(options[lang.RouteOptions](c).Abort.Reason)
		if err != nil {
			return "", err
		}
		r.Decision = browser.RouteDecision{Action: browser.RouteAbort, Reason: reason}
		return "aborting", nil
	}
	o := options[lang.RouteOptions](c)
	if action == "headers" {
		r.Decision = browser.RouteDecision{Action: browser.RouteContinue, Headers: o.Headers}
		return "changing the request headers of", nil
	}
	d, err := fulfillDecision(o.Fulfill, c.Env.UploadDirs)
	if err != nil {
		return "", err
	}
	r.Decision = *d
	return "fulfilling", nil
}

func givenList(list []string) string {
	if len(list) == 0 {
		return "none"
	}
	return strings.Join(list, " and ")
}

// fulfillDecision answers with f, reading its file from the working
// directory or uploadDirs.
func fulfillDecision(f *stepopt.Fulfill, uploadDirs []string) (*browser.RouteDecision, error) {
	d := &browser.RouteDecision{Action: browser.RouteFulfill, Status: 200, Headers: map[string]string{}, Body: f.Body}
	if f.Status != 0 {
		d.Status = int64(f.Status)
	}
	for k, v := range f.Headers {
		d.Headers[k] = v
	}
	contentType := f.ContentType
	if contentType == "" && f.JSON {
		contentType = "application/json"
	}
	if f.File != "" {
		data, mime, err := browser.ReadRouteFile(f.File, uploadDirs)
		if err != nil {
			return nil, err
		}
		d.Body = data
		if contentType == "" {
			contentType = mime
		}
	}
	if contentType == "" && !hasHeader(d.Headers, "content-type") {
		contentType = "text/plain; charset=utf-8"
	}
	if contentType != "" {
		d.Headers["Content-Type"] = contentType
	}
	return d, nil
}

func hasHeader(h map[string]string, name string) bool {
	for k := range h {
		if strings.EqualFold(k, name) {
			return true
		}
	}
	return false
}

// routeHandler turns a recipe's function into a route decision: it runs on
// its own thread (one request at a time) with a step budget, its captured
// values frozen, and may not call actions.
func routeHandler(c *Call, fn starlark.Callable) func(ctx context.Context, r browser.RouteRequest) (*browser.RouteDecision, error) {
	fn.Freeze()
	var mu sync.Mutex
	env := c.Env
	return func(ctx context.Context, r browser.RouteRequest) (*browser.RouteDecision, error) {
		mu.Lock()
		defer mu.Unlock()
		th := &starlark.Thread{Name: "route handler " + fn.Name()}
		th.SetMaxExecutionSteps(1_000_000)
		th.SetLocal(EnvKey, env)
		th.SetLocal(CtxKey, ctx)
		th.SetLocal(inHookLocal, true)
		stop := context.AfterFunc(ctx, func() { th.Cancel("the route handler ran out of time") })
		defer stop()
		req, err := ToStarlark(map[string]any{"url": r.URL, "method": r.Method, "type": r.Type, "headers": r.Headers})
		if err != nil {
			return nil, err
		}
		v, err := starlark.Call(th, fn, starlark.Tuple{req}, nil)
		if err != nil {
			return nil, err
		}
		return handlerDecision(v, c.Env.UploadDirs)
	}
}

// inHookLocal is the thread-local key (runtime's inHookKey) that makes
// actions refuse to run on a hook's thread.
const inHookLocal = "cdp-skill.inHook"

// handlerDecision reads a handler's answer: None or "continue" (go on),
// "abort", a {headers} dict (go on with them), {abort: reason}, or a
// fulfill dict.
func handlerDecision(v starlark.Value, uploadDirs []string) (*browser.RouteDecision, error) {
	if v == starlark.None {
		return nil, nil
	}
	if s, ok := starlark.AsString(v); ok {
		switch s {
		case "continue":
			return nil, nil
		case "abort":
			return &browser.RouteDecision{Action: browser.RouteAbort}, nil
		}
		return nil, fmt.Errorf("the handler returned %q; return None, \"continue\", \"abort\" or a dict", s)
	}
	data, err := lang.ToPlain(v, lang.GoNumbers)
	if err != nil {
		return nil, err
	}
	o, ok := data.(*lang.Object)
	if !ok {
		return nil, fmt.Errorf("the handler returned a %s; return None, \"continue\", \"abort\" or a dict", v.Type())
	}
	if a, ok := o.Get("abort"); ok && len(o.Keys) == 1 {
		reason, _ := a.(string)
		if reason, err = browser.CheckAbortReason(reason); err != nil {
			return nil, err
		}
		return &browser.RouteDecision{Action: browser.RouteAbort, Reason: reason}, nil
	}
	if h, ok := o.Get("headers"); ok && len(o.Keys) == 1 {
		var hs stepopt.Headers
		if err := hs.DecodeOption(h); err != nil {
			return nil, fmt.Errorf("headers %w", err)
		}
		return &browser.RouteDecision{Action: browser.RouteContinue, Headers: hs}, nil
	}
	var f stepopt.Fulfill
	if err := f.DecodeOption(o); err != nil {
		return nil, fmt.Errorf("the handler's fulfill dict %w", err)
	}
	return fulfillDecision(&f, uploadDirs)
}
