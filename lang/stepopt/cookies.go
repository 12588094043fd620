package stepopt

import (
	"fmt"
	"strings"
)

// CookieFilter picks cookies to read or delete.
type CookieFilter struct {
	// URLs selects the cookies sent to these URLs.
	URLs []string
	// Domain selects the cookies of this domain and its subdomains.
	Domain string
	// Name keeps only the cookies with this name.
	Name string
	// All selects every cookie of the tab's browser context.
	All bool
}

// CookieSelect is cookies' get or clear: true (the page's cookies), a
// URL (with a scheme) or a domain, or a filter dict {url, urls, domain,
// name, all}. False is the same as not giving it.
type CookieSelect struct {
	// Filter is the cookies chosen (nil: none, for false).
	Filter *CookieFilter
}

// DecodeOption reads true, false, a URL or domain, or a filter dict.
func (c *CookieSelect) DecodeOption(v any) error {
	switch x := v.(type) {
	case bool:
		c.Filter = nil
		if x {
			c.Filter = &CookieFilter{}
		}
		return nil
	case string:
		s := strings.TrimSpace(x)
		if s == "" {
			return fmt.Errorf("is empty; give true, a URL, a domain or {domain, name}")
		}
		if strings.Contains(s, "://") {
			c.Filter = &CookieFilter{URLs: []string{s}}
		} else {
			c.Filter = &CookieFilter{Domain: s}
		}
		return nil
	case *Object:
		var f CookieFilter
		var url string
		if err := decodeKeys(x, key{"url", str(&url)}, key{"urls", stringList(&f.URLs)},
			key{"domain", str(&f.Domain)}, key{"name", str(&f.Name)}, key{"all", boolean(&f.All)}); err != nil {
			return err
		}
		if url != "" {
			f.URLs = append([]string{url}, f.URLs...)
		}
		c.Filter = &f
		return nil
	}
	return fmt.Errorf("must be true, a URL or domain, or {url, urls, domain, name, all}, not %s", shape(v))
}

// Cookie is a cookie to set. Without URL or Domain it belongs to the
// current page's URL.
type Cookie struct {
	Name   string
	Value  string
	URL    string
	Domain string
	Path   string
	// Expires is in seconds since the epoch (0 = a session cookie).
	Expires  float64
	HTTPOnly bool
	Secure   bool
	// SameSite is Strict, Lax or None (any case).
	SameSite string
}

// DecodeOption reads {name, value, url, domain, path, expires, httpOnly,
// secure, sameSite}.
func (c *Cookie) DecodeOption(v any) error {
	o, err := object(v, "a cookie dict {name, value, …}")
	if err != nil {
		return err
	}
	return decodeKeys(o, key{"name", str(&c.Name)}, key{"value", str(&c.Value)},
		key{"url", str(&c.URL)}, key{"domain", str(&c.Domain)}, key{"path", str(&c.Path)},
		key{"expires", number(&c.Expires)}, key{"httpOnly", boolean(&c.HTTPOnly)},
		key{"secure", boolean(&c.Secure)}, key{"sameSite", str(&c.SameSite)})
}

// Cookies is cookies' set: one cookie dict or a non-empty list of them.
type Cookies []Cookie

// DecodeOption reads a cookie dict or a list of cookie dicts.
func (cs *Cookies) DecodeOption(v any) error {
	list, isList := v.([]any)
	if !isList {
		list = []any{v}
	}
	if len(list) == 0 {
		return fmt.Errorf(`is empty; give a cookie such as {"name": "sid", "value": "abc"}`)
	}
	out := make(Cookies, len(list))
	for i, e := range list {
		if err := out[i].DecodeOption(e); err != nil {
			if isList {
				return fmt.Errorf("[%d] %w", i, err)
			}
			return err
		}
	}
	*cs = out
	return nil
}
