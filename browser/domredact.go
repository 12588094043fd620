package browser

import (
	"regexp"
	"sync"
)

// HTML a page serialises carries the value attribute of its inputs: a
// password (or an API key, a token) the server filled in is there in
// clear. getDom masks those values, as every other read does.

// inputTag matches an <input> start tag (attribute values may hold '>').
var inputTag = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?is)<input\b(?:[^>"']|"[^"]*"|'[^']*')*>`)
})

// secretInput matches what makes an input's value secret: its type, or a
// name, id or autocomplete that says so.
var secretInput = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\s(?:type\s*=\s*["']?password\b|(?:name|id|autocomplete)\s*=\s*["']?[^"'\s>]*(?:passw|passwd|secret|token|api[_-]?key|apikey|private[_-]?key|one-time-code|cvv|cvc))`)
})

// valueAttr matches a non-empty value attribute.
var valueAttr = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(\svalue\s*=\s*)("[^"]+"|'[^']+'|[^\s>"']+)`)
})

// maskSecretInputs replaces the value attributes of secret inputs in html.
func maskSecretInputs(html string) string {
	return inputTag().ReplaceAllStringFunc(html, func(tag string) string {
		if !secretInput().MatchString(tag) {
			return tag
		}
		return valueAttr().ReplaceAllString(tag, `${1}"`+maskText+`"`)
	})
}

// maskText stands for a masked value.
const maskText = "••••••"
