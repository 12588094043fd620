package browser

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"
)

// frameSearchEvery spaces the frame searches of a polling lookup.
const frameSearchEvery = 250 * time.Millisecond

// findInFrames looks for a text or label target in the frames below the
// current one, in tree order, when the current document has no match. It
// moves the step of ctx into the frame where it found the element (the
// step acts there; its answer names it) and answers nil, nil when no frame
// has it.
func (p *Page) findInFrames(ctx context.Context, spec map[string]any) (*Element, error) {
	// A wait polls often: the frames are looked into at most every
	// frameSearchEvery, so the wait keeps its pace near its deadline.
	if searchedRecently(ctx, frameSearchEvery) {
		return nil, nil
	}
	var (
		found      *Element
		foundFrame *frameRef
		frames     []string
	)
	for _, d := range p.descendantFrames(ctx) {
		fr := p.descendant(ctx, d)
		if fr == nil {
			continue
		}
		el, err := p.engineElement(inFrame(ctx, fr), epFind, spec)
		if KindOf(err) == KindAmbiguousTarget {
			if found != nil {
				found.release()
			}
			return el, err
		}
		if el != nil {
			// Every frame is looked into: a match in two frames is
			// ambiguous, as two matches in one document are.
			frames = append(frames, d.URL)
			if found == nil {
				found, foundFrame = el, fr
			} else {
				el.release()
			}
		}
	}
	if len(frames) > 1 {
		found.release()
		return nil, Errorf(KindAmbiguousTarget, "%s matches in %d frames (%s), so it cannot say which one you meant", describeSpec(spec), len(frames), strings.Join(frames, ", ")).
			WithHint("target it by ref from a snapshot (refs work in every frame), or move into one frame with the frame step first")
	}
	if found != nil {
		moveTo(ctx, foundFrame)
	}
	return found, nil
}

// describeSpec names a text or label target for a message.
func describeSpec(spec map[string]any) string {
	for _, k := range []string{"label", "text"} {
		if v, ok := spec[k].(string); ok && v != "" {
			return k + " " + strconv.Quote(v)
		}
	}
	return "the target"
}

// descendantFrames lists the frames below the current one, in tree order,
// each with its chain of frame ids and URL.
func (p *Page) descendantFrames(ctx context.Context) []FrameRefsInfo {
	if !p.hasFrames(ctx) {
		return nil
	}
	return p.framesBelow(ctx)
}

// framesBelow is descendantFrames for a document known to hold iframes.
func (p *Page) framesBelow(ctx context.Context) []FrameRefsInfo {
	list, err := p.Frames().List(ctx)
	if err != nil || len(list.Frames) < 2 {
		return nil
	}
	byID := make(map[string]FrameInfo, len(list.Frames))
	for _, f := range list.Frames {
		byID[f.FrameID] = f
	}
	homeChain := chainOf(p.frameIn(ctx))
	var out []FrameRefsInfo
	for _, f := range list.Frames {
		if f.Depth == 0 {
			continue
		}
		var chain []string
		for cur := f; cur.Depth > 0 && len(chain) <= maxFrameDepth*4; cur = byID[cur.ParentID] {
			chain = append([]string{cur.FrameID}, chain...)
		}
		if len(chain) > len(homeChain) && slices.Equal(chain[:len(homeChain)], homeChain) {
			out = append(out, FrameRefsInfo{Chain: chain, URL: f.URL})
		}
	}
	return out
}

// descendant returns a frame below the current one (nil when it cannot be
// reached).
func (p *Page) descendant(ctx context.Context, d FrameRefsInfo) *frameRef {
	fr, err := p.chainRefs(ctx, d.Chain, 0)
	if err != nil {
		return nil
	}
	fr.url = d.URL
	return fr
}

// FrameRefsInfo names a frame by its chain of frame ids, with its URL.
type FrameRefsInfo struct {
	Chain []string
	URL   string
}

// searchFrames adds the matches of the frames below the current one to r
// (each naming its frame, its box in the top-level viewport), up to the
// limit.
func (p *Page) searchFrames(ctx context.Context, args func() any, limit int, r *SearchResult) {
	for _, f := range p.descendantFrames(ctx) {
		fr := p.descendant(ctx, f)
		if fr == nil {
			continue
		}
		var sub SearchResult
		if err := p.engineCall(inFrame(ctx, fr), &sub, epSearch, args()); err != nil {
			continue
		}
		p.storeSeq(sub.Seq)
		r.MatchCount += sub.MatchCount
		r.SearchedElements += sub.SearchedElements
		r.Matches = p.takeFrameMatches(ctx, f, fr, sub.Matches, r.Matches, limit, func(m map[string]any) map[string]any { return m })
	}
	p.saveRefFrames()
}

// takeFrameMatches appends to into, while it holds fewer than limit, the
// matches an engine call made in frame fr (at f): each names the frame's
// URL and gets its box (in the map boxIn picks) in the top-level
// viewport, and the refs are noted as that frame's. It returns into.
func (p *Page) takeFrameMatches(ctx context.Context, f FrameRefsInfo, fr *frameRef, matches, into []map[string]any, limit int, boxIn func(map[string]any) map[string]any) []map[string]any {
	var (
		m       affine
		mErr    error
		located bool
	)
	var refs strings.Builder
	for _, match := range matches {
		if len(into) >= limit {
			break
		}
		match["frame"] = f.URL
		if b := boxIn(match); b != nil {
			if !located { // the frame's transform, once, when a box needs it
				m, mErr = p.frameTransform(inFrame(ctx, fr))
				located = true
			}
			if mErr == nil {
				boxToTop(m, b)
			}
		}
		if ref, ok := match["ref"].(string); ok {
			refs.WriteString("[ref=" + ref + "]")
		}
		into = append(into, match)
	}
	p.noteFrameRefs(fr, refs.String())
	return into
}

// textInFrames reports whether a frame below the current one shows text.
func (p *Page) textInFrames(ctx context.Context, text string) bool {
	for _, f := range p.descendantFrames(ctx) {
		fr := p.descendant(ctx, f)
		if fr == nil {
			continue
		}
		var found bool
		if p.engineCall(inFrame(ctx, fr), &found, epTextPresent, text) == nil && found {
			return true
		}
	}
	return false
}

// hasFrames reports whether the current document holds any iframe (one
// engine call; the frame tree is asked only when it does).
func (p *Page) hasFrames(ctx context.Context) bool {
	var n int
	return p.engineCall(ctx, &n, epFrameCount) == nil && n > 0
}
