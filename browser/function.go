package browser

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
)

// RunFunction runs agent-supplied JavaScript: a function expression is
// called with no arguments, anything else is evaluated as a bare expression
// (statements allowed, the completion value is returned). A returned promise
// is awaited.
func (p *Page) RunFunction(ctx context.Context, src string) (json.RawMessage, error) {
	src = strings.TrimSpace(src)
	if src == "" {
		return nil, Errorf(KindStepValidation, "empty JavaScript")
	}
	expr := src
	if IsFunctionSource(src) {
		expr = "(" + src + ")()"
	}
	raw, err := p.Eval(ctx, expr)
	if err != nil {
		var js *JSError
		if errors.As(err, &js) {
			js.Source = src
			return nil, explainJSError(js, src)
		}
		return nil, err
	}
	return raw, nil
}

// explainJSError adds the shell-escaping diagnostic of spec §12.1 to a
// syntax error whose source looks mangled.
func explainJSError(js *JSError, src string) error {
	e := &Error{Kind: KindJavaScript, Message: js.Error(), Err: js}
	if strings.Contains(js.Text, "SyntaxError") {
		if problem := unbalanced(src); problem != "" {
			e.Hint = "the source has " + problem + ": this usually means the shell ate quotes or braces. Pass the JSON in single quotes, or write the step in a recipe file"
		}
	}
	return e
}

// unbalanced reports unbalanced quotes, braces, brackets or parentheses.
func unbalanced(src string) string {
	pairs := map[rune]rune{')': '(', ']': '[', '}': '{'}
	var stack []rune
	var quote rune
	escaped := false
	for _, r := range src {
		if quote != 0 {
			switch {
			case escaped:
				escaped = false
			case r == '\\':
				escaped = true
			case r == quote:
				quote = 0
			}
			continue
		}
		switch r {
		case '\'', '"', '`':
			quote = r
		case '(', '[', '{':
			stack = append(stack, r)
		case ')', ']', '}':
			if len(stack) == 0 || stack[len(stack)-1] != pairs[r] {
				return "an unmatched " + string(r)
			}
			stack = stack[:len(stack)-1]
		}
	}
	if quote != 0 {
		return "an unterminated " + string(quote) + " string"
	}
	if len(stack) > 0 {
		return "an unclosed " + string(stack[len(stack)-1])
	}
	return ""
}
