package traffic

import (
	"context"
	"fmt"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/confine"
	"github.com/cdp-skill/cdp-skill/browser/failure"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
)

// Route actions.
const (
	RouteFulfill  = "fulfill"
	RouteAbort    = "abort"
	RouteContinue = "continue"
)

// maxRouteBody bounds a route's response body (a body or a file).
const maxRouteBody = 10 << 20

// RouteRequest is a paused request a route decides on.
type RouteRequest struct {
	URL     string            `json:"url"`
	Method  string            `json:"method"`
	Type    string            `json:"type"`
	Headers map[string]string `json:"headers"`
}

// RouteDecision is what happens to a request: fulfilled with a response,
// aborted with a network error, or continued (with headers changed).
type RouteDecision struct {
	Action string
	Status int64
	// Headers are the response headers of a fulfilled request, or the
	// request headers a continued request changes (an empty value removes
	// one).
	Headers map[string]string
	Body    []byte
	// Reason is the network error of an aborted request (network's
	// ErrorReason: Failed, BlockedByClient, ConnectionRefused, …).
	Reason string
}

// Route intercepts the requests that match it for the rest of the command.
type Route struct {
	Match *URLMatcher
	// Types limit it to resource types (document, script, xhr, fetch, …).
	Types []string
	// Method limits it to one HTTP method.
	Method string
	// Decision is what it does, unless Decide is set.
	Decision RouteDecision
	// Decide, when set, decides per request (a recipe's callable); nil
	// (no decision) continues the request unchanged.
	Decide func(ctx context.Context, r RouteRequest) (*RouteDecision, error)
	// Times limits how many requests it handles (0 = all).
	Times int
	hits  int
}

// routes are a page's active routes.
type routes struct {
	mu   sync.Mutex
	list []*Route
	// fetch is the session's use of the Fetch domain (fileguard.go).
	fetch fetchState
	// errs are failures of Decide callables, reported as warnings.
	errs []string
}

// CheckAbortReason validates an abort reason (network.ErrorReason).
func CheckAbortReason(s string) (string, error) {
	if s == "" {
		return string(network.ErrorReasonBlockedByClient), nil
	}
	for _, r := range []network.ErrorReason{network.ErrorReasonFailed, network.ErrorReasonAborted, network.ErrorReasonTimedOut,
		network.ErrorReasonAccessDenied, network.ErrorReasonConnectionClosed, network.ErrorReasonConnectionReset,
		network.ErrorReasonConnectionRefused, network.ErrorReasonConnectionAborted, network.ErrorReasonConnectionFailed,
		network.ErrorReasonNameNotResolved, network.ErrorReasonInternetDisconnected, network.ErrorReasonAddressUnreachable,
		network.ErrorReasonBlockedByClient, network.ErrorReasonBlockedByResponse} {
		if strings.EqualFold(s, string(r)) {
			return string(r), nil
		}
	}
	return "", failure.Errorf(failure.KindStepValidation, "abort reason %q is not a network error reason", s).
		WithHint("use one of Failed, Aborted, TimedOut, AccessDenied, ConnectionRefused, ConnectionReset, NameNotResolved, InternetDisconnected, BlockedByClient (default)")
}

// ReadRouteFile reads a file a route answers with: it must lie in dirs,
// the directories uploads may read from (the caller's: the working
// directory and CDP_SKILL_UPLOAD_DIRS; nil is the working directory),
// checked as upload checks its files.
func ReadRouteFile(path string, dirs []string) ([]byte, string, error) {
	dirs, err := confine.OrWorkingDir(dirs)
	if err != nil {
		return nil, "", fmt.Errorf("route file: %w", err)
	}
	staged, err := confine.CheckUploadFiles([]string{path}, dirs)
	if err != nil {
		return nil, "", err
	}
	defer os.Remove(staged[0])
	info, err := os.Stat(staged[0])
	if err != nil {
		return nil, "", fmt.Errorf("route file %q: %w", path, err)
	}
	if info.Size() > maxRouteBody {
		return nil, "", failure.Errorf(failure.KindStepValidation, "route file %q is %d bytes; at most %d are served", path, info.Size(), maxRouteBody)
	}
	data, err := os.ReadFile(staged[0])
	if err != nil {
		return nil, "", fmt.Errorf("route file %q: %w", path, err)
	}
	return data, mime.TypeByExtension(filepath.Ext(path)), nil
}

// AddRoute starts intercepting the requests that match r (the Fetch
// domain, enabled on the first route). Later routes take precedence.
func (n *Network) AddRoute(ctx context.Context, r *Route) error {
	n.routes.mu.Lock()
	first := len(n.routes.list) == 0
	n.routes.list = append(n.routes.list, r)
	n.routes.mu.Unlock()
	if !first {
		return nil
	}
	if err := n.syncFetch(ctx); err != nil {
		n.ClearRoutes(ctx)
		return fmt.Errorf("route: Fetch.enable: %w", err)
	}
	return nil
}

// ClearRoutes stops intercepting: requests go to the network again (the
// file guard, when on, goes on intercepting file: requests).
func (n *Network) ClearRoutes(ctx context.Context) {
	n.routes.mu.Lock()
	had := len(n.routes.list) > 0
	n.routes.list = nil
	n.routes.mu.Unlock()
	if had {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		n.syncFetch(cctx)
	}
}

