package runtime

import "net/url"

// navigated reports whether the page moved to another document: origin,
// path or query changed. A hash-only change is not navigation; an unknown
// URL on either side counts as navigation (spec §14.3).
func navigated(before, after string) bool {
	if before == "" || after == "" {
		return before != after
	}
	b, err1 := url.Parse(before)
	a, err2 := url.Parse(after)
	if err1 != nil || err2 != nil {
		return true
	}
	return b.Scheme != a.Scheme || b.Host != a.Host || b.Path != a.Path || b.RawQuery != a.RawQuery
}
