package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"

	"github.com/cdp-skill/cdp-skill/browser/state"
)

// Page is an attached tab: one flat CDP session on a page target.
type Page struct {
	Browser  *Browser
	TargetID target.ID
	sess     *Session
	// parked says no program holds this kept page (see Park).
	parked atomic.Bool
	// tabClosed says Chrome detached the page's session: the tab closed.
	tabClosed atomic.Bool

	// The tab's parts, one concept each, reached by the accessors below
	// (newPage wires them).
	net     Network
	dlg     Dialogs
	console Console
	dls     Downloads
	emu     Emulation
	in      Input
	store   Storage
	frames  Frames // methods over the frame fields below
	camera  Camera
	scripts Scripts

	mu sync.Mutex
	// lifecycleOn records that Page.setLifecycleEventsEnabled was sent.
	lifecycleOn bool
	// overrides are the command-long emulations set (see Park).
	overrides commandOverrides
	// refFrames records the frame of each ref taken inside an iframe
	// (loaded on first use; refFramesDirty: not yet saved).
	refFrames      *state.RefFrames
	refFramesDirty bool
	// slowFrames had no JavaScript context when a snapshot looked (not
	// waited for again).
	slowFrames map[cdp.FrameID]bool
	// busyFrames did not answer a snapshot in time (framesnap.go).
	busyFrames map[cdp.FrameID]bool
	// contexts tracks the default execution context of each frame the
	// page's own renderer hosts.
	contexts *contextTracker
	// oopifs are the sessions of out-of-process iframes, by frame id.
	oopifs *oopifTracker
	// Warnings are notes about the tab for the command's answer.
	Warnings []string
	// seqState holds the tab's ref counters (see state.TabState).
	seqState  state.TabState
	seqLoaded bool
	// stops drop the page's event subscriptions (Close), and closed says
	// Close ran; guarded by mu.
	stops  []func()
	closed bool
	// urls says which local URLs Navigate may open; guarded by mu.
	urls URLPolicy
	// worlds are the engine's isolated world contexts by frame document
	// (world.go); guarded by mu.
	worlds map[worldKey]runtime.ExecutionContextID
	// scanned are the documents whose click listeners were scanned, by
	// their engine world (listeners.go); guarded by mu.
	scanned map[documentKey]*clickScan
	// ahead is the post-command capture asked to be taken as the next
	// click settles (CaptureAhead).
	ahead *captureAhead
	// beforeChange runs once before the next action changes the page
	// (BeforeChange).
	beforeChange func(context.Context)
	// frameLogs are the child frames whose change log an action started
	// (frameLog): the capture reads their text news too.
	frameLogs []worldKey
	// watchObjs are the action watch's handles per document it was
	// called in (watchhandle.go); guarded by mu.
	watchObjs watchHandles
	// startURL is the URL read sent along as the page was handed to a
	// program (pageurl.go); guarded by mu.
	startURL urlRead
}

func newPage(b *Browser, id target.ID, s *Session) *Page {
	p := &Page{Browser: b, TargetID: id, sess: s}
	p.net.Attach(s, p.urlPolicy)
	p.dlg.sess, p.dlg.parked = s, &p.parked
	p.console.sess = s
	p.dls = Downloads{all: &b.dl, sess: s, top: cdp.FrameID(id), outOfProcess: p.outOfProcessFrames}
	p.emu.p, p.in.p, p.store.p = p, p, p
	p.frames.p, p.camera.p, p.scripts.p = p, p, p
	return p
}

// Network returns the tab's network: its request log, routes and HAR.
func (p *Page) Network() *Network { return &p.net }

// Dialogs returns the tab's JavaScript dialogs: how they are answered and
// the log of those that opened.
func (p *Page) Dialogs() *Dialogs { return &p.dlg }

// Console returns the tab's console messages, exceptions and browser log
// entries.
func (p *Page) Console() *Console { return &p.console }

// Downloads returns the downloads the tab's frames start.
func (p *Page) Downloads() *Downloads { return &p.dls }

// Emulation returns what the tab emulates: viewport, geolocation.
func (p *Page) Emulation() *Emulation { return &p.emu }

