// Package chrome finds, launches, discovers and stops the Chrome that
// cdp-skill drives. It speaks only Chrome's HTTP discovery endpoints; the
// WebSocket protocol lives in package browser.
package chrome

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// DefaultPort is the remote debugging port used when none is given.
const DefaultPort = 9222

// Endpoint says where a Chrome with remote debugging listens: a local
// host:port, or a remote URL (ws://… browser endpoint or http://host:port).
type Endpoint struct {
	Host string
	Port int
	// URL is a remote endpoint. When set, Host and Port are ignored and
	// Chrome is never launched.
	URL string
}

// Normalize fills in defaults: host 127.0.0.1 and port 9222.
func (e Endpoint) Normalize() Endpoint {
	if e.URL != "" {
		return Endpoint{URL: e.URL}
	}
	if e.Host == "" || e.Host == "localhost" {
		e.Host = "127.0.0.1"
	}
	if e.Port == 0 {
		e.Port = DefaultPort
	}
	return e
}

// Remote reports whether the endpoint is a remote URL rather than host:port.
func (e Endpoint) Remote() bool { return e.URL != "" }

// Local reports whether Chrome on this endpoint can be launched here.
func (e Endpoint) Local() bool {
	e = e.Normalize()
	return !e.Remote() && (e.Host == "127.0.0.1" || e.Host == "::1")
}

// String returns a short description such as 127.0.0.1:9222; a remote
// URL is shown with its credentials (?token=…) redacted.
func (e Endpoint) String() string {
	e = e.Normalize()
	if e.URL != "" {
		return RedactURL(e.URL)
	}
	return net.JoinHostPort(e.Host, strconv.Itoa(e.Port))
}

// Key is a file-name-safe identifier of the endpoint.
func (e Endpoint) Key() string {
	r := strings.NewReplacer(":", "_", "/", "_", "?", "_", "&", "_", "=", "_", "[", "", "]", "")
	return r.Replace(e.String())
}

// httpBase returns the http:// base URL for discovery, or "" when the
// endpoint is a bare ws:// URL with no discovery.
func (e Endpoint) httpBase() string {
	e = e.Normalize()
	if e.URL == "" {
		return "http://" + e.String()
	}
	u, err := url.Parse(e.URL)
	if err != nil {
		return ""
	}
	switch u.Scheme {
	case "http", "https":
		return strings.TrimRight(u.Scheme+"://"+u.Host+u.Path, "/")
	}
	return ""
}

// WebSocketURL returns the browser WebSocket URL when the endpoint itself is
// one (ws:// or wss://), or "".
func (e Endpoint) WebSocketURL() string {
	if strings.HasPrefix(e.URL, "ws://") || strings.HasPrefix(e.URL, "wss://") {
		return e.URL
	}
	return ""
}

// VersionInfo is Chrome's /json/version answer.
type VersionInfo struct {
	Browser              string `json:"Browser"`
	ProtocolVersion      string `json:"Protocol-Version"`
	UserAgent            string `json:"User-Agent"`
	WebSocketDebuggerURL string `json:"webSocketDebuggerUrl"`
}

// TargetInfo is one entry of Chrome's /json/list answer.
type TargetInfo struct {
	ID    string `json:"id"`
	Type  string `json:"type"`
	Title string `json:"title"`
	URL   string `json:"url"`
}

var httpClient = &http.Client{Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true}}

func getJSON(ctx context.Context, method, u string, out any) error {
	req, err := http.NewRequestWithContext(ctx, method, u, nil)
	if err != nil {
		return err
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return &httpStatusError{method: method, url: u, code: resp.StatusCode, body: strings.TrimSpace(string(body))}
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(body, out)
}

// Version asks the endpoint for /json/version. It fails fast (500 ms) when
// nothing answers.
func Version(ctx context.Context, e Endpoint) (*VersionInfo, error) {
	base := e.httpBase()
	if base == "" {
		return nil, fmt.Errorf("endpoint %s has no HTTP discovery", e)
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	var v VersionInfo
	err := getJSON(ctx, http.MethodGet, base+"/json/version", &v)
	if err == nil && v.WebSocketDebuggerURL == "" {
		err = fmt.Errorf("%s/json/version has %w", base, errNoWebSocketURL)
	}
	if err != nil {
		if nd := (*NotDevToolsError)(nil); errors.As(discoveryError(e, "/json/version", err), &nd) {
			return nil, nd
		}
		return nil, fmt.Errorf("%s", e.Scrub(err.Error()))
	}
	v.WebSocketDebuggerURL = fixWebSocketHost(v.WebSocketDebuggerURL, base)
	return &v, nil
}

// fixWebSocketHost makes the ws URL use the host we reached discovery on:
// Chrome behind a proxy or in a container reports its own view of the host.
func fixWebSocketHost(wsURL, base string) string {
	w, err := url.Parse(wsURL)
	if err != nil {
		return wsURL
	}
	b, err := url.Parse(base)
	if err != nil {
		return wsURL
	}
	w.Host = b.Host
	if b.Scheme == "https" {
		w.Scheme = "wss"
	}
	return w.String()
}

// List returns the page targets of the endpoint via /json/list.
func List(ctx context.Context, e Endpoint) ([]TargetInfo, error) {
	base := e.httpBase()
	if base == "" {
		return nil, fmt.Errorf("endpoint %s has no HTTP discovery", e)
	}
	var all []TargetInfo
	if err := getJSON(ctx, http.MethodGet, base+"/json/list", &all); err != nil {
		return nil, discoveryError(e, "/json/list", err)
	}
	pages := all[:0]
	for _, t := range all {
		if t.Type == "page" {
			pages = append(pages, t)
		}
	}
	return pages, nil
}

// Close closes a target through the HTTP endpoint /json/close.
func Close(ctx context.Context, e Endpoint, targetID string) error {
	base := e.httpBase()
	if base == "" {
		return fmt.Errorf("endpoint %s has no HTTP discovery", e)
	}
	return getJSON(ctx, http.MethodGet, base+"/json/close/"+url.PathEscape(targetID), nil)
}