// HasRoutes reports whether routes are active.
func (n *Network) HasRoutes() bool {
	n.routes.mu.Lock()
	defer n.routes.mu.Unlock()
	return len(n.routes.list) > 0
}

// TakeRouteErrors returns the failures of route callables so far.
func (n *Network) TakeRouteErrors() []string {
	n.routes.mu.Lock()
	defer n.routes.mu.Unlock()
	e := n.routes.errs
	n.routes.errs = nil
	return e
}

// pick returns the newest route that matches the request and counts the
// hit.
func (n *Network) pick(req RouteRequest) *Route {
	n.routes.mu.Lock()
	defer n.routes.mu.Unlock()
	for i := len(n.routes.list) - 1; i >= 0; i-- {
		r := n.routes.list[i]
		if r.Times > 0 && r.hits >= r.Times {
			continue
		}
		if !r.Match.Match(req.URL) || (len(r.Types) > 0 && !routeTypeMatch(r.Types, req.Type)) ||
			(r.Method != "" && !strings.EqualFold(r.Method, req.Method)) {
			continue
		}
		r.hits++
		return r
	}
	return nil
}

// routeTypeMatch matches resource types; the Fetch domain reports fetch()
// calls as xhr, so for routes the two are one type.
func routeTypeMatch(types []string, t string) bool {
	if t == "xhr" || t == "fetch" {
		return containsFold(types, "xhr") || containsFold(types, "fetch")
	}
	return containsFold(types, t)
}

// handlePaused answers one paused request: every paused request gets an
// answer, whatever a callable does, or the page would wait forever. A
// local file the URL policy does not allow is refused before any route
// sees it.
func (n *Network) handlePaused(ev *fetch.EventRequestPaused) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if n.refuseLocal(ctx, ev) {
		return
	}
	req := RouteRequest{URL: ev.Request.URL, Method: ev.Request.Method, Type: strings.ToLower(string(ev.ResourceType)), Headers: map[string]string{}}
	for k, v := range ev.Request.Headers {
		req.Headers[k] = fmt.Sprint(v)
	}
	d, matched := n.decide(ctx, req)
	if matched {
		n.log.markRouted(ev.NetworkID, d.Action)
	}
	var err error
	switch d.Action {
	case RouteFulfill:
		_, err = cdp.Call(ctx, n.sess, fetch.FulfillRequest, fulfillParams(ev.RequestID, d))
	case RouteAbort:
		reason, _ := CheckAbortReason(d.Reason)
		_, err = cdp.Call(ctx, n.sess, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReason(reason)})
	default:
		params := fetch.ContinueRequestParams{RequestID: ev.RequestID}
		if len(d.Headers) > 0 {
			params.Headers = mergeHeaders(req.Headers, d.Headers)
		}
		_, err = cdp.Call(ctx, n.sess, fetch.ContinueRequest, params)
	}
	if err != nil && d.Action != RouteContinue {
		// A bad answer (a malformed header) must not leave the request
		// hanging: let it go on.
		cdp.Call(ctx, n.sess, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID})
	}
}

// decide returns what the newest matching route does with req (continue
// when none matches, or when its callable fails, noting the failure).
func (n *Network) decide(ctx context.Context, req RouteRequest) (*RouteDecision, bool) {
	r := n.pick(req)
	if r == nil {
		return &RouteDecision{Action: RouteContinue}, false
	}
	if r.Decide == nil {
		return &r.Decision, true
	}
	got, err := r.Decide(ctx, req)
	if err != nil {
		n.routes.mu.Lock()
		if len(n.routes.errs) < 10 {
			n.routes.errs = append(n.routes.errs, fmt.Sprintf("route handler failed for %s (the request went on unchanged): %v", clip(RedactURL(req.URL), 200), err))
		}
		n.routes.mu.Unlock()
		return &RouteDecision{Action: RouteContinue}, true
	}
	if got == nil {
		return &RouteDecision{Action: RouteContinue}, true
	}
	return got, true
}

func fulfillParams(id fetch.RequestID, d *RouteDecision) fetch.FulfillRequestParams {
	status := d.Status
	if status == 0 {
		status = http.StatusOK
	}
	params := fetch.FulfillRequestParams{RequestID: id, ResponseCode: status, Body: d.Body}
	if params.Body == nil {
		params.Body = []byte{}
	}
	keys := make([]string, 0, len(d.Headers))
	for k := range d.Headers {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		params.ResponseHeaders = append(params.ResponseHeaders, &fetch.HeaderEntry{Name: k, Value: d.Headers[k]})
	}
	if text := http.StatusText(int(status)); text != "" {
		params.ResponsePhrase = text
	}
	return params
}

// mergeHeaders applies changes (an empty value removes a header) to the
// request's headers.
func mergeHeaders(orig, changes map[string]string) []*fetch.HeaderEntry {
	out := map[string]string{}
	names := map[string]string{}
	for k, v := range orig {
		out[strings.ToLower(k)], names[strings.ToLower(k)] = v, k
	}
	for k, v := range changes {
		lk := strings.ToLower(k)
		if v == "" {
			delete(out, lk)
			continue
		}
		out[lk], names[lk] = v, k
	}
	keys := make([]string, 0, len(out))
	for k := range out {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	list := make([]*fetch.HeaderEntry, 0, len(keys))
	for _, k := range keys {
		list = append(list, &fetch.HeaderEntry{Name: names[k], Value: out[k]})
	}
	return list
}
