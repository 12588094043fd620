package traffic

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/cdpconn"
	"github.com/cdp-skill/cdp-skill/browser/confine"
	"github.com/cdp-skill/cdp-skill/browser/failure"
	"github.com/chromedp/cdproto/cdp"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
)

// maxRequests bounds the network log of a tab; the oldest go first.
const maxRequests = 5000

// Request is one network request of the tab (one hop of a redirect chain).
type Request struct {
	Method string `json:"method"`
	URL    string `json:"url"`
	// Type is the resource type: document, script, xhr, fetch, image, …
	Type   string `json:"type"`
	Status int64  `json:"status,omitempty"`
	// Size is the bytes received over the network (0 when served from
	// the cache or still loading).
	Size int64 `json:"size,omitempty"`
	// Ms is how long it took, from being sent to the last byte.
	Ms int64 `json:"ms,omitempty"`
	// Failure is the network error (net::ERR_…) of a request that failed.
	Failure string `json:"failure,omitempty"`
	// Routed says what a route did with it: fulfill, abort or continue.
	Routed    string `json:"routed,omitempty"`
	FromCache bool   `json:"fromCache,omitempty"`
	Pending   bool   `json:"pending,omitempty"`
	// RedirectedTo is set on a hop the server answered with a redirect.
	RedirectedTo string `json:"redirectedTo,omitempty"`

	id          network.RequestID
	seq         int
	at          time.Time
	start, end  float64 // monotonic seconds
	mime        string
	statusText  string
	httpVersion string
	reqHeaders  network.Headers
	respHeaders network.Headers
	canceled    bool
	timing      *network.ResourceTiming
	// wireReq and wireResp mark headers read from the ExtraInfo events:
	// those sent and received on the wire (with Cookie and Set-Cookie).
	wireReq, wireResp bool
}

// Failed reports an HTTP error status (≥ 400) or a network error.
func (r *Request) Failed() bool { return r.Status >= 400 || r.Failure != "" }

// Network is a tab's network: the log of its requests, the routes that
// intercept them, and the HAR export of the log. Reach it by Page.Network.
type Network struct {
	sess   *cdpconn.Session
	log    netLog
	routes routes
}

// netLog records the requests of one page session.
type netLog struct {
	mu     sync.Mutex
	on     bool
	reqs   []*Request
	byID   map[network.RequestID]*Request
	seq    int
	routed map[network.RequestID]string
	// claimed are the requests WaitForResponse returned (by seq).
	claimed map[int]bool
	// changed is closed (and replaced) whenever the log changes.
	changed chan struct{}
	feeds   []*cdpconn.Feed
}

func (l *netLog) touch() {
	close(l.changed)
	l.changed = make(chan struct{})
}

// Changed returns a channel closed at the log's next change.
func (n *Network) Changed() <-chan struct{} { return n.log.watch() }

// watch returns a channel closed at the next change.
func (l *netLog) watch() <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.changed
}

// entry returns the current hop of id, creating it when its start was not
// read yet.
func (l *netLog) entry(id network.RequestID) *Request {
	if r, ok := l.byID[id]; ok {
		return r
	}
	r := l.add(&Request{id: id, at: time.Now(), Pending: true})
	return r
}

func (l *netLog) add(r *Request) *Request {
	if len(l.reqs) >= maxRequests {
		old := l.reqs[0]
		if l.byID[old.id] == old {
			delete(l.byID, old.id)
			delete(l.routed, old.id)
		}
		delete(l.claimed, old.seq)
		l.reqs = l.reqs[1:]
	}
	l.seq++
	r.seq = l.seq
	l.reqs = append(l.reqs, r)
	l.byID[r.id] = r
	return r
}

// Attach binds n to a page session; policy gives the page's URL policy at
// the time of each request the file guard checks. Call it once, before
// Track.
func (n *Network) Attach(s *cdpconn.Session, policy func() confine.URLPolicy) {
	n.sess = s
	n.routes.fetch.policy = policy
}

