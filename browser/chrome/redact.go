package chrome

import (
	"net/url"
	"slices"
	"strings"
	"sync"
)

// Remote browser endpoints (a browser pool such as browserless, a cloud
// browser service) carry their credentials in the URL: ?token=…, an API
// key, or a user:password. They must never reach an answer, a log, a state
// file or a process argument. String shows the endpoint with those values
// replaced by redactedValue; the registry stores that form, and Unredact
// gives the full URL back to a process that was given it (Remember).

// redactedValue replaces a credential in a shown or stored URL.
const redactedValue = "REDACTED"

// secretParams are the query parameters (lower case) that carry
// credentials in the endpoint URLs of browser pools and cloud browsers.
var secretParams = []string{"token", "apikey", "api_key", "api-key", "key", "auth", "authorization", "password", "secret", "access_token", "session_token", "signature", "sig"}

// isSecretParam reports whether query parameter name carries a credential.
func isSecretParam(name string) bool {
	return slices.Contains(secretParams, strings.ToLower(name))
}

// RedactURL returns raw with the values of credential query parameters and
// a userinfo password replaced by REDACTED. A URL that does not parse is
// replaced whole (it may be all secret).
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "<endpoint URL that does not parse>"
	}
	if u.User != nil {
		if _, has := u.User.Password(); has {
			u.User = url.UserPassword(u.User.Username(), redactedValue)
		}
	}
	if u.RawQuery != "" {
		q := u.Query()
		changed := false
		for name, vals := range q {
			if isSecretParam(name) {
				for i := range vals {
					vals[i] = redactedValue
				}
				changed = true
			}
		}
		if changed {
			u.RawQuery = q.Encode()
		}
	}
	return u.String()
}

// secretsOf returns the credential values in raw, longest first.
func secretsOf(raw string) []string {
	u, err := url.Parse(raw)
	if err != nil {
		return nil
	}
	var list []string
	if u.User != nil {
		if p, has := u.User.Password(); has && p != "" {
			list = append(list, p, url.QueryEscape(p))
		}
	}
	for name, vals := range u.Query() {
		if isSecretParam(name) {
			for _, v := range vals {
				if v != "" && v != redactedValue {
					list = append(list, v, url.QueryEscape(v))
				}
			}
		}
	}
	slices.SortFunc(list, func(a, b string) int { return len(b) - len(a) })
	return list
}

// Scrub replaces every credential of the endpoint in s by REDACTED, for
// errors of libraries that quote the URL they were given.
func (e Endpoint) Scrub(s string) string {
	if e.URL == "" {
		return s
	}
	for _, sec := range secretsOf(e.URL) {
		s = strings.ReplaceAll(s, sec, redactedValue)
	}
	return s
}

// ScrubURL is Scrub for the endpoint URL raw.
func ScrubURL(raw, s string) string { return Endpoint{URL: raw}.Scrub(s) }

// book maps the redacted form of each remote endpoint this process was
// given to the full URL (see Remember, Unredact).
var book sync.Map

// Remember records the full URL of a remote endpoint this process was
// given (on the command line or in its environment), so that a registry
// entry naming it in redacted form reaches it with its credentials.
func Remember(e Endpoint) {
	if e.URL == "" {
		return
	}
	if r := RedactURL(e.URL); r != e.URL {
		book.Store(r, e.URL)
	}
}

// Unredact returns the full URL of the redacted endpoint URL raw when this
// process was given it (Remember), else raw itself (a pool reached with it
// refuses the connection, and the error says to give the endpoint).
func Unredact(raw string) string {
	if full, ok := book.Load(raw); ok {
		return full.(string)
	}
	return raw
}
