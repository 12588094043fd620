package traffic

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/confine"
	"github.com/chromedp/cdproto/network"
)

// HARRequest says what WriteHAR records and where.
type HARRequest struct {
	// Path is the .har file, relative to the output directory.
	Path string
	// Dir is the output directory ("" = OutputDir()).
	Dir string
	// Since keeps the requests sent at or after it (the command's start).
	Since time.Time
	// Secrets keeps cookie, authorization and token values, which are
	// otherwise replaced by "[redacted]".
	Secrets bool
}

// HARResult is the file WriteHAR wrote.
type HARResult struct {
	Path     string `json:"path"`
	Entries  int    `json:"entries"`
	Redacted int    `json:"redacted,omitempty"`
}

// secretName matches header and query parameter names whose values are
// credentials.
var secretName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(cookie|set-cookie|authorization|proxy-authorization|pwd|pass|pin|passcode|sig|signature)$|token|secret|passw|api[-_]?key|private[-_]?key|session|csrf|xsrf|auth`)
})

const redacted = "[redacted]"

type harNV struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// WriteHAR writes the tab's requests since r.Since to a HAR 1.2 file in the
// output directory.
func (n *Network) WriteHAR(ctx context.Context, r HARRequest) (*HARResult, error) {
	out, err := confine.OutputFile{Path: r.Path, Dir: r.Dir, Kind: "har", Ext: ".har", Exts: []string{".har", ".json"}}.Open()
	if err != nil {
		return nil, err
	}
	defer out.Close()
	reqs, err := n.Requests(ctx, NetworkFilter{Since: r.Since})
	if err != nil {
		return nil, err
	}
	res := &HARResult{Path: out.Path}
	entries := make([]any, 0, len(reqs))
	for i := range reqs {
		entries = append(entries, harEntry(&reqs[i], r.Secrets, &res.Redacted))
	}
	doc := map[string]any{"log": map[string]any{
		"version": "1.2",
		"creator": map[string]string{"name": "cdp-skill", "version": "1"},
		"pages":   []any{},
		"entries": entries,
	}}
	data, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		return nil, fmt.Errorf("har: encode: %w", err)
	}
	if err := out.Write(data); err != nil {
		return nil, err
	}
	res.Entries = len(entries)
	return res, nil
}

// RedactURL replaces the values of query parameters named like
// credentials (token, session, key, auth, password, …) with "***" (as
// answers mask them), keeping the URL otherwise as it was.
func RedactURL(u string) string {
	q := strings.IndexByte(u, '?')
	if q < 0 {
		return u
	}
	query, frag := u[q+1:], ""
	if h := strings.IndexByte(query, '#'); h >= 0 {
		query, frag = query[:h], query[h:]
	}
	parts := strings.Split(query, "&")
	changed := false
	for i, part := range parts {
		k, _, ok := strings.Cut(part, "=")
		if name, err := url.QueryUnescape(k); ok && err == nil && secretName().MatchString(name) {
			parts[i], changed = k+"=***", true
		}
	}
	if !changed {
		return u
	}
	return u[:q+1] + strings.Join(parts, "&") + frag
}

func harEntry(r *Request, secrets bool, n *int) map[string]any {
	u := r.URL
	if !secrets {
		u = RedactURL(u)
	}
	var query []harNV
	if pu, err := url.Parse(r.URL); err == nil {
		q := pu.Query()
		for _, k := range sortedKeys(q) {
			for _, v := range q[k] {
				if !secrets && secretName().MatchString(k) {
					v = redacted
					*n++
				}
				query = append(query, harNV{k, v})
			}
		}
	}
	if query == nil {
		query = []harNV{}
	}
	version := r.httpVersion
	if version == "" {
		version = "HTTP/1.1"
	}
	status, text := r.Status, r.statusText
	if r.Failure != "" && status == 0 {
		text = r.Failure
	}
	entry := map[string]any{
		"startedDateTime": r.at.UTC().Format(time.RFC3339Nano),
		"time":            max(r.Ms, 0),
		"request": map[string]any{
			"method": r.Method, "url": u, "httpVersion": version, "cookies": harCookies(r.reqHeaders, "cookie", secrets, n),
			"headers": harHeaders(r.reqHeaders, secrets, n), "queryString": query, "headersSize": -1, "bodySize": -1,
		},
		"response": map[string]any{
			"status": status, "statusText": text, "httpVersion": version, "cookies": harCookies(r.respHeaders, "set-cookie", secrets, n),
			"headers":     harHeaders(r.respHeaders, secrets, n),
			"content":     map[string]any{"size": r.Size, "mimeType": r.mime},
			"redirectURL": r.RedirectedTo, "headersSize": -1, "bodySize": r.Size,
		},
		"cache":         map[string]any{},
		"timings":       harTimings(r),
		"_resourceType": r.Type,
	}
	if r.Failure != "" {
		entry["_error"] = r.Failure
	}
	if r.Routed != "" {
		entry["_routed"] = r.Routed
	}
	return entry
}

func harHeaders(h network.Headers, secrets bool, n *int) []harNV {
	out := []harNV{}
	for _, k := range sortedKeys(h) {
		v := fmt.Sprint(h[k])
		if !secrets && secretName().MatchString(k) {
			v = redacted
			*n++
		}
		out = append(out, harNV{k, v})
	}
	return out
}

// harCookies lists the cookies of a Cookie or Set-Cookie header, their
// values redacted unless secrets.
func harCookies(h network.Headers, name string, secrets bool, n *int) []harNV {
	out := []harNV{}
	for k, v := range h {
		if !strings.EqualFold(k, name) {
			continue
		}
		for _, line := range strings.Split(fmt.Sprint(v), "\n") {
			if name == "cookie" {
				for _, part := range strings.Split(line, ";") {
					if cn, cv, ok := strings.Cut(strings.TrimSpace(part), "="); ok {
						out = append(out, harNV{cn, cookieValue(cv, secrets, n)})
					}
				}
				continue
			}
			if c, err := http.ParseSetCookie(line); err == nil {
				out = append(out, harNV{c.Name, cookieValue(c.Value, secrets, n)})
			}
		}
	}
	return out
}

func cookieValue(v string, secrets bool, n *int) string {
	if secrets {
		return v
	}
	*n++
	return redacted
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// harTimings splits the request's time into HAR phases (-1 = not
// applicable) from Chrome's resource timing.
func harTimings(r *Request) map[string]float64 {
	t := map[string]float64{"blocked": -1, "dns": -1, "connect": -1, "ssl": -1, "send": 0, "wait": 0, "receive": 0}
	rt := r.timing
	if rt == nil {
		t["wait"] = float64(max(r.Ms, 0))
		return t
	}
	span := func(a, b float64) float64 {
		if a < 0 || b < 0 || b < a {
			return -1
		}
		return b - a
	}
	t["dns"] = span(rt.DNSStart, rt.DNSEnd)
	t["connect"] = span(rt.ConnectStart, rt.ConnectEnd)
	t["ssl"] = span(rt.SslStart, rt.SslEnd)
	t["send"] = max(span(rt.SendStart, rt.SendEnd), 0)
	t["wait"] = max(span(rt.SendEnd, rt.ReceiveHeadersEnd), 0)
	if r.Ms > 0 {
		t["receive"] = max(float64(r.Ms)-rt.ReceiveHeadersEnd, 0)
	}
	return t
}