// Input returns the tab's keyboard and mouse.
func (p *Page) Input() *Input { return &p.in }

// Storage returns the tab's cookies and sign-in state.
func (p *Page) Storage() *Storage { return &p.store }

// Frames returns the tab's frames: listing, switching, the current one.
func (p *Page) Frames() *Frames { return &p.frames }

// Camera returns what takes the tab's screenshots and PDF prints.
func (p *Page) Camera() *Camera { return &p.camera }

// Scripts returns what runs the agent's JavaScript in the tab.
func (p *Page) Scripts() *Scripts { return &p.scripts }

// SetURLPolicy sets which local URLs (file:, chrome:, …) Navigate may
// open; a new page allows none.
func (p *Page) SetURLPolicy(pol URLPolicy) {
	p.mu.Lock()
	p.urls = pol
	p.mu.Unlock()
}

// onClose registers subscriptions to drop when the page is closed.
func (p *Page) onClose(stops ...func()) {
	p.mu.Lock()
	closed := p.closed
	if !closed {
		p.stops = append(p.stops, stops...)
	}
	p.mu.Unlock()
	if closed {
		// Subscribed by a goroutine that ran after Close.
		for _, stop := range stops {
			stop()
		}
	}
}

// Close drops the page's event subscriptions (contexts, console, dialogs),
// ending the goroutines that read them; the tab itself stays open. A page
// whose session Chrome detached is closed so nothing of it lives on until
// the connection closes. The page is not usable afterwards.
func (p *Page) Close() {
	p.mu.Lock()
	stops := p.stops
	p.stops, p.closed = nil, true
	p.mu.Unlock()
	for _, stop := range stops {
		stop()
	}
}

// TabClosed reports whether the tab closed (Chrome detached the page's
// session) while the page was in use: by the page itself
// (window.close()), the user or another agent.
func (p *Page) TabClosed() bool { return p.tabClosed.Load() }

// NewDocumentNote is what a step's error or warning adds when the page
// loaded another document while the step ran.
const NewDocumentNote = "meanwhile the page loaded a new document (a navigation or a reload)"

// Documents counts the documents the tab's top frame has had since it was
// attached: a navigation or a reload adds one. A step compares it before
// and after to tell that the page changed under it.
func (p *Page) Documents() int {
	if p.contexts == nil {
		return 0
	}
	return p.contexts.documentsOf(cdp.FrameID(p.TargetID))
}

// FrameDocuments counts the documents frame f has had since the page was
// attached (Documents for nil, the top document), across the renderers it
// moved between.
func (p *Page) FrameDocuments(f *Frame) int {
	if f == nil || f.p != p {
		return p.Documents()
	}
	frame := f.ref.id
	n := 0
	if p.contexts != nil {
		n = p.contexts.documentsOf(frame)
	}
	p.mu.Lock()
	t := p.oopifs
	p.mu.Unlock()
	if t != nil {
		n += t.documentsOf(frame)
	}
	return n
}

// navigationGone reports whether err is an execution context a navigation
// destroyed, worth trying again in the new document: not one of a tab
// that closed (its error is the same kind), where waiting more only runs
// out the step's time.
func (p *Page) navigationGone(err error) bool {
	return KindOf(err) == KindContextDestroyed && !p.TabClosed()
}

// Session returns the page's CDP session, for callers that need a command
// this package does not wrap.
func (p *Page) Session() *Session { return p.sess }

