package browser

import (
	"context"
	"fmt"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/storage"
)

// MaxCookieValue is the longest cookie value shown in full; longer ones
// are cut and marked truncated.
const MaxCookieValue = 200

// CookieFilter selects cookies. The zero filter means the cookies the
// current page would send (its URL and its frames').
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

// CookieInput is a cookie to set. Without URL or Domain it belongs to the
// current page's URL.
type CookieInput struct {
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

// CookieRequest is a cookies step: clear, then set, then get, each when
// given.
type CookieRequest struct {
	Clear *CookieFilter
	Set   []CookieInput
	Get   *CookieFilter
}

// CookieInfo is a cookie as the step reports it.
type CookieInfo struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Domain string `json:"domain"`
	Path   string `json:"path"`
	// Expires is in seconds since the epoch; absent for session cookies.
	Expires  float64 `json:"expires,omitempty"`
	HTTPOnly bool    `json:"httpOnly"`
	Secure   bool    `json:"secure"`
	SameSite string  `json:"sameSite,omitempty"`
	Session  bool    `json:"session,omitempty"`
	// Size is the full length of name and value.
	Size int `json:"size"`
	// Truncated says Value was cut at MaxCookieValue characters.
	Truncated bool `json:"truncated,omitempty"`
}

// CookiesResult is the outcome of a cookies step.
type CookiesResult struct {
	Cookies []CookieInfo `json:"cookies,omitempty"`
	// Count is the number of cookies got (present when get ran).
	Count   *int `json:"count,omitempty"`
	Set     int  `json:"set,omitempty"`
	Cleared int  `json:"cleared,omitempty"`
}

// Storage is a tab's stored state: the cookies of its browser context and
// the sign-in state saved to and loaded from a file. Reach it by
// Page.Storage.
type Storage struct {
	p *Page
}

// Cookies clears, sets and reads cookies of the tab's browser context.
func (s *Storage) Cookies(ctx context.Context, r CookieRequest) (*CookiesResult, error) {
	if r.Clear == nil && r.Set == nil && r.Get == nil {
		r.Get = &CookieFilter{}
	}
	res := &CookiesResult{}
	if r.Clear != nil {
		n, err := s.clearCookies(ctx, *r.Clear)
		if err != nil {
			return nil, err
		}
		res.Cleared = n
	}
	if len(r.Set) > 0 {
		if err := s.setCookies(ctx, r.Set); err != nil {
			return nil, err
		}
		res.Set = len(r.Set)
	}
	if r.Get != nil {
		list, err := s.findCookies(ctx, *r.Get)
		if err != nil {
			return nil, err
		}
		res.Cookies = make([]CookieInfo, 0, len(list))
		for _, c := range list {
			res.Cookies = append(res.Cookies, cookieInfo(c))
		}
		res.Count = ptr(len(list))
	}
	return res, nil
}

// findCookies returns the cookies the filter selects.
func (s *Storage) findCookies(ctx context.Context, f CookieFilter) ([]*network.Cookie, error) {
	var list []*network.Cookie
	if f.All || f.Domain != "" {
		bc, err := s.p.browserContextID(ctx)
		if err != nil {
			return nil, fmt.Errorf("cookies: %w", err)
		}
		res, err := cdp.Call(ctx, s.p.Browser.Session(), storage.GetCookies, storage.GetCookiesParams{BrowserContextID: bc})
		if err != nil {
			return nil, fmt.Errorf("cookies: read all: %w", err)
		}
		list = res.Cookies
	} else {
		res, err := cdp.Call(ctx, s.p.sess, network.GetCookies, network.GetCookiesParams{URLs: f.URLs})
		if err != nil {
			return nil, fmt.Errorf("cookies: read: %w", err)
		}
		list = res.Cookies
	}
	out := list[:0]
	for _, c := range list {
		if (f.Name == "" || c.Name == f.Name) && (f.Domain == "" || domainMatches(c.Domain, f.Domain)) {
			out = append(out, c)
		}
	}
	return out, nil
}

// domainMatches reports whether a cookie's domain is domain or one of its
// subdomains.
func domainMatches(cookieDomain, domain string) bool {
	c := strings.ToLower(strings.TrimPrefix(cookieDomain, "."))
	d := strings.ToLower(strings.TrimPrefix(strings.TrimSpace(domain), "."))
	return c == d || strings.HasSuffix(c, "."+d)
}

