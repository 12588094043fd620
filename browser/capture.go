package browser

import "context"

// PageContext is the page state every answer carries (spec §14.4).
type PageContext struct {
	URL           string         `json:"url"`
	Title         string         `json:"title"`
	Scroll        *ScrollInfo    `json:"scroll,omitempty"`
	Viewport      *ViewportInfo  `json:"viewport,omitempty"`
	ActiveElement map[string]any `json:"activeElement,omitempty"`
	Modal         map[string]any `json:"modal,omitempty"`
	// Doc tells documents apart (the document's time origin): a reload
	// keeps the URL but not this.
	Doc float64 `json:"doc,omitempty"`
}

// CaptureOptions select what PostCapture renders.
type CaptureOptions struct {
	Viewport bool `json:"viewport"`
	Full     bool `json:"full"`
	// Scope renders the viewport snapshot scoped to main and what the
	// command changed, with a line saying what it left out.
	Scope bool `json:"scope,omitempty"`
	// Hovered says the command's last visual step was a hover: the scoped
	// view also shows the part of the page the pointer is over (a menu
	// that opens on :hover changes no DOM, so no change log names it).
	Hovered bool `json:"hovered,omitempty"`
	// Present lists refs (the viewport's before the command) to check:
	// Capture.Present says which are still in the page.
	Present []string `json:"present,omitempty"`
	// PeekLog leaves the engine's change log running: the capture is a
	// diff's baseline read after the action's check has started the log.
	PeekLog bool `json:"peekLog,omitempty"`
	// Baseline marks the diff's baseline, read before the command's first
	// visual step: it starts the change logs of the top document (until an
	// action makes it its own) and of the frames it shows.
	Baseline bool `json:"baseline,omitempty"`
}

// Capture is the page state after a command.
type Capture struct {
	Context  *PageContext `json:"context"`
	Viewport *Snapshot    `json:"viewport,omitempty"`
	Full     *Snapshot    `json:"full,omitempty"`
	// Text lists the text changes of the command's actions (`+ alert:
	// …`, `~ status: … (was: …)`, `- alert: …`); Transient, texts that
	// appeared and vanished while they ran.
	Text      []string `json:"text,omitempty"`
	Transient []string `json:"transient,omitempty"`
	// Fresh lists the viewport's refs inside what the command's actions
	// changed (nil: no action was watched, so unknown); Present, those of
	// CaptureOptions.Present still in the page and shown.
	Fresh   []string `json:"fresh"`
	Present []string `json:"present,omitempty"`
	Seq     *seqJSON `json:"seq,omitempty"`
}

// captureArg is postCapture's argument: the options and the ref counters.
// FrameActed says an action of the command ran in a frame: the top
// document's log, started by the diff's baseline, then has news of what
// that action did to the page around the frame (a toast).
type captureArg struct {
	CaptureOptions
	Seq        seqJSON `json:"seq"`
	FrameActed bool    `json:"frameActed,omitempty"`
	// ScanAt is the change count of the document's last click listener
	// scan (renderScanned); nil asks for none.
	ScanAt *int64 `json:"scanAt,omitempty"`
}

func (p *Page) captureArg(o CaptureOptions) captureArg {
	p.mu.Lock()
	acted := len(p.frameLogs) > 0
	p.mu.Unlock()
	return captureArg{o, p.seqArg(), acted, nil}
}

