package state

import (
	"encoding/json"
	"errors"
	"os"
)

// TabFrame is the frame a tab's commands run in until a frame step changes
// it (a later command starts there too).
type TabFrame struct {
	// Chain is the frame ids from the top document's child down to the
	// frame (coordinates go through every frame on the way).
	Chain []string `json:"chain"`
	URL   string   `json:"url,omitempty"`
}

func tabFramePath(targetID string) (string, error) {
	return Path("tabs", targetID+".frame.json")
}

// LoadTabFrame reads the frame a tab works in; zero means the top document.
func LoadTabFrame(targetID string) TabFrame {
	var f TabFrame
	p, err := tabFramePath(targetID)
	if err != nil {
		return f
	}
	data, err := os.ReadFile(p)
	if err != nil || json.Unmarshal(data, &f) != nil {
		return TabFrame{}
	}
	return f
}

// SaveTabFrame records the frame a tab works in; a zero TabFrame (the top
// document) removes the record. Callers hold the tab's lock.
func SaveTabFrame(targetID string, f TabFrame) error {
	p, err := tabFramePath(targetID)
	if err != nil {
		return err
	}
	if len(f.Chain) == 0 {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
	}
	data, err := json.Marshal(f)
	if err != nil {
		return err
	}
	return WriteFileAtomic(p, data, 0o600)
}
