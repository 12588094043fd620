package state

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
)

// TabState is what cdp-skill remembers about one tab across invocations and
// navigations: the ref counters, so that a ref is never handed out twice in
// a tab (s1e4 on one page can never name an element of the next page).
//
// Snapshot numbers come from a counter all tabs share (ReserveSnapshot),
// so refs of different tabs never collide; Snaps lists the numbers this
// tab issued, to name the tab a foreign ref came from.
type TabState struct {
	SnapSeq int   `json:"snapSeq"`
	ElemSeq int   `json:"elemSeq"`
	Snaps   []int `json:"snaps,omitempty"`
}

func tabStatePath(targetID string) (string, error) {
	if err := CheckTargetID(targetID); err != nil {
		return "", err
	}
	return Path("tabs", targetID+".json")
}

// LoadTabState reads the state of a tab (zero when none).
func LoadTabState(targetID string) (TabState, error) {
	var s TabState
	p, err := tabStatePath(targetID)
	if err != nil {
		return s, err
	}
	data, err := readFileNoEscape(p)
	if errors.Is(err, os.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return s, fmt.Errorf("read tab state: %w", err)
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return TabState{}, nil // a corrupt file only costs ref numbering; start over
	}
	return s, nil
}

// SaveTabState writes the state of a tab atomically. Callers hold the tab's
// lock, so there is no lost update.
func SaveTabState(targetID string, s TabState) error {
	p, err := tabStatePath(targetID)
	if err != nil {
		return err
	}
	data, _ := json.Marshal(s)
	return WriteFileAtomic(p, data, 0o600)
}