// clearCookies deletes the cookies the filter selects and returns how
// many there were.
func (s *Storage) clearCookies(ctx context.Context, f CookieFilter) (int, error) {
	list, err := s.findCookies(ctx, f)
	if err != nil {
		return 0, err
	}
	for _, c := range list {
		params := network.DeleteCookiesParams{Name: c.Name, Domain: c.Domain, Path: c.Path, PartitionKey: c.PartitionKey}
		if _, err := cdp.Call(ctx, s.p.sess, network.DeleteCookies, params); err != nil {
			return 0, fmt.Errorf("cookies: delete %s (%s): %w", c.Name, c.Domain, err)
		}
	}
	return len(list), nil
}

// setCookies sets each cookie, one call each so a refused cookie is named.
func (s *Storage) setCookies(ctx context.Context, in []CookieInput) error {
	var pageURL string
	for i, c := range in {
		params, err := c.params()
		if err != nil {
			return err
		}
		if params.URL == "" && params.Domain == "" {
			if pageURL == "" {
				if pageURL, err = s.cookieURL(ctx); err != nil {
					return err
				}
			}
			params.URL = pageURL
		}
		if _, err := cdp.Call(ctx, s.p.sess, network.SetCookie, params); err != nil {
			return Errorf(KindStepValidation, "cookies: cookie %d (%q) was refused: %v", i+1, c.Name, err).
				WithHint("check its url or domain, path and sameSite (None needs secure: true, and secure needs an https url)")
		}
	}
	return nil
}

// cookieURL is the URL cookies without url or domain belong to: the
// current page's, when it is a web page.
func (s *Storage) cookieURL(ctx context.Context) (string, error) {
	u, err := s.p.URL(ctx)
	if err != nil {
		return "", fmt.Errorf("cookies: read the page URL: %w", err)
	}
	if !strings.HasPrefix(u, "http:") && !strings.HasPrefix(u, "https:") {
		return "", Errorf(KindStepValidation, "cookies: a cookie needs a url or a domain while the tab shows %s", u).
			WithHint(`give "url": "https://example.com" (or "domain"), or go to the site first`)
	}
	return u, nil
}

// params validates the cookie and builds the CDP parameters.
func (c CookieInput) params() (network.SetCookieParams, error) {
	if strings.TrimSpace(c.Name) == "" {
		return network.SetCookieParams{}, Errorf(KindStepValidation, "cookies: a cookie to set needs a name").
			WithHint("give each cookie to set a name, a value and a url (or a domain), e.g. name sid, value abc, url https://example.com")
	}
	p := network.SetCookieParams{Name: c.Name, Value: c.Value, URL: c.URL, Domain: c.Domain, Path: c.Path,
		Secure: ptr(c.Secure), HTTPOnly: ptr(c.HTTPOnly), Expires: cdp.TimeSinceEpoch(c.Expires)}
	if c.Domain != "" && c.Path == "" {
		p.Path = "/"
	}
	switch strings.ToLower(c.SameSite) {
	case "":
	case "strict":
		p.SameSite = network.CookieSameSiteStrict
	case "lax":
		p.SameSite = network.CookieSameSiteLax
	case "none":
		p.SameSite = network.CookieSameSiteNone
	default:
		return p, Errorf(KindStepValidation, "cookies: sameSite of %q is %q, not Strict, Lax or None", c.Name, c.SameSite)
	}
	return p, nil
}

// cookieInfo converts a CDP cookie, cutting long values.
func cookieInfo(c *network.Cookie) CookieInfo {
	info := CookieInfo{Name: c.Name, Value: c.Value, Domain: c.Domain, Path: c.Path, HTTPOnly: c.HTTPOnly, Secure: c.Secure,
		SameSite: string(c.SameSite), Session: c.Session, Size: int(c.Size)}
	if !c.Session && c.Expires > 0 {
		info.Expires = c.Expires
	}
	if r := []rune(c.Value); len(r) > MaxCookieValue {
		info.Value, info.Truncated = string(r[:MaxCookieValue])+"…", true
	}
	return info
}
