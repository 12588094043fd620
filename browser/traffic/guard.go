package traffic

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/cdpconn"
	"github.com/cdp-skill/cdp-skill/browser/confine"
	"github.com/chromedp/cdproto/cdp"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
)

// The file guard applies the page's URL policy to every file: load
// Chrome makes in the tab, not only to the URL a step opens: a page inside
// an allowed directory could otherwise show any local file through an
// <iframe src="file:///…">, set location.href to one, or link to one. It
// intercepts file: requests (the Fetch domain) once a file: document is
// opened or found in the tab, so web pages pay nothing; Chrome itself
// refuses file: loads from web pages and redirects to file: URLs.

// maxRefusedNotes bounds the notes the guard keeps between two reads.
const maxRefusedNotes = 10

// fetchState is a page session's use of the Fetch domain: routes
// intercept every request, the file guard file: requests; one
// subscription answers both.
type fetchState struct {
	// stop ends the requestPaused subscription (nil when none).
	stop func()
	// guard says file: requests are intercepted for the URL policy.
	guard bool
	// policy reads the page's URL policy at the time of a request.
	policy func() confine.URLPolicy
	// refused are notes about loads the policy refused, for the answer.
	refused []string
	// dropped counts notes past maxRefusedNotes.
	dropped int
}

// IsFileURL reports whether raw is a file: URL (or the source view of one).
func IsFileURL(raw string) bool {
	s := strings.ToLower(strings.TrimSpace(raw))
	s = strings.TrimPrefix(s, "view-source:")
	return strings.HasPrefix(s, "file:")
}

// EnableGuard intercepts file: requests from now on.
func (n *Network) EnableGuard(ctx context.Context) error {
	n.routes.mu.Lock()
	if n.routes.fetch.guard {
		n.routes.mu.Unlock()
		return nil
	}
	n.routes.fetch.guard = true
	n.routes.mu.Unlock()
	if err := n.syncFetch(ctx); err != nil {
		n.routes.mu.Lock()
		n.routes.fetch.guard = false
		n.routes.mu.Unlock()
		return fmt.Errorf("guard file: loads (Fetch.enable): %w", err)
	}
	return nil
}

// syncFetch makes Chrome intercept what the routes and the file guard
// need: every request while routes are active, file: requests while the
// guard is on, nothing otherwise.
func (n *Network) syncFetch(ctx context.Context) error {
	n.routes.mu.Lock()
	var patterns []*fetch.RequestPattern
	switch {
	case len(n.routes.list) > 0:
		patterns = []*fetch.RequestPattern{{URLPattern: "*"}}
	case n.routes.fetch.guard:
		patterns = []*fetch.RequestPattern{{URLPattern: "file:*"}}
	}
	subscribe := patterns != nil && n.routes.fetch.stop == nil
	var stop func()
	if patterns == nil {
		stop, n.routes.fetch.stop = n.routes.fetch.stop, nil
	}
	var paused <-chan jsonv2.Value
	if subscribe {
		paused, n.routes.fetch.stop = n.sess.Subscribe("Fetch.requestPaused")
	}
	n.routes.mu.Unlock()
	if subscribe {
		go n.answerPaused(paused)
	}
	if patterns == nil {
		if stop == nil {
			return nil
		}
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		cdp.Call(cctx, n.sess, fetch.Disable, cdp.Empty{})
		stop()
		return nil
	}
	_, err := cdp.Call(ctx, n.sess, fetch.Enable, fetch.EnableParams{Patterns: patterns})
	return err
}

// answerPaused answers every paused request until the subscription ends.
func (n *Network) answerPaused(paused <-chan jsonv2.Value) {
	for raw := range paused {
		var ev fetch.EventRequestPaused
		if cdpconn.Decode(raw, &ev) == nil && ev.Request != nil {
			go n.handlePaused(&ev)
		}
	}
}

// refuseLocal fails a paused request for a local file the URL policy does
// not allow, noting it for the answer; it reports whether it did.
func (n *Network) refuseLocal(ctx context.Context, ev *fetch.EventRequestPaused) bool {
	raw := ev.Request.URL
	if !IsFileURL(raw) {
		return false
	}
	n.routes.mu.Lock()
	policy := n.routes.fetch.policy
	n.routes.mu.Unlock()
	var pol confine.URLPolicy
	if policy != nil {
		pol = policy()
	}
	u, err := url.Parse(raw)
	if err == nil {
		err = confine.CheckLocalURL(raw, u, pol)
	}
	if err == nil {
		return false
	}
	cdp.Call(ctx, n.sess, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonAccessDenied})
	what := "a " + strings.ToLower(string(ev.ResourceType))
	if ev.ResourceType == network.ResourceTypeDocument {
		what = "a document (the tab or one of its frames)"
	}
	note := fmt.Sprintf("the page tried to load %s from the local file %s, outside the directories %s allows; it was refused (net::ERR_ACCESS_DENIED)", what, clip(raw, 200), confine.FileDirsEnv)
	n.routes.mu.Lock()
	if len(n.routes.fetch.refused) < maxRefusedNotes {
		n.routes.fetch.refused = append(n.routes.fetch.refused, note)
	} else {
		n.routes.fetch.dropped++
	}
	n.routes.mu.Unlock()
	return true
}

// TakeRefused returns notes about the loads the URL policy refused since
// the last call (a frame or document of a local file outside the allowed
// directories).
func (n *Network) TakeRefused() []string {
	n.routes.mu.Lock()
	defer n.routes.mu.Unlock()
	notes := n.routes.fetch.refused
	if d := n.routes.fetch.dropped; d > 0 {
		notes = append(notes, fmt.Sprintf("and %d more local file loads were refused", d))
	}
	n.routes.fetch.refused, n.routes.fetch.dropped = nil, 0
	return notes
}
