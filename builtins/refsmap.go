package builtins

import (
	"encoding/json"
	"fmt"

	"github.com/cdp-skill/cdp-skill/browser"
)

// spillRefs writes the snapshot's refs map (ref → role and name) as JSON
// and returns its path. The map comes from the engines that built the
// snapshot (SnapshotOptions.RefsMapAbove): the YAML folds list items and
// rows onto one line, where an element cannot be told from text.
func spillRefs(env *Env, s *browser.Snapshot) (string, error) {
	data, err := json.Marshal(refsMap(s))
	if err != nil {
		return "", fmt.Errorf("refs map: %w", err)
	}
	return SpillFile(env, "snapshot", s.SnapshotID+"-refs.json", data)
}

// RefEntry is one element of a refs map.
type RefEntry struct {
	Role string `json:"role"`
	Name string `json:"name,omitempty"`
}

// refsMap is the refs map of s.
func refsMap(s *browser.Snapshot) map[string]RefEntry {
	out := make(map[string]RefEntry, len(s.RefsMap))
	for ref, r := range s.RefsMap {
		out[ref] = RefEntry{Role: r.Role(), Name: r.Name()}
	}
	return out
}
