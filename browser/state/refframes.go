package state

import (
	"encoding/json"
	"slices"
)

// RefFrames records which frame each ref taken inside an iframe belongs
// to, so that a ref works from the top level (and from any other frame)
// in later commands. Refs of the top document are not recorded.
type RefFrames struct {
	Frames []FrameRefs `json:"frames"`
}

// FrameRefs are the refs of one frame, named by its chain of frame ids
// from the top document's child down to it.
type FrameRefs struct {
	Chain []string `json:"chain"`
	URL   string   `json:"url,omitempty"`
	Refs  []string `json:"refs"`
	// Owner is the ref of the iframe element that holds the frame, in its
	// parent's document ("" when not seen).
	Owner string `json:"owner,omitempty"`
}

// maxFrameRefs bounds the record: the oldest refs go first.
const maxFrameRefs = 20000

func refFramesPath(targetID string) (string, error) {
	if err := CheckTargetID(targetID); err != nil {
		return "", err
	}
	return Path("tabs", targetID+".refframes.json")
}

// LoadRefFrames reads a tab's record (empty when none or unreadable).
func LoadRefFrames(targetID string) RefFrames {
	var r RefFrames
	p, err := refFramesPath(targetID)
	if err != nil {
		return r
	}
	data, err := readFileNoEscape(p)
	if err != nil || json.Unmarshal(data, &r) != nil {
		return RefFrames{}
	}
	return r
}

// SaveRefFrames writes a tab's record atomically; callers hold the tab's
// lock.
func SaveRefFrames(targetID string, r RefFrames) error {
	p, err := refFramesPath(targetID)
	if err != nil {
		return err
	}
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return WriteFileAtomic(p, data, 0o600)
}

// Lookup returns the frame a ref belongs to.
func (r *RefFrames) Lookup(ref string) (FrameRefs, bool) {
	for i := len(r.Frames) - 1; i >= 0; i-- {
		if slices.Contains(r.Frames[i].Refs, ref) {
			return r.Frames[i], true
		}
	}
	return FrameRefs{}, false
}

// SetOwner records owner as the ref of the iframe that holds the frame of
// chain, when the frame is recorded; it reports whether that was new.
func (r *RefFrames) SetOwner(chain []string, owner string) bool {
	i := slices.IndexFunc(r.Frames, func(f FrameRefs) bool { return slices.Equal(f.Chain, chain) })
	if i < 0 || owner == "" || r.Frames[i].Owner == owner {
		return false
	}
	r.Frames[i].Owner = owner
	return true
}

// LookupAll returns the frame each of refs belongs to (as Lookup does), in
// one pass over the record: refs not taken inside a frame are left out.
func (r *RefFrames) LookupAll(refs []string) map[string]FrameRefs {
	want := map[string]bool{}
	for _, ref := range refs {
		want[ref] = true
	}
	out := map[string]FrameRefs{}
	for i := len(r.Frames) - 1; i >= 0 && len(out) < len(want); i-- {
		for _, ref := range r.Frames[i].Refs {
			if _, done := out[ref]; want[ref] && !done {
				out[ref] = r.Frames[i]
			}
		}
	}
	return out
}

// Add records refs as belonging to the frame of chain; it reports whether
// anything was new.
func (r *RefFrames) Add(chain []string, url string, refs []string) bool {
	if len(chain) == 0 || len(refs) == 0 {
		return false
	}
	i := slices.IndexFunc(r.Frames, func(f FrameRefs) bool { return slices.Equal(f.Chain, chain) })
	if i < 0 {
		r.Frames = append(r.Frames, FrameRefs{Chain: slices.Clone(chain)})
		i = len(r.Frames) - 1
	}
	f := &r.Frames[i]
	if url != "" {
		f.URL = url
	}
	changed := false
	for _, ref := range refs {
		if !slices.Contains(f.Refs, ref) {
			f.Refs = append(f.Refs, ref)
			changed = true
		}
	}
	r.trim()
	return changed
}

// trim drops the oldest refs beyond maxFrameRefs.
func (r *RefFrames) trim() {
	total := 0
	for _, f := range r.Frames {
		total += len(f.Refs)
	}
	for total > maxFrameRefs && len(r.Frames) > 0 {
		f := &r.Frames[0]
		drop := min(len(f.Refs), total-maxFrameRefs)
		f.Refs = f.Refs[drop:]
		total -= drop
		if len(f.Refs) == 0 {
			r.Frames = r.Frames[1:]
		}
	}
}
