package browser

import (
	"context"
	"slices"
)

// findInFrames looks for a text or label target in the frames below the
// current one, in tree order, when the current document has no match. It
// leaves the page in the frame where it found the element (the step runs
// there; the result names it) and answers nil, nil when no frame has it.
func (p *Page) findInFrames(ctx context.Context, spec map[string]any) (*Element, error) {
	home := p.currentFrameRef()
	list, err := p.Frames(ctx)
	if err != nil || len(list.Frames) < 2 {
		return nil, nil
	}
	byID := make(map[string]FrameInfo, len(list.Frames))
	for _, f := range list.Frames {
		byID[f.FrameID] = f
	}
	homeChain := chainOf(home)
	for _, f := range list.Frames {
		if f.Depth == 0 {
			continue
		}
		var chain []string
		for cur := f; cur.Depth > 0 && len(chain) <= maxFrameDepth*4; cur = byID[cur.ParentID] {
			chain = append([]string{cur.FrameID}, chain...)
		}
		if len(chain) <= len(homeChain) || !slices.Equal(chain[:len(homeChain)], homeChain) {
			continue
		}
		fr, err := p.chainRefs(ctx, chain, 0)
		if err != nil {
			continue
		}
		fr.url = f.URL
		p.setFrameRef(fr)
		el, err := p.engineElement(ctx, "find", spec)
		if el != nil || KindOf(err) == KindAmbiguousTarget {
			return el, err
		}
		p.setFrameRef(home)
	}
	return nil, nil
}
