package state

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRegistryReadsEntryByEntry: an entry that is a plain string (the
// spec's older form, "t77": "<targetId>") names a target on the default
// host and port, and an entry that is neither a string nor a tab is
// dropped alone: the other aliases survive (spec §18.7).
func TestRegistryReadsEntryByEntry(t *testing.T) {
	id := strings.Repeat("B", 32)
	other := strings.Repeat("C", 32)
	for _, c := range []struct {
		name    string
		tabs    string
		keep    map[string]string // alias → target id
		dropped []string
	}{
		{"plain string", `"t77": "` + id + `"`, map[string]string{"t77": id}, nil},
		{"string beside an object", `"t77": "` + id + `", "t78": {"targetId": "` + other + `", "port": 9333}`,
			map[string]string{"t77": id, "t78": other}, nil},
		{"a number among good entries", `"t77": "` + id + `", "t79": 42, "t78": {"targetId": "` + other + `"}`,
			map[string]string{"t77": id, "t78": other}, []string{"t79"}},
		{"an object of the wrong shape", `"t80": {"targetId": 5}, "t78": {"targetId": "` + other + `"}`,
			map[string]string{"t78": other}, []string{"t80"}},
		{"a string that is no target id", `"t81": "../../x", "t77": "` + id + `"`,
			map[string]string{"t77": id}, []string{"t81"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			useDir(t, dir)
			data := `{"nextId": 90, "tabs": {` + c.tabs + `}}`
			if err := os.WriteFile(filepath.Join(dir, "tabs.json"), []byte(data), 0o600); err != nil {
				t.Fatal(err)
			}
			reg, err := OpenRegistry()
			if err != nil {
				t.Fatal(err)
			}
			for alias, want := range c.keep {
				tab, err := reg.Lookup(alias)
				if err != nil || tab.TargetID != want {
					t.Fatalf("%s: %+v, %v; want target %s (recovered: %q)", alias, tab, err, want, reg.Recovered())
				}
				if tab.Endpoint != "" || (tab.Host != "" && tab.Host != "127.0.0.1") {
					t.Errorf("%s lives elsewhere than the default host and port: %+v", alias, tab)
				}
			}
			for _, alias := range c.dropped {
				if _, err := reg.Lookup(alias); err == nil {
					t.Errorf("%s was kept", alias)
				}
				if !strings.Contains(reg.Recovered(), alias) {
					t.Errorf("the recovery note does not name %s: %q", alias, reg.Recovered())
				}
			}
			if len(c.dropped) == 0 && reg.Recovered() != "" {
				t.Errorf("a readable registry was called corrupt: %q", reg.Recovered())
			}
			// The next alias continues after the file's counter, and a
			// write keeps every entry (the string one as a tab).
			alias, err := reg.Register(context.Background(), Tab{TargetID: strings.Repeat("D", 32)})
			if err != nil || alias != "t90" {
				t.Fatalf("next alias %q, %v; want t90", alias, err)
			}
			for a, want := range c.keep {
				if tab, err := reg.Lookup(a); err != nil || tab.TargetID != want {
					t.Errorf("after a write %s: %+v, %v", a, tab, err)
				}
			}
		})
	}
}
