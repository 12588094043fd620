package builtins

import (
	"strings"
	"time"

	"github.com/chromedp/cdproto/target"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/lang"
	"github.com/cdp-skill/cdp-skill/lang/stepopt"
)

func init() {
	register(map[string]ActionFunc{"click": click})
}

func click(c *Call) (any, error) {
	p, t, ao, err := actionTarget(c)
	if err != nil {
		return nil, err
	}
	opts := options[lang.ClickOptions](c)
	o := browser.ClickOptions{ActionOptions: ao, JSClick: opts.JSClick, NativeOnly: opts.NativeOnly, Double: opts.DoubleClick}
	if c.Env.Strict && !o.JSClick {
		o.NativeOnly = true
	}
	if o.JSClick && o.NativeOnly {
		return nil, invalid("jsClick and nativeOnly contradict each other: give one")
	}
	if o.Button, err = browser.ParseButton(opts.Button); err != nil {
		return nil, err
	}
	if o.Modifiers, err = modifiersArg(opts.Modifiers, p); err != nil {
		return nil, err
	}
	if su := opts.ScrollUntilVisible; su != nil {
		// A miss is an ElementNotFoundError saying how far it scrolled.
		if _, err := p.ScrollUntilFound(c.Ctx, t, su.MaxScrolls, su.Distance); err != nil {
			return nil, err
		}
	}
	res, err := p.Click(c.Ctx, t, o)
	if err != nil {
		return nil, err
	}
	warnAll(c, res.Warnings)
	registerNewTabs(c, res.NewTabs)
	if w := opts.WaitAfter; w != nil {
		stable, timeout := 300*time.Millisecond, 5*time.Second
		if w.StableTime > 0 {
			stable = time.Duration(w.StableTime) * time.Millisecond
		}
		if w.Timeout > 0 {
			timeout = time.Duration(w.Timeout) * time.Millisecond
		}
		if quiet, err := p.WaitDOMQuiet(c.Ctx, stable, timeout); err == nil && !quiet {
			c.Warn("the page kept changing for %s after the click", timeout)
		}
	}
	return res, nil
}

// modifiersArg reads modifiers given as a list or a "Control+Shift" string
// (none: no modifiers).
func modifiersArg(given stepopt.Strings, p *browser.Page) (browser.Modifiers, error) {
	if given == nil {
		return 0, nil
	}
	var names []string
	for _, s := range given {
		names = append(names, strings.Split(s, "+")...)
	}
	return p.Input().ParseModifiers(names)
}

// registerNewTabs gives the tabs an action opened aliases, so the agent can
// switch to them with connectTab.
func registerNewTabs(c *Call, tabs []browser.NewTab) {
	for i := range tabs {
		entry := browser.TabEntry(browser.EndpointOf(c.Env.Tab()), target.ID(tabs[i].TargetID))
		if alias, err := c.Env.Registry.Register(c.Ctx, entry); err == nil {
			tabs[i].Tab = alias
		}
	}
}