// Track subscribes to the Network domain's request events before
// the domain is enabled (enableDomains enables it). Each event stream is
// read by its own goroutine; the streams are counted, so that a read of
// the log can first take in every event Chrome already sent (sync).
func (n *Network) Track(onClose func(...func())) {
	n.log.byID = map[network.RequestID]*Request{}
	n.log.routed = map[network.RequestID]string{}
	n.log.changed = make(chan struct{})
	for method, handle := range map[string]func(jsonv2.Value){
		"Network.requestWillBeSent":          n.log.sent,
		"Network.responseReceived":           n.log.response,
		"Network.loadingFinished":            n.log.finished,
		"Network.loadingFailed":              n.log.failed,
		"Network.requestServedFromCache":     n.log.cached,
		"Network.requestWillBeSentExtraInfo": n.log.requestExtra,
		"Network.responseReceivedExtraInfo":  n.log.responseExtra,
	} {
		ch, received, stop := n.sess.SubscribeCounted(method)
		onClose(stop)
		f := &cdpconn.Feed{Received: received}
		n.log.feeds = append(n.log.feeds, f)
		go func() {
			for raw := range ch {
				handle(raw)
				f.Read.Add(1)
				n.log.poke()
			}
		}()
	}
}

// drained reports whether every event received so far was handled.
func (l *netLog) drained() bool {
	for _, f := range l.feeds {
		if f.Read.Load() < f.Received() {
			return false
		}
	}
	return true
}

// poke wakes the readers waiting for a change.
func (l *netLog) poke() {
	l.mu.Lock()
	l.touch()
	l.mu.Unlock()
}

// sync makes the log current: after a round trip to the tab when
// roundTrip (Chrome sends the events of requests made before it ahead of
// its answer), it waits until every event received has been recorded. It
// gives up quietly after a second: the log is then as current as it can
// be.
func (n *Network) sync(ctx context.Context, roundTrip bool) {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if roundTrip {
		cdp.Call(ctx, n.sess, page.GetNavigationHistory, cdp.Empty{})
	}
	for {
		changed := n.Changed()
		if n.log.drained() {
			return
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return
		}
	}
}

type requestSent struct {
	RequestID        network.RequestID    `json:"requestId"`
	Request          *network.Request     `json:"request"`
	Timestamp        float64              `json:"timestamp"`
	WallTime         float64              `json:"wallTime"`
	RedirectResponse *network.Response    `json:"redirectResponse"`
	Type             network.ResourceType `json:"type"`
}

func (l *netLog) sent(raw jsonv2.Value) {
	var ev requestSent
	if cdpconn.Decode(raw, &ev) != nil || ev.Request == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	defer l.touch()
	r, known := l.byID[ev.RequestID]
	if known && ev.RedirectResponse != nil {
		// The previous hop ended in a redirect: keep it, start a new one.
		l.respond(r, ev.RedirectResponse)
		r.RedirectedTo, r.end, r.Pending = ev.Request.URL, ev.Timestamp, false
		r.Ms = int64((r.end - r.start) * 1000)
		known = false
	}
	if !known || r.Method != "" {
		r = l.add(&Request{id: ev.RequestID})
	}
	// Its end may have been read first (events come through separate
	// subscriptions).
	ended := r.end > 0 || r.Failure != ""
	r.Method, r.URL, r.Type, r.Pending = ev.Request.Method, ev.Request.URL, strings.ToLower(string(ev.Type)), !ended
	r.start = ev.Timestamp
	if !r.wireReq {
		r.reqHeaders = ev.Request.Headers
	}
	if ended && r.end >= r.start {
		r.Ms = int64((r.end - r.start) * 1000)
	}
	r.at = time.UnixMilli(int64(ev.WallTime * 1000))
	if ev.WallTime == 0 {
		r.at = time.Now()
	}
	if how, ok := l.routed[ev.RequestID]; ok {
		r.Routed = how
	}
}

