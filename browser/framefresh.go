package browser

import (
	"slices"
	"strings"
)

// frameFresh adds to c.Fresh the refs of frames whose content the
// command's actions replaced. The top document's change log vouches only
// for its own elements, so without this the diff listed a rebuilt frame's
// old elements as removed and never its new ones as added. A frame counts
// as rebuilt when none of its elements the diff's baseline showed (before,
// CaptureOptions.Present) is still shown, or when its iframe element is
// itself fresh (the action inserted or replaced it). Elements that slid
// into view in a frame whose other elements stayed (a scroll, one item
// removed above them) are not fresh, as in the top document.
func (p *Page) frameFresh(before []string, c *Capture) {
	if c.Fresh == nil || c.Viewport == nil || len(c.Viewport.Elements) == 0 {
		return
	}
	after := make([]string, 0, len(c.Viewport.Elements))
	shown := map[string]bool{}
	for _, e := range c.Viewport.Elements {
		after = append(after, e.Ref)
		shown[e.Ref] = true
	}
	for _, r := range c.Present {
		shown[r] = true
	}
	rec := p.refFramesRecord()
	p.mu.Lock()
	frames := rec.LookupAll(append(slices.Clone(after), before...))
	p.mu.Unlock()
	if len(frames) == 0 {
		return
	}
	fresh := map[string]bool{}
	for _, r := range c.Fresh {
		fresh[r] = true
	}
	// A frame is rebuilt when the baseline showed elements of it and none
	// stayed.
	showedAny, stayed := map[string]bool{}, map[string]bool{}
	for _, r := range before {
		if fr, ok := frames[r]; ok {
			key := strings.Join(fr.Chain, "/")
			showedAny[key] = true
			stayed[key] = stayed[key] || shown[r]
		}
	}
	had := map[string]bool{}
	for _, r := range before {
		had[r] = true
	}
	for _, r := range after {
		fr, ok := frames[r]
		if !ok || had[r] || fresh[r] {
			continue
		}
		key := strings.Join(fr.Chain, "/")
		if showedAny[key] && !stayed[key] || fr.Owner != "" && fresh[fr.Owner] {
			c.Fresh = append(c.Fresh, r)
			fresh[r] = true
		}
	}
}