// init enables the domains every program needs: Page (navigation, dialogs),
// Runtime (contexts, console) and Log (browser messages). The calls are
// pipelined. Inspector comes first: it reports at once a renderer that
// crashed before we attached. A crashed or blocked page still attaches:
// its commands then fail fast with PageCrashedError or
// PageUnresponsiveError, and a navigation (goto, reload) recovers it.
func (p *Page) init(ctx context.Context) error {
	p.onClose(p.sess.OnDetach(func() { p.tabClosed.Store(true) }))
	p.contexts = trackContexts(p.sess)
	p.onClose(p.contexts.stop)
	p.console.track(p.onClose)
	p.net.Track(p.onClose)
	p.dlg.handle(p.onClose)
	p.dlg.seen = append(p.dlg.seen, takeKeptDialogs(p.TargetID)...)
	if err := p.sess.Call(ctx, "Inspector.enable", nil, nil); err != nil {
		return err
	}
	if p.sess.Crashed() {
		return nil
	}
	limit := blockedAfter
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < 2*limit {
		limit = time.Until(dl) / 2
	}
	err := p.enableDomains(ctx, limit)
	if err == nil || ctx.Err() != nil {
		return err
	}
	if p.sess.Crashed() {
		return nil
	}
	// A tab whose page opened a dialog while no cdp-skill process was
	// connected is frozen, and only the session that saw the dialog open
	// can answer it; a script that never returns freezes it too; a loaded
	// machine is merely slow. Suspect it (a navigation recovers it first;
	// a step that times out probes it) and let the enables finish.
	p.sess.SuspectUnresponsive(unresponsiveError(limit, "its main thread is blocked, by a JavaScript dialog that opened while no command was connected or by a script that never returns"))
	go func() {
		ectx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
		defer cancel()
		if p.enableDomains(ectx, 0) == nil {
			p.sess.ClearSuspicion()
		}
	}()
	return nil
}

// blockedAfter is how long enabling the domains may take before the tab
// counts as blocked.
const blockedAfter = 3 * time.Second

// enableDomains enables Page, Runtime, Log and Network, pipelined; a limit
// > 0 bounds the wait.
func (p *Page) enableDomains(ctx context.Context, limit time.Duration) error {
	if limit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, limit)
		defer cancel()
	}
	errs := make(chan error, 4)
	go func() { _, err := cdp.Call(ctx, p.sess, page.Enable, page.EnableParams{}); errs <- err }()
	go func() { _, err := cdp.Call(ctx, p.sess, runtime.Enable, cdp.Empty{}); errs <- err }()
	go func() { errs <- p.console.enable(ctx) }()
	go func() { errs <- p.net.Enable(ctx) }()
	var first error
	for range 4 {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	return first
}

// JSError is an exception thrown by page JavaScript.
type JSError struct {
	Text   string
	Source string
}

func (e *JSError) Error() string {
	if e.Source == "" {
		return e.Text
	}
	return fmt.Sprintf("%s (in: %s)", e.Text, preview(e.Source, 120))
}

func preview(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// Eval evaluates a JavaScript expression in the current frame, awaits a
// returned promise and returns the JSON value (null for undefined).
func (p *Page) Eval(ctx context.Context, expr string) (json.RawMessage, error) {
	sess, ctxID := p.exec(ctx)
	return evaluate(ctx, sess, runtime.EvaluateParams{
		Expression:    expr,
		ContextID:     ctxID,
		ReturnByValue: ptr(true),
		AwaitPromise:  ptr(true),
		UserGesture:   ptr(true),
	}, expr)
}

// evaluate runs Runtime.evaluate by value and returns the JSON value (null
// for undefined); an exception is a *JSError, carrying source when given.
func evaluate(ctx context.Context, sess *Session, params runtime.EvaluateParams, source string) (json.RawMessage, error) {
	res, err := cdp.Call(ctx, sess, runtime.Evaluate, params)
	if err != nil {
		return nil, err
	}
	if res.ExceptionDetails != nil {
		return nil, &JSError{Text: exceptionText(res.ExceptionDetails), Source: source}
	}
	if res.Result == nil || len(res.Result.Value) == 0 {
		return json.RawMessage("null"), nil
	}
	return json.RawMessage(res.Result.Value), nil
}

// Call evaluates fn (a JavaScript function expression) applied to args,
// which are passed as JSON.
func (p *Page) Call(ctx context.Context, fn string, args ...any) (json.RawMessage, error) {
	expr, err := callExpr(fn, args...)
	if err != nil {
		return nil, err
	}
	return p.Eval(ctx, expr)
}

// CallInto is Call decoding the result into out.
func (p *Page) CallInto(ctx context.Context, out any, fn string, args ...any) error {
	raw, err := p.Call(ctx, fn, args...)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("decode page result: %w", err)
	}
	return nil
}