// respond records a response on a hop (lock held).
func (l *netLog) respond(r *Request, res *network.Response) {
	r.Status, r.statusText, r.mime = res.Status, res.StatusText, res.MimeType
	r.httpVersion, r.timing = res.Protocol, res.Timing
	if !r.wireResp {
		r.respHeaders = res.Headers
	}
	if r.Status >= 400 && r.Failure == "net::ERR_ABORTED" {
		r.Failure = "" // (its failure was read first; see failed)
	}
	if res.FromDiskCache || res.FromPrefetchCache {
		r.FromCache = true
	}
}

func (l *netLog) response(raw jsonv2.Value) {
	var ev struct {
		RequestID network.RequestID `json:"requestId"`
		Response  *network.Response `json:"response"`
	}
	if cdpconn.Decode(raw, &ev) != nil || ev.Response == nil {
		return
	}
	l.update(ev.RequestID, func(r *Request) { l.respond(r, ev.Response) })
}

// update applies f to the current hop of id under the log's lock and
// wakes the readers.
func (l *netLog) update(id network.RequestID, f func(r *Request)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	defer l.touch()
	f(l.entry(id))
}

func (l *netLog) finished(raw jsonv2.Value) {
	var ev struct {
		RequestID         network.RequestID `json:"requestId"`
		Timestamp         float64           `json:"timestamp"`
		EncodedDataLength float64           `json:"encodedDataLength"`
	}
	if cdpconn.Decode(raw, &ev) != nil {
		return
	}
	l.update(ev.RequestID, func(r *Request) {
		r.Pending, r.end, r.Size = false, ev.Timestamp, int64(ev.EncodedDataLength)
		if r.start > 0 {
			r.Ms = int64((r.end - r.start) * 1000)
		}
	})
}

func (l *netLog) failed(raw jsonv2.Value) {
	var ev network.EventLoadingFailed
	if cdpconn.Decode(raw, &ev) != nil {
		return
	}
	l.update(ev.RequestID, func(r *Request) { l.fail(r, &ev) })
}

// fail records a hop's failure (lock held).
func (l *netLog) fail(r *Request, ev *network.EventLoadingFailed) {
	r.Pending, r.end, r.Failure, r.canceled = false, ev.Timestamp.Float64(), ev.ErrorText, ev.Canceled
	if r.Status >= 400 && ev.ErrorText == "net::ERR_ABORTED" {
		// The browser dropped an error response it would not use (a
		// script answered with a 500): the status says it all.
		r.Failure = ""
	}
	if ev.BlockedReason != "" {
		r.Failure += " (blocked: " + string(ev.BlockedReason) + ")"
	}
	if ev.CorsErrorStatus != nil {
		r.Failure += " (CORS: " + string(ev.CorsErrorStatus.CorsError) + ")"
	}
	if r.start > 0 {
		r.Ms = int64((r.end - r.start) * 1000)
	}
	if how, ok := l.routed[ev.RequestID]; ok {
		r.Routed = how
	}
}

// requestExtra records the headers the request went out with (Cookie
// included).
func (l *netLog) requestExtra(raw jsonv2.Value) {
	l.wireHeaders(raw, func(r *Request, h network.Headers) { r.reqHeaders, r.wireReq = h, true })
}

// responseExtra records the headers the response came with (Set-Cookie
// included).
func (l *netLog) responseExtra(raw jsonv2.Value) {
	l.wireHeaders(raw, func(r *Request, h network.Headers) { r.respHeaders, r.wireResp = h, true })
}

// wireHeaders decodes a …ExtraInfo event and stores its headers with set.
func (l *netLog) wireHeaders(raw jsonv2.Value, set func(*Request, network.Headers)) {
	var ev struct {
		RequestID network.RequestID `json:"requestId"`
		Headers   network.Headers   `json:"headers"`
	}
	if cdpconn.Decode(raw, &ev) != nil || len(ev.Headers) == 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	set(l.entry(ev.RequestID), ev.Headers)
}

