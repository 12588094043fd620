// Package browser is cdp-skill's plain Go API over the Chrome DevTools
// Protocol: connection, tabs, navigation, evaluation, the snapshot engine and
// refs, input, capture and diagnostics. It knows nothing about Starlark.
package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"

	"github.com/cdp-skill/cdp-skill/browser/chrome"
	"github.com/cdp-skill/cdp-skill/browser/state"
)

// ConnectOptions tunes Connect.
type ConnectOptions struct {
	// AutoLaunch starts Chrome when nothing answers on a local endpoint.
	AutoLaunch bool
	// Headless asks for a headless launch.
	Headless bool
	// Chrome says which Chrome to launch and whether there is a display.
	Chrome chrome.Host
	// AllowDownloads lets pages download files ($CDP_SKILL_DOWNLOADS is
	// "allow", see DownloadsEnv); without it every download is refused.
	AllowDownloads bool
}

// Browser is a connection to one Chrome.
type Browser struct {
	Endpoint chrome.Endpoint
	// Launched is true when this connection had to start Chrome.
	Launched bool
	// Warnings are notes on how Chrome was found or started.
	Warnings []string
	conn     *Conn
	// dl records the downloads pages start (see watchDownloads).
	dl downloads
}

// endpointCache is what we remember of an endpoint between invocations, so
// that a warm invocation dials the WebSocket directly without discovery.
type endpointCache struct {
	WebSocketURL string `json:"webSocketUrl"`
}

func cachePath(ep chrome.Endpoint) (string, error) {
	return state.Path("endpoints", ep.Key()+".json")
}

// Connect dials the browser at ep: first the WebSocket URL remembered from a
// previous invocation, then discovery, then (when allowed) a launch.
func Connect(ctx context.Context, ep chrome.Endpoint, opts ConnectOptions) (*Browser, error) {
	ep = ep.Normalize()
	if p, err := cachePath(ep); err == nil && ep.WebSocketURL() == "" {
		if data, err := os.ReadFile(p); err == nil {
			var c endpointCache
			if json.Unmarshal(data, &c) == nil && c.WebSocketURL != "" {
				dctx, cancel := context.WithTimeout(ctx, 2*time.Second)
				conn, err := Dial(dctx, c.WebSocketURL)
				cancel()
				if err == nil {
					return &Browser{Endpoint: ep, conn: conn, dl: downloads{allow: opts.AllowDownloads}}, nil
				}
			}
		}
	}
	var warnings []string
	warn := func(w string) { warnings = append(warnings, w) }
	wsURL, launched, err := chrome.Ensure(ctx, ep, opts.AutoLaunch, chrome.LaunchOptions{Headless: opts.Headless, Warn: warn, Host: opts.Chrome})
	if err != nil {
		return nil, &ConnectionError{Endpoint: ep.String(), Err: err}
	}
	conn, err := Dial(ctx, wsURL)
	if err != nil {
		return nil, &ConnectionError{Endpoint: ep.String(), Err: err}
	}
	if p, err := cachePath(ep); err == nil && ep.WebSocketURL() == "" {
		data, _ := json.Marshal(endpointCache{WebSocketURL: wsURL})
		state.WriteFileAtomic(p, data, 0o600)
	}
	return &Browser{Endpoint: ep, Launched: launched, Warnings: warnings, conn: conn, dl: downloads{allow: opts.AllowDownloads}}, nil
}

// Close closes the connection; Chrome keeps running.
func (b *Browser) Close() error { return b.conn.Close() }

// Session returns the browser-level CDP session.
func (b *Browser) Session() *Session { return b.conn.Browser() }

// Pages lists the open page targets.
func (b *Browser) Pages(ctx context.Context) ([]*target.Info, error) {
	res, err := cdp.Call(ctx, b.Session(), target.GetTargets, target.GetTargetsParams{})
	if err != nil {
		return nil, fmt.Errorf("list targets: %w", err)
	}
	var pages []*target.Info
	for _, t := range res.TargetInfos {
		if t.Type == "page" {
			pages = append(pages, t)
		}
	}
	return pages, nil
}

// Version returns the browser product string, e.g. "Chrome/148.0.0.0".
func (b *Browser) Version(ctx context.Context) (string, error) {
	var res struct {
		Product string `json:"product"`
	}
	if err := b.Session().Call(ctx, "Browser.getVersion", nil, &res); err != nil {
		return "", err
	}
	return res.Product, nil
}

// NewTab opens a blank tab and returns its target id.
func (b *Browser) NewTab(ctx context.Context) (target.ID, error) {
	// Each tab gets its own window: a tab that shares a window with an
	// active one is hidden, and a hidden page gets no frames, which stalls
	// input events (parallel agents each drive their own tab).
	res, err := cdp.Call(ctx, b.Session(), target.CreateTarget, target.CreateTargetParams{URL: "about:blank", NewWindow: ptr(true)})
	if err != nil {
		return "", fmt.Errorf("create tab: %w", err)
	}
	return res.TargetID, nil
}

// CloseTab closes a target.
func (b *Browser) CloseTab(ctx context.Context, id target.ID) error {
	if _, err := cdp.Call(ctx, b.Session(), target.CloseTarget, target.CloseTargetParams{TargetID: id}); err != nil {
		return fmt.Errorf("close tab %s: %w", id, err)
	}
	return nil
}

// StopAndCloseTab closes a tab whose page keeps it open (one that
// navigates in a loop cancels Chrome's close with each new document): it
// attaches to the tab, stops its scripts and its load, and asks Chrome
// again to close it.
func (b *Browser) StopAndCloseTab(ctx context.Context, id target.ID) error {
	res, err := cdp.Call(ctx, b.Session(), target.AttachToTarget, target.AttachToTargetParams{TargetID: id, Flatten: ptr(true)})
	if err != nil {
		return fmt.Errorf("attach %s: %w", id, err)
	}
	s := b.conn.Session(res.SessionID)
	cdp.Call(ctx, s, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
	cdp.Call(ctx, s, page.StopLoading, cdp.Empty{})
	return b.CloseTab(ctx, id)
}

// Attach opens a flat session on the page target id and prepares it.
func (b *Browser) Attach(ctx context.Context, id target.ID) (*Page, error) {
	res, err := cdp.Call(ctx, b.Session(), target.AttachToTarget, target.AttachToTargetParams{TargetID: id, Flatten: ptr(true)})
	if err != nil {
		var pe *ProtocolError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%w: %s (%s)", ErrTabNotFound, id, pe.Message)
		}
		return nil, fmt.Errorf("attach %s: %w", id, err)
	}
	b.watchDownloads(ctx)
	p := newPage(b, id, b.conn.Session(res.SessionID))
	if err := p.init(ctx); err != nil {
		return nil, fmt.Errorf("init tab %s: %w", id, err)
	}
	return p, nil
}

func ptr[T any](v T) *T { return &v }
