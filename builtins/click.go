package builtins

import (
	"strings"
	"time"

	"github.com/chromedp/cdproto/target"
	"go.starlark.net/starlark"

	"github.com/cdp-skill/cdp-skill/browser"
)

func init() {
	register(map[string]ActionFunc{"click": click})
}

func click(c *Call) (any, error) {
	p, t, ao, err := actionTarget(c)
	if err != nil {
		return nil, err
	}
	o := browser.ClickOptions{ActionOptions: ao}
	if o.JSClick, err = c.Args.Bool("jsClick", false); err != nil {
		return nil, err
	}
	if o.NativeOnly, err = c.Args.Bool("nativeOnly", false); err != nil {
		return nil, err
	}
	if c.Env.Strict && !o.JSClick {
		o.NativeOnly = true
	}
	if o.JSClick && o.NativeOnly {
		return nil, invalid("jsClick and nativeOnly contradict each other: give one")
	}
	if o.Double, err = c.Args.Bool("doubleClick", false); err != nil {
		return nil, err
	}
	b, err := c.Args.String("button")
	if err != nil {
		return nil, err
	}
	if o.Button, err = browser.ParseButton(b); err != nil {
		return nil, err
	}
	if o.Modifiers, err = modifiersArg(c, p); err != nil {
		return nil, err
	}
	if v, ok := c.Args.Value("scrollUntilVisible"); ok && bool(v.Truth()) {
		max, dist := 0, 0.0
		if m, isMap := v.(starlark.Mapping); isMap {
			max, dist = intField(m, "maxScrolls"), float64(intField(m, "distance"))
		}
		// A miss is an ElementNotFoundError saying how far it scrolled.
		if _, err := p.ScrollUntilFound(c.Ctx, t, max, dist); err != nil {
			return nil, err
		}
	}
	res, err := p.Click(c.Ctx, t, o)
	if err != nil {
		return nil, err
	}
	warnAll(c, res.Warnings)
	registerNewTabs(c, res.NewTabs)
	if v, ok := c.Args.Value("waitAfter"); ok && bool(v.Truth()) {
		stable, timeout := 300*time.Millisecond, 5*time.Second
		if m, isMap := v.(starlark.Mapping); isMap {
			if n := intField(m, "stableTime"); n > 0 {
				stable = time.Duration(n) * time.Millisecond
			}
			if n := intField(m, "timeout"); n > 0 {
				timeout = time.Duration(n) * time.Millisecond
			}
		}
		if quiet, err := p.WaitDOMQuiet(c.Ctx, stable, timeout); err == nil && !quiet {
			c.Warn("the page kept changing for %s after the click", timeout)
		}
	}
	return res, nil
}

// modifiersArg reads modifiers as a list or a "Control+Shift" string.
func modifiersArg(c *Call, p *browser.Page) (browser.Modifiers, error) {
	v, ok := c.Args.Value("modifiers")
	if !ok {
		return 0, nil
	}
	var names []string
	if s, isStr := starlark.AsString(v); isStr {
		names = strings.Split(s, "+")
	} else {
		var err error
		if names, err = stringList(v, "modifiers"); err != nil {
			return 0, err
		}
	}
	return p.ParseModifiers(names)
}

// intField reads an integer field of a dict/record (0 when absent).
func intField(m starlark.Mapping, key string) int {
	v, found, err := m.Get(starlark.String(key))
	if err != nil || !found {
		return 0
	}
	n, err := toInt(v)
	if err != nil {
		return 0
	}
	return n
}

// registerNewTabs gives the tabs an action opened aliases, so the agent can
// switch to them with connectTab.
func registerNewTabs(c *Call, tabs []browser.NewTab) {
	for i := range tabs {
		entry := tabEntry(EndpointOf(c.Env.Tab()), target.ID(tabs[i].TargetID))
		if alias, err := c.Env.Registry.Register(c.Ctx, entry); err == nil {
			tabs[i].Tab = alias
		}
	}
}
