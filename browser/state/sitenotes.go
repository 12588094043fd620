package state

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
)

// SiteNotes records, for one tab, the domains whose site profile the agent
// was already shown in full, and those it was already asked to write a
// profile for, so that neither is repeated on every navigation.
type SiteNotes struct {
	Shown []string `json:"shown,omitempty"`
	Asked []string `json:"asked,omitempty"`
}

func siteNotesPath(targetID string) (string, error) {
	return Path("tabs", targetID+".sites.json")
}

// LoadSiteNotes reads a tab's site notes (empty when none or unreadable:
// the worst case is one repeated note).
func LoadSiteNotes(targetID string) SiteNotes {
	var n SiteNotes
	p, err := siteNotesPath(targetID)
	if err != nil {
		return n
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return n
	}
	if json.Unmarshal(data, &n) != nil {
		return SiteNotes{}
	}
	return n
}

// SaveSiteNotes writes a tab's site notes atomically; callers hold the
// tab's lock.
func SaveSiteNotes(targetID string, n SiteNotes) error {
	p, err := siteNotesPath(targetID)
	if err != nil {
		return err
	}
	data, err := json.Marshal(n)
	if err != nil {
		return fmt.Errorf("encode site notes: %w", err)
	}
	return WriteFileAtomic(p, data, 0o600)
}

// Note adds domain to list (once) and reports whether it was new.
func Note(list *[]string, domain string) bool {
	if slices.Contains(*list, domain) {
		return false
	}
	*list = append(*list, domain)
	return true
}
