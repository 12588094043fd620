package browser

import (
	"context"
	"slices"
	"time"

	"github.com/chromedp/cdproto/cdp"

	"github.com/cdp-skill/cdp-skill/browser/state"
)

// Refs are frame-qualified: each frame's engine hands out the refs of its
// own document (numbered from the tab's counters, so they never collide),
// and the tab remembers which frame each ref taken inside an iframe
// belongs to (state.RefFrames). A ref then works from the top level, or
// from any frame: the step that uses it runs in the ref's frame.

// refFramesRecord returns the tab's record, loading it on first use.
func (p *Page) refFramesRecord() *state.RefFrames {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.refFrames == nil {
		r := state.LoadRefFrames(string(p.TargetID))
		p.refFrames = &r
	}
	return p.refFrames
}

// chainOf is the frame ids from the top document's child down to f.
func chainOf(f *frameRef) []string {
	var chain []string
	for ; f != nil; f = f.parent {
		chain = append(chain, string(f.id))
	}
	slices.Reverse(chain)
	return chain
}

// noteFrameRefs records the refs of a snapshot taken in frame f.
func (p *Page) noteFrameRefs(f *frameRef, yaml string) {
	if f == nil {
		return
	}
	var refs []string
	for _, m := range refInYAML().FindAllStringSubmatch(yaml, -1) {
		refs = append(refs, m[1])
	}
	r := p.refFramesRecord()
	p.mu.Lock()
	if r.Add(chainOf(f), f.url, refs) {
		p.refFramesDirty = true
	}
	p.mu.Unlock()
}

// noteFrameOwner records the ref on line (the iframe's line of a snapshot
// of f's parent) as the ref of the element that holds frame f.
func (p *Page) noteFrameOwner(f *frameRef, line string) {
	m := refInYAML().FindStringSubmatch(line)
	if f == nil || m == nil {
		return
	}
	r := p.refFramesRecord()
	p.mu.Lock()
	if r.SetOwner(chainOf(f), m[1]) {
		p.refFramesDirty = true
	}
	p.mu.Unlock()
}

// saveRefFrames writes the record when it changed.
func (p *Page) saveRefFrames() {
	p.mu.Lock()
	dirty, r := p.refFramesDirty, p.refFrames
	p.refFramesDirty = false
	var copy state.RefFrames
	if r != nil {
		copy.Frames = slices.Clone(r.Frames)
	}
	p.mu.Unlock()
	if dirty {
		state.SaveRefFrames(string(p.TargetID), copy)
	}
}

// refFrame returns the frame a ref was taken in, when it was taken inside
// an iframe.
func (p *Page) refFrame(ref string) (state.FrameRefs, bool) {
	r := p.refFramesRecord()
	p.mu.Lock()
	defer p.mu.Unlock()
	return r.Lookup(ref)
}

// enterRefFrame makes the ref's frame the one the step of ctx runs in
// (moveTo; the command's frame is the runtime's, and the next step starts
// there again). A ref of the top document (or one not recorded) leaves
// the step's frame as it is.
func (p *Page) enterRefFrame(ctx context.Context, ref string) error {
	fr, ok := p.refFrame(ref)
	if !ok || slices.Equal(fr.Chain, chainOf(p.frameIn(ctx))) {
		return nil
	}
	f, err := p.chainRefs(ctx, fr.Chain, frameProbeWait)
	if err != nil {
		where := fr.URL
		if where == "" {
			where = "an iframe"
		}
		return Errorf(KindStaleElement, "ref %s was taken inside a frame (%s) that is gone: the frame navigated or was removed", ref, where).
			WithHint("take a new snapshot and use its refs")
	}
	f.url = fr.URL
	moveTo(ctx, f)
	return nil
}

// chainRefs builds the frame refs for a chain of frame ids, each a child
// of the one before (the first a child of the top document).
func (p *Page) chainRefs(ctx context.Context, chain []string, wait time.Duration) (*frameRef, error) {
	var parent *frameRef
	for _, id := range chain {
		f, err := p.frameRefWait(ctx, cdp.FrameID(id), wait)
		if err != nil {
			return nil, err
		}
		f.parent = parent
		parent = f
	}
	return parent, nil
}