// PostCapture reads, in one round trip, the context and the internal
// viewport and full snapshots (they keep refs and take no snapshot id). It
// runs in the top frame. When the capture for o was taken as the action
// settled (CaptureAhead), it answers with that one, without a round trip.
func (p *Page) PostCapture(ctx context.Context, o CaptureOptions) (*Capture, error) {
	ctx = inFrame(ctx, nil)
	var c Capture
	scan := o.Viewport || o.Full
	if scan && p.aheadSent() {
		scan = false
		if p.scanClickListeners(ctx) {
			// The page gave elements click listeners since the capture
			// taken ahead was rendered: it would miss their refs.
			p.dropCaptureAhead()
		}
	}
	if ahead := p.takeCaptureAhead(ctx, o); ahead != nil {
		c = *ahead
	} else if err := p.capture(ctx, &c, o, scan); err != nil {
		return nil, err
	}
	p.storeSeq(c.Seq)
	c.Seq = nil
	if c.Context != nil && c.Context.ActiveElement != nil {
		c.Context.ActiveElement = p.focusInFrames(ctx, c.Context.ActiveElement)
	}
	p.spliceCapture(ctx, &c, o.frameChangeLog())
	c.takeFrameNews()
	p.framePresent(ctx, o.Present, &c)
	p.frameFresh(o.Present, &c)
	p.frameLogsText(ctx, &c)
	return &c, nil
}

// capture renders the capture of o into c; scan folds the click listener
// scan's question into the call (renderScanned).
func (p *Page) capture(ctx context.Context, c *Capture, o CaptureOptions, scan bool) error {
	if !scan {
		return p.engineCall(ctx, c, epPostCapture, p.captureArg(o))
	}
	return p.renderScanned(ctx, func(scanAt *int64) (int64, error) {
		var a struct {
			Capture
			Rescan int64 `json:"rescan"`
		}
		arg := p.captureArg(o)
		arg.ScanAt = scanAt
		err := p.engineCall(ctx, &a, epPostCapture, arg)
		*c = a.Capture
		return a.Rescan, err
	})
}

// aheadSent reports whether a capture was sent ahead of the action: its
// listener scan is asked on its own, before the capture is taken.
func (p *Page) aheadSent() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.ahead != nil && p.ahead.signal != ""
}

// frameChangeLog is what the capture does with the frames' change logs:
// the diff's baseline starts them, the capture after the command (scoped
// to what it changed) takes them.
func (o CaptureOptions) frameChangeLog() string {
	switch {
	case o.Scope:
		return "take"
	case o.Baseline:
		return "start"
	}
	return ""
}

// takeFrameNews moves what the command changed in frames, read from their
// change logs, into the capture's text news and fresh refs (when the top
// document's log says which are fresh at all).
func (c *Capture) takeFrameNews() {
	if c.Viewport == nil || c.Viewport.News == nil {
		return
	}
	n := c.Viewport.News
	c.Viewport.News = nil
	c.Text = append(c.Text, n.Text...)
	c.Transient = append(c.Transient, n.Transient...)
	if c.Fresh != nil {
		c.Fresh = append(c.Fresh, n.Fresh...)
	}
}

// VisualKey returns a key that changes whenever what the viewport shows
// may have changed (DOM, scroll, viewport, focus, pointer, document), or ""
// when the page has content whose look the key cannot follow (animations,
// canvas, video, frames, custom elements, images still loading). Equal
// keys mean a screenshot taken at the first would show the same page. It
// runs in the top frame.
func (p *Page) VisualKey(ctx context.Context) (string, error) {
	ctx = inFrame(ctx, nil)
	var key *string
	if err := p.engineCall(ctx, &key, epVisualKey); err != nil {
		return "", err
	}
	if key == nil {
		return "", nil
	}
	return *key, nil
}

// Diagnose gathers failure context (spec §16.3): page state, visible
// buttons and links (with refs), visible errors, and near matches for
// query. It runs in the current frame and never fails: missing pieces are
// left out.
func (p *Page) Diagnose(ctx context.Context, query string) map[string]any {
	var d map[string]any
	if err := p.engineCall(ctx, &d, epDiagnose, query); err != nil {
		return nil
	}
	if seq, ok := d["seq"].(map[string]any); ok {
		p.storeSeq(&seqJSON{Snap: int(num(seq["snap"])), Elem: int(num(seq["elem"]))})
	}
	delete(d, "seq")
	return d
}

func num(v any) float64 {
	f, _ := v.(float64)
	return f
}
