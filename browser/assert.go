package browser

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// URLCheck is one condition on the page URL: Op is contains, equals,
// startsWith, endsWith or matches (a regular expression).
type URLCheck struct {
	Op    string
	Value string
}

// URLOps are the accepted URLCheck operations, in report order.
var URLOps = []string{"contains", "equals", "startsWith", "endsWith", "matches"}

// AssertOptions are the conditions of an assert step (spec §11.13).
type AssertOptions struct {
	URL []URLCheck
	// Text, when not nil, must appear in the text of Selector (default
	// body); whitespace runs count as one space.
	Text          *string
	Selector      string
	CaseSensitive bool
}

// Assertion is one checked condition.
type Assertion struct {
	Type      string `json:"type"`
	Condition string `json:"condition,omitempty"`
	Selector  string `json:"selector,omitempty"`
	Expected  string `json:"expected"`
	Actual    any    `json:"actual"`
	Passed    bool   `json:"passed"`
	// Reason says why a failed assertion failed, beyond the values.
	Reason string `json:"reason,omitempty"`
}

// AssertResult is the answer of a passing Assert.
type AssertResult struct {
	Passed     bool        `json:"passed"`
	Assertions []Assertion `json:"assertions"`
}

// assertActualLimit bounds the actual text an assertion reports.
const assertActualLimit = 200

// Assert checks the URL and text conditions and fails with KindAssertion,
// listing every failed condition with its actual value, when any fails.
func (p *Page) Assert(ctx context.Context, o AssertOptions) (*AssertResult, error) {
	if len(o.URL) == 0 && o.Text == nil {
		return nil, Errorf(KindStepValidation, "assert needs url and/or text: a url check (e.g. contains /done) or a text to find (e.g. Welcome)")
	}
	var res AssertResult
	if len(o.URL) > 0 {
		checks, err := p.assertURL(ctx, o.URL)
		if err != nil {
			return nil, err
		}
		res.Assertions = append(res.Assertions, checks...)
	}
	if o.Text != nil {
		a, err := p.assertText(ctx, *o.Text, o.Selector, o.CaseSensitive)
		if err != nil {
			return nil, err
		}
		res.Assertions = append(res.Assertions, a)
	}
	var failed []string
	for _, a := range res.Assertions {
		if !a.Passed {
			failed = append(failed, a.describe())
		}
	}
	if len(failed) > 0 {
		e := Errorf(KindAssertion, "%d of %d assertion(s) failed: %s", len(failed), len(res.Assertions), strings.Join(failed, "; "))
		e.Details = map[string]any{"assertions": res.Assertions}
		return nil, e
	}
	res.Passed = true
	return &res, nil
}

func (a Assertion) describe() string {
	if a.Type == "url" {
		return fmt.Sprintf("url does not %s %q (actual: %q)", urlVerb(a.Condition), a.Expected, a.Actual)
	}
	where := a.Selector
	if where == "" {
		where = "body"
	}
	if a.Reason != "" {
		return fmt.Sprintf("text %q: %s", a.Expected, a.Reason)
	}
	return fmt.Sprintf("text %q not found in %s (actual: %q)", a.Expected, where, a.Actual)
}

func urlVerb(op string) string {
	switch op {
	case "startsWith":
		return "start with"
	case "endsWith":
		return "end with"
	case "matches":
		return "match"
	case "equals":
		return "equal"
	case "contains":
		return "contain"
	}
	return op
}

// assertURL checks the top document's URL.
func (p *Page) assertURL(ctx context.Context, checks []URLCheck) ([]Assertion, error) {
	u, err := p.URL(ctx)
	if err != nil {
		return nil, fmt.Errorf("assert: read the URL: %w", err)
	}
	var out []Assertion
	for _, c := range checks {
		ok, err := urlHolds(c, u)
		if err != nil {
			return nil, err
		}
		out = append(out, Assertion{Type: "url", Condition: c.Op, Expected: c.Value, Actual: u, Passed: ok})
	}
	return out, nil
}

func urlHolds(c URLCheck, u string) (bool, error) {
	switch c.Op {
	case "contains":
		return strings.Contains(u, c.Value), nil
	case "equals":
		return u == c.Value, nil
	case "startsWith":
		return strings.HasPrefix(u, c.Value), nil
	case "endsWith":
		return strings.HasSuffix(u, c.Value), nil
	case "matches":
		re, err := regexp.Compile(c.Value)
		if err != nil {
			return false, Errorf(KindStepValidation, "assert url.matches %q is not a valid regular expression: %v", c.Value, err)
		}
		return re.MatchString(u), nil
	}
	return false, Errorf(KindStepValidation, "assert url condition %q is not one of %s", c.Op, strings.Join(URLOps, ", "))
}

// assertText checks that want appears in the text of sel (default body).
// sel is a CSS selector (open shadow roots searched too) or a ref, found
// the way actions find their targets, waiting for it to appear; an element
// that never appears fails the assertion.
func (p *Page) assertText(ctx context.Context, want, sel string, caseSensitive bool) (Assertion, error) {
	a := Assertion{Type: "text", Selector: sel, Expected: want}
	target := sel
	if target == "" {
		target = "body"
	}
	el, err := p.readElement(ctx, target)
	var miss *Error
	if errors.As(err, &miss) && miss.Kind == KindElementNotFound {
		a.Reason = miss.Message
		return a, nil
	}
	if err != nil {
		return a, err
	}
	defer el.release()
	var text string
	fn := `(e) => (e.innerText !== undefined ? e.innerText : e.textContent) || ''`
	if err := el.Call(ctx, &text, fn); err != nil {
		return a, fmt.Errorf("assert: read the text of %s: %w", target, err)
	}
	have, need := strings.Join(strings.Fields(text), " "), strings.Join(strings.Fields(want), " ")
	i, n := textIndex(have, need, caseSensitive)
	a.Passed = i >= 0
	if a.Passed {
		a.Actual = excerpt(have, i, n)
	} else {
		a.Actual = have
		if len(have) > assertActualLimit {
			a.Actual = cutUTF8(have, assertActualLimit) + "…"
		}
	}
	return a, nil
}

// textIndex finds need in have and returns the byte offset and length of
// the match in have itself (-1 when absent). Without caseSensitive, the
// letters match under Unicode case folding; the positions stay those of
// have, whose bytes lowercasing would shift ('İ' and the Kelvin sign
// shrink, 'Ⱥ' grows).
func textIndex(have, need string, caseSensitive bool) (int, int) {
	if caseSensitive {
		return strings.Index(have, need), len(need)
	}
	loc := regexp.MustCompile("(?i)" + regexp.QuoteMeta(need)).FindStringIndex(have)
	if loc == nil {
		return -1, 0
	}
	return loc[0], loc[1] - loc[0]
}

// excerpt is the match at have[i:i+n] with up to 40 bytes of context
// either side.
func excerpt(have string, i, n int) string {
	start, end := max(0, i-40), min(len(have), i+n+40)
	for start > 0 && !isRuneStart(have, start) {
		start--
	}
	for end < len(have) && !isRuneStart(have, end) {
		end++
	}
	s := have[start:end]
	if start > 0 {
		s = "…" + s
	}
	if end < len(have) {
		s += "…"
	}
	return s
}

func isRuneStart(s string, i int) bool { return s[i]&0xC0 != 0x80 }
