package runtime

import (
	"context"
	"time"

	"github.com/cdp-skill/cdp-skill/browser"
)

// The diff's baseline is the viewport state before the command's first
// visual step. A JSON command reads it ahead: sent with the kept tab's
// check (sendBaselineWithAttach), or read while the program compiles
// (readBeforeAhead). When the first step looks its target up first
// (lang.Action.LooksUpFirst), that lookup goes out right behind the
// baseline, without waiting for its answer (readBeforeSent).

// beforeVisual takes the viewport state before the first visual step of
// the command, for the diff.
func (h *host) beforeVisual() {
	if h.visual {
		return
	}
	h.visual = true
	if h.beforeSent != nil && h.captureSet.Diff {
		if p, err := h.env.Page(); err == nil {
			h.beforePage = p
			p.BeforeChange(h.readBeforeSent)
			return
		}
	}
	ahead := h.takeBeforeAhead()
	if !h.captureSet.Diff {
		return
	}
	c := ahead
	if c == nil {
		c = h.readBefore(h.ctx, false)
	}
	h.setBefore(c)
}

// setBefore keeps c's viewport as the diff's baseline.
func (h *host) setBefore(c *browser.Capture) {
	if c != nil && c.Viewport != nil {
		h.before = c.Viewport.Elements
		h.beforeURL = c.Context.URL
		h.beforeDoc = c.Context.Doc
		h.beforeTab = h.env.Tab().TargetID
		if p, err := h.env.Page(); err == nil {
			h.basePage, h.baseDocs = p, p.Documents()
		}
	}
}

// readBeforeSent reads the baseline sent ahead, and the URL read with it,
// once the first step has looked its target up (browser.Page.BeforeChange):
// the lookup went out behind them, so their answer is in. When that one
// call was not the whole read (frames, no engine, another document), the
// baseline is read now, before the step changes the page; the change log
// the step's check started is left running.
func (h *host) readBeforeSent(ctx context.Context) {
	sent := h.takeBeforeSent()
	if sent == nil {
		return
	}
	// The URL the command started on rode with the baseline; when it did
	// not come back, it is read now, still before the step changes the
	// page.
	h.resolveURLBefore()
	c := sent(ctx)
	if c == nil {
		c = h.readBefore(ctx, true)
	}
	h.setBefore(c)
}

// endBeforeSent settles a baseline sent ahead that the first step never
// read (it failed before its lookup): its answer, taken before the step,
// or none.
func (h *host) endBeforeSent() {
	if h.beforePage != nil {
		h.beforePage.BeforeChange(nil)
	}
	sent := h.takeBeforeSent()
	if sent == nil {
		return
	}
	ctx, cancel := context.WithTimeout(h.ctx, 5*time.Second)
	defer cancel()
	h.setBefore(sent(ctx))
}

// takeBeforeSent returns the wait for the baseline sent ahead (nil when
// none is pending) and forgets it, once.
func (h *host) takeBeforeSent() func(context.Context) *browser.Capture {
	sent := h.beforeSent
	h.beforeSent, h.beforePage = nil, nil
	return sent
}

// readBefore reads the viewport state the diff compares with; peek leaves
// the engine's change log running (an action's check started it).
func (h *host) readBefore(ctx context.Context, peek bool) *browser.Capture {
	p, err := h.env.Page()
	if err != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	c, err := p.PostCapture(ctx, browser.CaptureOptions{Viewport: true, PeekLog: peek, Baseline: true})
	if err != nil {
		return nil
	}
	return c
}

// readBeforeAhead starts reading the diff's baseline as a JSON command
// starts, when its first step is visual and its capture asks for a diff:
// the read then goes out with the URL's and overlaps compiling, instead of
// costing the first step a round trip. Nothing runs in the page between
// the two moments (the first step is the first thing the program does).
func (h *host) readBeforeAhead() {
	sent := h.baselineSent
	h.baselineSent = nil
	if !h.wantsBaselineAhead() {
		return
	}
	if sent != nil && h.prog.FirstStepLooksUp {
		h.beforeSent = sent
		return
	}
	ch := make(chan *browser.Capture, 1)
	go func() {
		var c *browser.Capture
		if sent != nil {
			c = sent(h.ctx)
		}
		if c == nil {
			c = h.readBefore(h.ctx, false)
		}
		ch <- c
	}()
	h.beforeAhead = func() *browser.Capture { return <-ch }
}

// wantsBaselineAhead says the command is JSON whose first step is visual
// and whose capture asks for a diff: its baseline can be read before the
// program runs.
func (h *host) wantsBaselineAhead() bool {
	if !h.prog.FirstStepVisual {
		return false
	}
	set := h.captureSet
	if h.prog.Capture != nil {
		var err error
		if set, err = applyCapture(set, h.prog.Capture); err != nil {
			return false
		}
	}
	return set.Diff
}

// sendBaselineWithAttach has the diff's baseline go out with the check
// that the command's kept tab is still there (browser.Pool.Attach's
// ahead): one round trip fewer before the first step.
func (h *host) sendBaselineWithAttach() func() {
	if !h.prog.FromJSON || !h.wantsBaselineAhead() {
		return func() {}
	}
	h.env.AheadOfAttach = func(p *browser.Page) { h.baselineSent = p.SendBaseline(h.ctx) }
	return func() { h.env.AheadOfAttach = nil }
}

// takeBeforeAhead waits for the baseline readBeforeAhead started (nil when
// none was), once.
func (h *host) takeBeforeAhead() *browser.Capture {
	if h.beforeAhead == nil {
		return nil
	}
	c := h.beforeAhead()
	h.beforeAhead = nil
	return c
}
