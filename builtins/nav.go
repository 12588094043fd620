package builtins

import (
	"context"
	"time"

	"go.starlark.net/starlark"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/lang"
)

func init() {
	register(map[string]ActionFunc{
		"goto":    gotoURL,
		"back":    back,
		"forward": forward,
		"reload":  reload,
		"wait":    wait,
		"sleep":   sleep,
	})
}

// waitUntilArg reads the waitUntil of an action whose options embed
// lang.Loading.
func waitUntilArg(c *Call) (browser.WaitUntil, error) {
	l, ok := c.Args.Opts.(interface{ LoadingFields() *lang.Loading })
	if !ok {
		s, err := c.Args.String("waitUntil")
		if err != nil {
			return "", err
		}
		return browser.ParseWaitUntil(s)
	}
	return browser.ParseWaitUntil(l.LoadingFields().WaitUntil)
}

func gotoURL(c *Call) (any, error) {
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	u := options[lang.GotoOptions](c).URL
	if c.Args.Pos != nil {
		if u, err = posString(c, "a URL"); err != nil {
			return nil, err
		}
	}
	if u == "" {
		return nil, invalid("goto needs a URL").WithAdvice(forExample(`{"goto": "https://example.com"}`))
	}
	wait, err := waitUntilArg(c)
	if err != nil {
		return nil, err
	}
	return p.Navigate(c.Ctx, u, wait)
}

func back(c *Call) (any, error) {
	return history(c, (*browser.Page).Back)
}

func forward(c *Call) (any, error) {
	return history(c, (*browser.Page).Forward)
}

func history(c *Call, move func(*browser.Page, context.Context, browser.WaitUntil) (*browser.NavResult, error)) (any, error) {
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	wait, err := waitUntilArg(c)
	if err != nil {
		return nil, err
	}
	return move(p, c.Ctx, wait)
}

func reload(c *Call) (any, error) {
	ignoreCache := options[lang.ReloadOptions](c).IgnoreCache
	return history(c, func(p *browser.Page, ctx context.Context, wait browser.WaitUntil) (*browser.NavResult, error) {
		return p.Reload(ctx, wait, ignoreCache)
	})
}

// wait handles the forms: a number of ms, a selector string, or keywords
// ms / selector (+hidden) / text / url / urlPattern.
func wait(c *Call) (any, error) {
	if c.Args.Pos != nil {
		switch v := c.Args.Pos.(type) {
		case starlark.Int, starlark.Float:
			d, err := ToDuration(v)
			if err != nil {
				return nil, invalid("wait: %v", err)
			}
			return sleepFor(c, d)
		case starlark.String:
			return waitSelector(c, string(v))
		}
		return nil, invalid("wait takes milliseconds or a CSS selector, not %s", c.Args.Pos.Type())
	}
	o := options[lang.WaitOptions](c)
	if o.MS != nil {
		return sleepFor(c, *o.MS)
	}
	if o.Selector != "" {
		return waitSelector(c, o.Selector)
	}
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	if text := o.Text; text != "" {
		elapsed, err := p.WaitText(c.Ctx, text)
		if err != nil {
			return nil, err
		}
		return map[string]any{"found": true, "text": text, "elapsed": elapsed.Milliseconds()}, nil
	}
	substr, pattern := o.URL, o.URLPattern
	if substr != "" || pattern != "" {
		u, elapsed, err := p.WaitURL(c.Ctx, substr, pattern)
		if err != nil {
			return nil, err
		}
		return map[string]any{"url": u, "elapsed": elapsed.Milliseconds()}, nil
	}
	return nil, invalid(`wait needs one of: milliseconds (wait(500)), a selector (wait("#done")), text=, url= or url_pattern=`)
}

func waitSelector(c *Call, sel string) (any, error) {
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	hidden := options[lang.WaitOptions](c).Hidden
	elapsed, err := p.WaitSelector(c.Ctx, sel, hidden)
	if err != nil {
		return nil, err
	}
	out := map[string]any{"selector": sel, "elapsed": elapsed.Milliseconds()}
	if hidden {
		out["hidden"] = true
	} else {
		out["visible"] = true
	}
	return out, nil
}

func sleep(c *Call) (any, error) {
	d := options[lang.SleepOptions](c).MS
	if c.Args.Pos != nil {
		var err error
		if d, err = ToDuration(c.Args.Pos); err != nil {
			return nil, invalid("sleep %v", err)
		}
	}
	return sleepFor(c, d)
}

func sleepFor(c *Call, d time.Duration) (any, error) {
	if err := browser.Sleep(c.Ctx, d); err != nil {
		return nil, err
	}
	return map[string]any{"slept": d.Milliseconds()}, nil
}
