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
// until no visible element matches), looking into open shadow roots as the
// actions do.
func (p *Page) WaitSelector(ctx context.Context, sel string, hidden bool) (time.Duration, error) {
	start := time.Now()
	last := "absent"
	for {
		st, err := p.SelectorRead(ctx, sel, "state", "")
		switch {
		case err == nil:
			last = fmt.Sprint(st)
			if (last == "visible") != hidden {
				return time.Since(start), nil
			}
		case KindOf(err) == KindSelector:
			return 0, err
		case ctx.Err() == nil && !p.navigationGone(err):
			return time.Since(start), err
		}
		if Sleep(ctx, 50*time.Millisecond) != nil {
			break
		}
	}
	waited := time.Since(start)
	state := "is not in the page"
	switch {
	case hidden:
		state = "is still visible"
	case last == "hidden":
		state = "exists but is not visible"
	}
	return waited, Errorf(KindTimeout, "waited %s for %q: it %s", waited.Round(time.Millisecond), sel, state)
}

// SelectorRead reads the page through a CSS selector with the actions'
// lookup (open shadow roots; the first visible match): what is exists,
// count, visible, state, text, value or attr (with name).
func (p *Page) SelectorRead(ctx context.Context, sel, what, name string) (any, error) {
	if IsRef(sel) {
		// A ref taken inside a frame is read there; the step stays here.
		ctx = inFrame(ctx, p.frameIn(ctx))
		if err := p.enterRefFrame(ctx, sel); err != nil {
			return nil, err
		}
	}
	var v any
	err := p.engineCall(ctx, &v, epSelectorRead, sel, what, name)
	return v, err
}

// WaitText waits until the page's visible text contains text (open shadow
// roots included), across navigations.
func (p *Page) WaitText(ctx context.Context, text string) (time.Duration, error) {
	start := time.Now()
	for i := 0; ; i++ {
		var found bool
		err := p.engineCall(ctx, &found, epTextPresent, text)
		if err == nil && !found && i%4 == 0 {
			// The text may show inside a frame (looked at less often).
			found = p.textInFrames(ctx, text)
		}
		switch {
		case err == nil && found:
			return time.Since(start), nil
		case err != nil && ctx.Err() == nil && !p.navigationGone(err):
			return time.Since(start), err
		}
		if Sleep(ctx, 50*time.Millisecond) != nil {
			break
		}
	}
	waited := time.Since(start)
	return waited, Errorf(KindTimeout, "waited %s for the text %q: it did not appear", waited.Round(time.Millisecond), text)
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
	res, err := p.Scripts().Poll(ctx, pred, 50*time.Millisecond)
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
