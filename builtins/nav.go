package builtins

import (
	"context"
	"time"

	"go.starlark.net/starlark"

	"github.com/cdp-skill/cdp-skill/browser"
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

func waitUntilArg(c *Call) (browser.WaitUntil, error) {
	s, err := c.Args.String("waitUntil")
	if err != nil {
		return "", err
	}
	return browser.ParseWaitUntil(s)
}

func gotoURL(c *Call) (any, error) {
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	u, err := c.Args.String("url")
	if err != nil {
		return nil, err
	}
	if c.Args.Pos != nil {
		if u, err = posString(c, "a URL"); err != nil {
			return nil, err
		}
	}
	if u == "" {
		return nil, invalid(`goto needs a URL: {"goto": "https://example.com"}`)
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
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	wait, err := waitUntilArg(c)
	if err != nil {
		return nil, err
	}
	ignore, err := c.Args.Bool("ignoreCache", false)
	if err != nil {
		return nil, err
	}
	return p.Reload(c.Ctx, wait, ignore)
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
	if c.Args.Has("ms") {
		d, err := c.Args.Duration("ms", 0)
		if err != nil {
			return nil, err
		}
		return sleepFor(c, d)
	}
	if sel, err := c.Args.String("selector"); err != nil || sel != "" {
		if err != nil {
			return nil, err
		}
		return waitSelector(c, sel)
	}
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	text, err := c.Args.String("text")
	if err != nil {
		return nil, err
	}
	if text != "" {
		elapsed, err := p.WaitText(c.Ctx, text)
		if err != nil {
			return nil, err
		}
		return map[string]any{"found": true, "text": text, "elapsed": elapsed.Milliseconds()}, nil
	}
	substr, err := c.Args.String("url")
	if err != nil {
		return nil, err
	}
	pattern, err := c.Args.String("urlPattern")
	if err != nil {
		return nil, err
	}
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
	hidden, err := c.Args.Bool("hidden", false)
	if err != nil {
		return nil, err
	}
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
	d, err := c.Args.Duration("ms", 0)
	if err != nil {
		return nil, err
	}
	if c.Args.Pos != nil {
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
