package builtins

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cdp-skill/cdp-skill/browser"
)

// spillRefs writes the snapshot's refs map (ref → role and name) as JSON
// and returns its path. The map is read off the YAML, which carries every
// ref with its role and name, so it costs the page nothing.
func spillRefs(env *Env, s *browser.Snapshot) (string, error) {
	data, err := json.Marshal(refsMap(s.YAML))
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

// refsMap reads ref → role and name off snapshot YAML.
func refsMap(yaml string) map[string]RefEntry {
	out := map[string]RefEntry{}
	for line := range strings.Lines(yaml) {
		if ref, e, ok := refOfLine(strings.TrimRight(line, "\n")); ok {
			out[ref] = e
		}
	}
	return out
}

// refOfLine parses `- role "name" [attr]… [ref=s1e4]…`: the role, the
// JSON-quoted name when present, then only [attributes] up to the ref.
func refOfLine(line string) (string, RefEntry, bool) {
	rest, ok := strings.CutPrefix(strings.TrimLeft(line, " "), "- ")
	if !ok || !strings.Contains(rest, "[ref=") {
		return "", RefEntry{}, false
	}
	var e RefEntry
	i := strings.IndexAny(rest, " :")
	if i <= 0 {
		return "", e, false
	}
	e.Role, rest = rest[:i], rest[i:]
	if strings.HasPrefix(rest, ` "`) {
		end := closingQuote(rest[1:])
		if end < 0 || json.Unmarshal([]byte(rest[1:end+2]), &e.Name) != nil {
			return "", e, false
		}
		rest = rest[end+2:]
	}
	for strings.HasPrefix(rest, " [") {
		j := strings.IndexByte(rest, ']')
		if j < 0 {
			return "", e, false
		}
		if ref, ok := strings.CutPrefix(rest[2:j], "ref="); ok && browser.IsRef(ref) {
			return ref, e, true
		}
		rest = rest[j+1:]
	}
	return "", e, false
}

// closingQuote returns the index of the quote that closes the JSON string
// starting at s[0], or -1.
func closingQuote(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}
