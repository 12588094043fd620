package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"time"
)

// CheckSelector fails at once with InvalidSelectorError when sel is not
// valid CSS (spec §19.14: never wait out a timeout on a typo).
func (p *Page) CheckSelector(ctx context.Context, sel string) error {
	var msg string
	err := p.CallInto(ctx, &msg, `(s) => { try { document.createDocumentFragment().querySelector(s); return ""; } catch (e) { return String(e.message); } }`, sel)
	if err != nil {
		return err
	}
	if msg != "" {
		return Errorf(KindSelector, "invalid CSS selector %q: %s", sel, msg).
			WithHint("fix the selector, or target the element by ref or text")
	}
	return nil
}

// WaitSelector waits until sel matches a visible element (or, with hidden,
// until no visible element matches).
func (p *Page) WaitSelector(ctx context.Context, sel string, hidden bool) (time.Duration, error) {
	if err := p.CheckSelector(ctx, sel); err != nil {
		return 0, err
	}
	pred := fmt.Sprintf(`() => { const el = document.querySelector(%s); const vis = !!el && el.isConnected && el.checkVisibility({visibilityProperty: true, opacityProperty: true}); return %s; }`,
		jsString(sel), map[bool]string{false: "vis", true: "!vis"}[hidden])
	res, err := p.Poll(ctx, pred, 50*time.Millisecond)
	if err != nil {
		return 0, err
	}
	if !res.Resolved {
		state := "is not in the page"
		if hidden {
			state = "is still visible"
		} else {
			bctx, cancel := brief(ctx)
			if exists, _ := p.exists(bctx, sel); exists {
				state = "exists but is not visible"
			}
			cancel()
		}
		return res.Elapsed, Errorf(KindTimeout, "waited %s for %q: it %s", res.Elapsed.Round(time.Millisecond), sel, state)
	}
	return res.Elapsed, nil
}

func (p *Page) exists(ctx context.Context, sel string) (bool, error) {
	var ok bool
	err := p.CallInto(ctx, &ok, `(s) => !!document.querySelector(s)`, sel)
	return ok, err
}

// WaitText waits until the page's visible text contains text.
func (p *Page) WaitText(ctx context.Context, text string) (time.Duration, error) {
	pred := fmt.Sprintf(`() => (document.body && document.body.innerText || "").includes(%s)`, jsString(text))
	res, err := p.Poll(ctx, pred, 50*time.Millisecond)
	if err != nil {
		return 0, err
	}
	if !res.Resolved {
		return res.Elapsed, Errorf(KindTimeout, "waited %s for the text %q: it did not appear", res.Elapsed.Round(time.Millisecond), text)
	}
	return res.Elapsed, nil
}

// WaitURL waits until the URL contains substr or, when pattern is set,
// matches the regular expression.
func (p *Page) WaitURL(ctx context.Context, substr, pattern string) (string, time.Duration, error) {
	var pred string
	if pattern != "" {
		if _, err := regexp.Compile(pattern); err != nil {
			return "", 0, Errorf(KindStepValidation, "invalid urlPattern %q: %v", pattern, err)
		}
		pred = fmt.Sprintf(`() => new RegExp(%s).test(location.href) && location.href`, jsString(pattern))
	} else {
		pred = fmt.Sprintf(`() => location.href.includes(%s) && location.href`, jsString(substr))
	}
	res, err := p.Poll(ctx, pred, 50*time.Millisecond)
	if err != nil {
		return "", 0, err
	}
	var u string
	json.Unmarshal(res.Value, &u)
	if !res.Resolved {
		bctx, cancel := brief(ctx)
		cur, _ := p.URL(bctx)
		cancel()
		want := substr
		if pattern != "" {
			want = "/" + pattern + "/"
		}
		return cur, res.Elapsed, Errorf(KindTimeout, "waited %s for the URL to match %s; it is %s", res.Elapsed.Round(time.Millisecond), want, cur)
	}
	return u, res.Elapsed, nil
}

func jsString(s string) string {
	data, _ := json.Marshal(s)
	return string(data)
}

// brief returns a short context detached from ctx, for reading diagnostics
// after ctx has expired.
func brief(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), time.Second)
}