func callExpr(fn string, args ...any) (string, error) {
	var b strings.Builder
	b.WriteString("(")
	b.WriteString(fn)
	b.WriteString(")(")
	for i, a := range args {
		if i > 0 {
			b.WriteString(",")
		}
		data, err := json.Marshal(a)
		if err != nil {
			return "", fmt.Errorf("encode argument %d: %w", i, err)
		}
		b.Write(data)
	}
	b.WriteString(")")
	return b.String(), nil
}

// exec returns the session and execution context that page JavaScript of
// ctx's frame runs in (context 0: the session's default).
func (p *Page) exec(ctx context.Context) (*Session, runtime.ExecutionContextID) {
	f := p.frameIn(ctx)
	if f == nil {
		return p.sess, 0
	}
	return f.sess, f.ctxID
}

// Info is the page state every answer carries (spec §14.4).
type Info struct {
	URL      string        `json:"url"`
	Title    string        `json:"title"`
	Scroll   *ScrollInfo   `json:"scroll,omitempty"`
	Viewport *ViewportInfo `json:"viewport,omitempty"`
}

// ScrollInfo is the vertical scroll position.
type ScrollInfo struct {
	Y       int `json:"y"`
	Percent int `json:"percent"`
}

// ViewportInfo is the viewport size in CSS pixels.
type ViewportInfo struct {
	Width  int `json:"width"`
	Height int `json:"height"`
}

const infoJS = `() => {
  const se = document.scrollingElement || document.documentElement;
  const max = Math.max(0, (se ? se.scrollHeight : 0) - innerHeight);
  const y = Math.round(scrollY);
  return {url: location.href, title: document.title,
    scroll: {y, percent: max > 0 ? Math.min(100, Math.round(y * 100 / max)) : 0},
    viewport: {width: innerWidth, height: innerHeight}};
}`

// Info reads url, title, scroll and viewport of the top document, in the
// engine's world (the page's own could redefine document.title).
func (p *Page) Info(ctx context.Context) (*Info, error) {
	params := runtime.EvaluateParams{Expression: "(" + infoJS + ")()", ReturnByValue: ptr(true)}
	if world, err := p.worldIn(ctx, p.sess, cdp.FrameID(p.TargetID)); err == nil {
		params.ContextID = world
	}
	res, err := cdp.Call(ctx, p.sess, runtime.Evaluate, params)
	if err != nil && params.ContextID != 0 && worldGone(err) {
		// The document changed since the world was made: make it again.
		p.forgetWorld(p.sess, params.ContextID)
		params.ContextID, _ = p.worldIn(ctx, p.sess, cdp.FrameID(p.TargetID))
		res, err = cdp.Call(ctx, p.sess, runtime.Evaluate, params)
	}
	if err != nil {
		return nil, err
	}
	if res.ExceptionDetails != nil {
		return nil, &JSError{Text: exceptionText(res.ExceptionDetails)}
	}
	var info Info
	if err := json.Unmarshal(res.Result.Value, &info); err != nil {
		return nil, fmt.Errorf("decode page info: %w", err)
	}
	return &info, nil
}

// BringToFront makes the tab the active one of its window, so that it is
// visible and gets frames.
func (p *Page) BringToFront(ctx context.Context) error {
	_, err := cdp.Call(ctx, p.sess, page.BringToFront, cdp.Empty{})
	return err
}

// browserContextID returns the browser context the tab lives in, or ""
// for the default one (which CDP commands name by leaving it out).
func (p *Page) browserContextID(ctx context.Context) (cdp.BrowserContextID, error) {
	res, err := cdp.Call(ctx, p.Browser.Session(), target.GetTargetInfo, target.GetTargetInfoParams{TargetID: p.TargetID})
	if err != nil {
		return "", fmt.Errorf("read the tab's browser context: %w", err)
	}
	id := res.TargetInfo.BrowserContextID
	if id == "" {
		return "", nil
	}
	all, err := cdp.Call(ctx, p.Browser.Session(), target.GetBrowserContexts, cdp.Empty{})
	if err != nil {
		return "", fmt.Errorf("list browser contexts: %w", err)
	}
	if id == all.DefaultBrowserContextID {
		return "", nil
	}
	return id, nil
}