func (l *netLog) cached(raw jsonv2.Value) {
	var ev struct {
		RequestID network.RequestID `json:"requestId"`
	}
	if cdpconn.Decode(raw, &ev) != nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.entry(ev.RequestID).FromCache = true
}

// markRouted records what a route did with a request (by network id).
func (l *netLog) markRouted(id network.RequestID, how string) {
	if id == "" {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.routed[id] = how
	if r, ok := l.byID[id]; ok {
		r.Routed = how
	}
}

// Enable turns on the Network domain (request events).
func (n *Network) Enable(ctx context.Context) error {
	if _, err := cdp.Call(ctx, n.sess, network.Enable, network.EnableParams{}); err != nil {
		return fmt.Errorf("Network.enable: %w", err)
	}
	n.log.mu.Lock()
	n.log.on = true
	n.log.mu.Unlock()
	return nil
}

// NetworkFilter selects requests of the network log.
type NetworkFilter struct {
	// URL matches a substring of the URL, or a glob when it has a *.
	URL string
	// URLRegex matches the URL with a regular expression.
	URLRegex string
	// Types are resource types (document, script, xhr, fetch, …).
	Types []string
	// Status is an exact status (404) or a class ("4xx").
	Status string
	// Failed keeps only requests with status ≥ 400 or a network error.
	Failed bool
	// Since keeps requests sent at or after it.
	Since time.Time
}

// URLMatcher matches request URLs: a substring, a glob (with *), or a
// regular expression.
type URLMatcher struct {
	sub  string
	glob *regexp.Regexp
	re   *regexp.Regexp
}

// NewURLMatcher compiles a URL pattern and/or a regular expression; both
// empty match every URL.
func NewURLMatcher(pattern, re string) (*URLMatcher, error) {
	m := &URLMatcher{}
	if strings.Contains(pattern, "*") {
		q := regexp.QuoteMeta(pattern)
		q = strings.ReplaceAll(q, `\*\*`, `.*`)
		q = strings.ReplaceAll(q, `\*`, `.*`)
		m.glob = regexp.MustCompile("^" + q + "$")
	} else {
		m.sub = pattern
	}
	if re != "" {
		c, err := regexp.Compile(re)
		if err != nil {
			return nil, failure.Errorf(failure.KindStepValidation, "urlRegex %q is not a valid regular expression: %v", re, err).
				WithHint("use Go RE2 syntax, e.g. \"/api/items/\\\\d+$\"")
		}
		m.re = c
	}
	return m, nil
}

// Match reports whether u matches.
func (m *URLMatcher) Match(u string) bool {
	if m.glob != nil && !m.glob.MatchString(u) {
		return false
	}
	if m.sub != "" && !strings.Contains(u, m.sub) {
		return false
	}
	return m.re == nil || m.re.MatchString(u)
}

// CheckStatusFilter validates a status filter: a code (404) or a class (4xx).
func CheckStatusFilter(s string) error {
	if s == "" {
		return nil
	}
	if n, err := strconv.Atoi(s); err == nil && n >= 100 && n < 600 {
		return nil
	}
	if len(s) == 3 && s[0] >= '1' && s[0] <= '5' && strings.EqualFold(s[1:], "xx") {
		return nil
	}
	return failure.Errorf(failure.KindStepValidation, "status %q is neither an HTTP status (404) nor a class (4xx)", s)
}

func statusMatches(filter string, status int64) bool {
	if filter == "" {
		return true
	}
	if n, err := strconv.Atoi(filter); err == nil {
		return int64(n) == status
	}
	return status/100 == int64(filter[0]-'0')
}

// Requests returns copies of the requests of the log that match f,
// oldest first. URLs are as sent: pass them through RedactURL before
// showing them.
func (n *Network) Requests(ctx context.Context, f NetworkFilter) ([]Request, error) {
	m, err := NewURLMatcher(f.URL, f.URLRegex)
	if err != nil {
		return nil, err
	}
	if err := CheckStatusFilter(f.Status); err != nil {
		return nil, err
	}
	if err := CheckResourceTypes(f.Types); err != nil {
		return nil, err
	}
	n.sync(ctx, true)
	n.log.mu.Lock()
	defer n.log.mu.Unlock()
	var out []Request
	for _, r := range n.log.reqs {
		if r.URL == "" || r.at.Before(f.Since) || !m.Match(r.URL) || !statusMatches(f.Status, r.Status) {
			continue
		}
		if f.Failed && !r.Failed() {
			continue
		}
		if len(f.Types) > 0 && !containsFold(f.Types, r.Type) {
			continue
		}
		out = append(out, *r)
	}
	return out, nil
}

// ResourceTypes are the request types Chrome reports, in lower case.
var ResourceTypes = []string{"document", "stylesheet", "image", "media", "font", "script", "texttrack", "xhr", "fetch",
	"prefetch", "eventsource", "websocket", "manifest", "signedexchange", "ping", "cspviolationreport", "preflight", "other"}

// CheckResourceTypes refuses a type filter Chrome never reports.
func CheckResourceTypes(types []string) error {
	for _, t := range types {
		if !containsFold(ResourceTypes, t) {
			return failure.Errorf(failure.KindStepValidation, "type %q is not a resource type", t).WithHint("use %s", strings.Join(ResourceTypes, ", "))
		}
	}
	return nil
}

// IsFavicon reports whether u is a favicon request (the browser makes
// those on its own).
func IsFavicon(u string) bool {
	return strings.HasSuffix(strings.SplitN(u, "?", 2)[0], "/favicon.ico")
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// Clear forgets the requests recorded so far.
func (n *Network) Clear() {
	n.log.mu.Lock()
	defer n.log.mu.Unlock()
	n.log.reqs = nil
	n.log.byID = map[network.RequestID]*Request{}
	n.log.routed = map[network.RequestID]string{}
	n.log.claimed = nil
}

// Recording reports whether the tab's requests are being recorded.
func (n *Network) Recording() bool {
	n.log.mu.Lock()
	defer n.log.mu.Unlock()
	return n.log.on
}

// diagnosedTypes are the resource types whose failures the answer reports.
var diagnosedTypes = map[string]bool{"document": true, "script": true, "xhr": true, "fetch": true}

// Failed returns the failed requests sent since since that an
// agent should hear of: the document, scripts, XHR and fetch; not the
// browser's own favicon request, not requests a route aborted, not
// requests the page itself cancelled (a navigation away, a download).
func (n *Network) Failed(ctx context.Context, since time.Time) []Request {
	n.sync(ctx, false)
	n.log.mu.Lock()
	defer n.log.mu.Unlock()
	var out []Request
	for _, r := range n.log.reqs {
		if r.at.Before(since) || !r.Failed() || !diagnosedTypes[r.Type] || r.Routed != "" || IsFavicon(r.URL) {
			continue
		}
		if r.Status < 400 && (r.canceled || strings.Contains(r.Failure, "ERR_ABORTED")) {
			continue
		}
		out = append(out, *r)
	}
	return out
}

// ResponseWait says which response WaitForResponse waits for.
type ResponseWait struct {
	URL, URLRegex string
	Status        string
	Method        string
	// Since ignores requests sent before it (the command's start).
	Since time.Time
	// Body asks for the response body, at most this many bytes (0 = none).
	Body int
}

// ResponseResult is the response WaitForResponse found.
type ResponseResult struct {
	Request
	Body string `json:"body,omitempty"`
	// BodyBytes is the body's full size when it was cut or not text.
	BodyBytes     int  `json:"bodyBytes,omitempty"`
	BodyTruncated bool `json:"bodyTruncated,omitempty"`
	BodyBinary    bool `json:"bodyBinary,omitempty"`
}

// WaitForResponse waits for a request of the tab matching w whose response
// has fully arrived (or that failed), sent since w.Since and not returned
// by an earlier WaitForResponse, and returns it, with its body when asked.
func (n *Network) WaitForResponse(ctx context.Context, w ResponseWait) (*ResponseResult, error) {
	m, err := NewURLMatcher(w.URL, w.URLRegex)
	if err != nil {
		return nil, err
	}
	if err := CheckStatusFilter(w.Status); err != nil {
		return nil, err
	}
	if !n.Recording() {
		return nil, failure.Errorf(failure.KindStepValidation, "the tab's network events are off, so no response can be awaited")
	}
	for {
		changed := n.Changed()
		if r := n.claimResponse(m, w); r != nil {
			res := &ResponseResult{Request: *r}
			if w.Body > 0 && r.Failure == "" {
				n.readBody(ctx, res, w.Body)
			}
			return res, nil
		}
		select {
		case <-ctx.Done():
			return nil, failure.Errorf(failure.KindTimeout, "no response to a URL matching %s arrived: %s", describeMatch(w), n.seenURLs(m, w.Since)).
				WithHint("check the pattern against the network step's list; the response must arrive during this command")
		case <-changed:
		}
	}
}

func describeMatch(w ResponseWait) string {
	var parts []string
	if w.URL != "" {
		parts = append(parts, fmt.Sprintf("%q", w.URL))
	}
	if w.URLRegex != "" {
		parts = append(parts, fmt.Sprintf("urlRegex %q", w.URLRegex))
	}
	if w.Method != "" {
		parts = append(parts, "method "+w.Method)
	}
	if w.Status != "" {
		parts = append(parts, "status "+w.Status)
	}
	if len(parts) == 0 {
		return "anything"
	}
	return strings.Join(parts, ", ")
}

// seenURLs lists a few URLs requested during the wait, for the timeout
// message.
func (n *Network) seenURLs(m *URLMatcher, since time.Time) string {
	n.log.mu.Lock()
	defer n.log.mu.Unlock()
	var urls []string
	for i := len(n.log.reqs) - 1; i >= 0 && len(urls) < 5; i-- {
		if r := n.log.reqs[i]; !r.at.Before(since) && r.URL != "" {
			urls = append(urls, clip(r.URL, 120))
		}
	}
	if len(urls) == 0 {
		return "the tab made no request during this command"
	}
	return "latest requests: " + strings.Join(urls, ", ")
}

func (n *Network) claimResponse(m *URLMatcher, w ResponseWait) *Request {
	n.log.mu.Lock()
	defer n.log.mu.Unlock()
	if n.log.claimed == nil {
		n.log.claimed = map[int]bool{}
	}
	for _, r := range n.log.reqs {
		if r.Pending || r.URL == "" || r.RedirectedTo != "" || n.log.claimed[r.seq] || r.at.Before(w.Since) {
			continue
		}
		if !m.Match(r.URL) || !statusMatches(w.Status, r.Status) || (w.Method != "" && !strings.EqualFold(w.Method, r.Method)) {
			continue
		}
		n.log.claimed[r.seq] = true
		c := *r
		return &c
	}
	return nil
}

// readBody fetches a finished response's body, cut to limit bytes.
func (n *Network) readBody(ctx context.Context, res *ResponseResult, limit int) {
	body, err := cdp.Call(ctx, n.sess, network.GetResponseBody, network.GetResponseBodyParams{RequestID: res.id})
	if err != nil {
		return
	}
	data := []byte(body.Body)
	if body.Base64encoded {
		res.BodyBinary = true
		res.BodyBytes = len(data) * 3 / 4
		return
	}
	if len(data) > limit {
		res.Body, res.BodyBytes, res.BodyTruncated = clip(string(data), limit), len(data), true
		return
	}
	res.Body = string(data)
}

// clip cuts s to n bytes, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
