package builtins

import (
	"fmt"

	"go.starlark.net/starlark"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/lang"
	"github.com/cdp-skill/cdp-skill/lang/stepopt"
)

func init() {
	register(map[string]ActionFunc{
		"fill":  fill,
		"type":  typeText,
		"press": press,
	})
}

func fillOptions(c *Call) (browser.FillOptions, error) {
	opts := options[lang.FillOptions](c)
	o := browser.FillOptions{Clear: opts.Clear, React: opts.React}
	var err error
	o.ActionOptions, err = actionOptions(c)
	return o, err
}

// fill handles: fill("text") (the focused field), fill({target: value, …})
// (batch), fill(fields = {…}), and fill(selector|ref|label = …, value = …).
func fill(c *Call) (any, error) {
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	o, err := fillOptions(c)
	if err != nil {
		return nil, err
	}
	if err := applyDialog(c, p); err != nil {
		return nil, err
	}
	if _, ok := c.Args.Pos.(starlark.IterableMapping); ok {
		var fields stepopt.Fields
		if err := lang.DecodeValue(&fields, c.Args.Pos); err != nil {
			return nil, invalid("fill: the batch %v", err)
		}
		return fillBatch(c, p, fields, o)
	}
	opts := options[lang.FillOptions](c)
	if opts.Fields != nil {
		return fillBatch(c, p, opts.Fields, o)
	}
	var t browser.Target
	var value string
	if s, ok := c.Args.Pos.(starlark.String); ok {
		// fill("text"): the focused field.
		if opts.Value != nil {
			return nil, invalid(`fill("…") fills the focused field with that text; to name a field use fill(selector = "…", value = "…")`)
		}
		t, value = browser.Target{Focused: true}, string(s)
	} else {
		if t, err = targetArg(c); err != nil {
			return nil, err
		}
		if opts.Value == nil {
			return nil, invalid("fill needs a value").WithAdvice(forExample(`{"fill": {"selector": "#email", "value": "a@b.c"}}`))
		}
		value = string(*opts.Value)
		if t.IsZero() {
			t.Focused = true
		}
	}
	res, err := p.Fill(c.Ctx, t, value, o)
	if err != nil {
		if t.Focused && browser.KindOf(err) == browser.KindElementNotFound {
			return nil, browser.Errorf(browser.KindElementNotFound, "no field has focus").WithHint("name the field: fill(selector = …, value = …) or fill(label = …, value = …)")
		}
		return nil, err
	}
	warnAll(c, res.Warnings)
	return res, nil
}

// fillBatch fills each key (a ref, selector or label) with its value, in
// order, and fails when any field fails (after trying them all).
func fillBatch(c *Call, p *browser.Page, fields stepopt.Fields, o browser.FillOptions) (any, error) {
	type fieldResult struct {
		Field    string         `json:"field"`
		Filled   bool           `json:"filled"`
		Method   string         `json:"method,omitempty"`
		Verified *bool          `json:"verified,omitempty"`
		Element  map[string]any `json:"element,omitempty"`
		Error    string         `json:"error,omitempty"`
	}
	var results []fieldResult
	var firstErr error
	filled := 0
	for _, f := range fields {
		key, value := f.Key, f.Value
		t := batchTarget(c, p, key)
		fr := fieldResult{Field: key}
		res, err := p.Fill(c.Ctx, t, value, o)
		if err != nil {
			fr.Error = err.Error()
			if firstErr == nil {
				firstErr = err
			}
		} else {
			filled++
			fr.Filled, fr.Method, fr.Verified, fr.Element = true, res.Method, res.Verified, res.Element
			for _, w := range res.Warnings {
				c.Warn("%s: %s", key, w)
			}
		}
		results = append(results, fr)
	}
	out := map[string]any{"filled": filled, "failed": len(results) - filled, "fields": results}
	if firstErr != nil {
		e := &browser.Error{Kind: browser.KindOf(firstErr), Message: fmt.Sprintf("%d of %d fields failed; first: %v", len(results)-filled, len(results), firstErr), Details: out}
		return nil, e
	}
	return out, nil
}

