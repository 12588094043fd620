package browser

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
)

// Reads by position through frames: getBox of refs taken inside iframes,
// and elementsAt at a point over an iframe.

// inverse is the map undoing m (m must not be degenerate).
func (m affine) inverse() (affine, bool) {
	det := m.a*m.d - m.b*m.c
	if math.Abs(det) < 1e-9 {
		return identity, false
	}
	return affine{
		a: m.d / det, b: -m.b / det, c: -m.c / det, d: m.a / det,
		e: (m.c*m.f - m.d*m.e) / det, f: (m.b*m.e - m.a*m.f) / det,
	}, true
}

// rect maps a box and returns the box around its image.
func (m affine) rect(b *BoxRect) *BoxRect {
	if b == nil {
		return nil
	}
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, c := range []Point{{float64(b.X), float64(b.Y)}, {float64(b.X + b.Width), float64(b.Y)}, {float64(b.X), float64(b.Y + b.Height)}, {float64(b.X + b.Width), float64(b.Y + b.Height)}} {
		q := m.apply(c)
		x0, y0, x1, y1 = min(x0, q.X), min(y0, q.Y), max(x1, q.X), max(y1, q.Y)
	}
	return &BoxRect{X: int(math.Round(x0)), Y: int(math.Round(y0)), Width: int(math.Round(x1 - x0)), Height: int(math.Round(y1 - y0))}
}

// getBoxIn reads the boxes of refs that belong to frames other than the
// current one, each in its frame, in the top-level viewport's coordinates.
// It fills out[i] for those refs and reports which it handled.
func (p *Page) getBoxIn(ctx context.Context, refs []string, out []RefBox) ([]bool, error) {
	done := make([]bool, len(refs))
	home := p.frameIn(ctx)
	groups := map[string][]int{}
	var order []string
	for i, r := range refs {
		fr, ok := p.refFrame(r)
		if !ok || strings.Join(fr.Chain, "/") == strings.Join(chainOf(home), "/") {
			continue
		}
		key := strings.Join(fr.Chain, "/")
		if _, seen := groups[key]; !seen {
			order = append(order, key)
		}
		groups[key] = append(groups[key], i)
	}
	for _, key := range order {
		idx := groups[key]
		ctx := inFrame(ctx, home)
		if err := p.enterRefFrame(ctx, refs[idx[0]]); err != nil {
			for _, i := range idx {
				out[i] = RefBox{Ref: refs[i], Error: "stale", Message: err.Error()}
				done[i] = true
			}
			continue
		}
		var sub []string
		for _, i := range idx {
			sub = append(sub, refs[i])
		}
		var boxes []RefBox
		if err := p.engineCall(ctx, &boxes, epGetBox, sub); err != nil || len(boxes) != len(sub) {
			return done, fmt.Errorf("getBox in a frame: %v", err)
		}
		m, err := p.frameTransform(ctx)
		if err != nil {
			return done, err
		}
		for k, i := range idx {
			b := boxes[k]
			b.BoxRect, b.Box = m.rect(b.BoxRect), m.rect(b.Box)
			if b.Center != nil {
				c := m.apply(*b.Center)
				c.X, c.Y = math.Round(c.X), math.Round(c.Y)
				b.Center = &c
			}
			out[i], done[i] = b, true
		}
	}
	return done, nil
}

// descendAt replaces each answer of ElementsAt that is an iframe by the
// element at that point inside its frame (through nested frames), with a
// ref that works from here and a box in this frame's viewport.
func (p *Page) descendAt(ctx context.Context, pts []Point, res []PointElement, depth int) {
	if depth > maxFrameDepth {
		return
	}
	for i := range res {
		if res[i].Tag != "iframe" && res[i].Tag != "frame" || res[i].Ref == "" || i >= len(pts) {
			continue
		}
		inner, ok := p.elementInFrame(ctx, res[i].Ref, pts[i], depth)
		if ok {
			inner.X, inner.Y = res[i].X, res[i].Y
			res[i] = inner
		}
	}
}

// elementInFrame finds the element at pt (in the current frame's viewport)
// inside the frame of the iframe whose ref is given.
func (p *Page) elementInFrame(ctx context.Context, iframeRef string, pt Point, depth int) (PointElement, bool) {
	home := p.frameIn(ctx)
	el, err := p.resolveRefHere(ctx, iframeRef, nil)
	if err != nil || el == nil {
		return PointElement{}, false
	}
	sess, _ := p.exec(ctx)
	d, err := cdp.Call(ctx, sess, dom.DescribeNode, dom.DescribeNodeParams{ObjectID: el.ObjectID})
	el.release()
	if err != nil || d.Node == nil || d.Node.FrameID == "" {
		return PointElement{}, false
	}
	f, err := p.frameRefWait(ctx, d.Node.FrameID, frameProbeWait)
	if err != nil {
		return PointElement{}, false
	}
	f.parent = home
	lvl, err := p.frameLevel(ctx, f)
	if err != nil {
		return PointElement{}, false
	}
	// frameLevel maps into the viewport of the parent's renderer root; a
	// point of a frame that is not such a root is first mapped there.
	toRoot := identity
	if home != nil && !home.localRoot() {
		if toRoot, err = p.frameToLocalRoot(ctx, home); err != nil {
			return PointElement{}, false
		}
	}
	inv, ok := lvl.inverse()
	if !ok {
		return PointElement{}, false
	}
	inner := inv.apply(toRoot.apply(pt))
	ctx = inFrame(ctx, f)
	var a pointsAnswer
	if err := p.engineCall(ctx, &a, epElementsAt, map[string]any{"points": []Point{inner}, "seq": p.seqArg()}); err != nil || len(a.Results) != 1 || a.Results[0].Error != "" {
		return PointElement{}, false
	}
	p.storeSeq(a.Seq)
	p.descendAt(ctx, []Point{inner}, a.Results, depth+1)
	r := a.Results[0]
	f.url, _ = p.frameURL(ctx)
	if r.Frame == "" {
		r.Frame = f.url
	}
	if r.Ref != "" {
		p.noteFrameRefs(f, "[ref="+r.Ref+"]")
		p.saveRefFrames()
	}
	// The box, back in the current frame's viewport.
	back, ok := toRoot.inverse()
	if ok {
		r.Box = lvl.then(back).rect(r.Box)
	}
	return r, true
}

// frameToLocalRoot maps frame f's viewport to the viewport of its
// renderer's root frame (one map: Chromium reports boxes there through
// every same-process frame).
func (p *Page) frameToLocalRoot(ctx context.Context, f *frameRef) (affine, error) {
	if f == nil || f.localRoot() {
		return identity, nil
	}
	return p.frameLevel(ctx, f)
}