// batchTarget reads a batch key: a ref, a CSS selector, or (when it is not
// valid CSS or matches nothing) a label.
func batchTarget(c *Call, p *browser.Page, key string) browser.Target {
	if browser.IsRef(key) {
		return browser.Target{Ref: key}
	}
	if err := p.CheckSelector(c.Ctx, key); err != nil {
		return browser.Target{Label: key}
	}
	if n, err := p.Count(c.Ctx, key); err == nil && n == 0 {
		return browser.Target{Label: key}
	}
	return browser.Target{Selector: key}
}

func typeText(c *Call) (any, error) {
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	var text string
	var t browser.Target
	if s, ok := c.Args.Pos.(starlark.String); ok {
		text = string(s)
		// type("text") types into the focused element; with a target
		// keyword the positional is still the text.
		c.Args.Pos = nil
	}
	if t, err = targetArg(c); err != nil {
		return nil, err
	}
	if text, err = typedText(c, text); err != nil {
		return nil, err
	}
	o := browser.TypeOptions{Delay: options[lang.TypeOptions](c).Delay}
	if o.ActionOptions, err = actionOptions(c); err != nil {
		return nil, err
	}
	if err := applyDialog(c, p); err != nil {
		return nil, err
	}
	res, err := p.Type(c.Ctx, t, text, o)
	if err != nil {
		return nil, err
	}
	warnAll(c, res.Warnings)
	out := map[string]any{"typed": len([]rune(text))}
	if res.Element != nil {
		out["element"] = res.Element
	}
	if res.Verified != nil {
		out["verified"] = *res.Verified
		if !*res.Verified {
			c.Warn("the field does not show the typed text (it may format or autocomplete it)")
		}
	}
	if res.Navigated {
		out["navigated"], out["newUrl"] = true, res.NewURL
	}
	return out, nil
}

func press(c *Call) (any, error) {
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	opts := options[lang.PressOptions](c)
	key := opts.Key
	if s, ok := c.Args.Pos.(starlark.String); ok {
		key = string(s)
		c.Args.Pos = nil
	}
	if key == "" {
		return nil, invalid("press needs a key").WithAdvice(forExample(`{"press": "Enter"}`, `{"press": "Control+a"}`))
	}
	combo, err := p.Input().ParseKeys(key)
	if err != nil {
		return nil, err
	}
	if combo.Unknown {
		msg := fmt.Sprintf("%q is not a known key name; it was sent as is", combo.Name)
		if s := browser.SuggestKey(combo.Name); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		}
		c.Warn("%s", msg)
	}
	times := opts.Times
	if times < 1 || times > 100 {
		return nil, invalid("times must be between 1 and 100")
	}
	t, err := targetArg(c)
	if err != nil {
		return nil, err
	}
	if err := applyDialog(c, p); err != nil {
		return nil, err
	}
	res, err := p.PressKeys(c.Ctx, t, combo, times)
	if err != nil {
		return nil, err
	}
	return res, nil
}

// typedText reads what type_text types: the positional string, text= or
// its alias value= (spec §9.3 names it text); giving two different ones is
// refused rather than guessed.
func typedText(c *Call, pos string) (string, error) {
	text, from := pos, "the positional string"
	o := options[lang.TypeOptions](c)
	for _, kw := range []struct{ name, value string }{{"text", o.Text}, {"value", o.Value}} {
		name, s := kw.name, kw.value
		if s == "" {
			continue
		}
		if from != "" && text != "" && s != text {
			return "", invalid("type got two texts (%s and %s): give the characters to type once, as text", from, name)
		}
		text, from = s, name
	}
	if text == "" {
		return "", invalid("type needs text").WithAdvice(forExample(`{"type": "hello"}`, `{"type": {"selector": "#q", "text": "hello"}}`))
	}
	return text, nil
}
