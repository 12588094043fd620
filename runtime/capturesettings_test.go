package runtime

import (
	"strings"
	"testing"
)

// TestApplyCapture: the capture setting of a JSON command, read ahead of
// the program (to know whether the first step needs a diff baseline) and
// by configure(), gives the same settings or the same error either way.
func TestApplyCapture(t *testing.T) {
	full := capturePresets["full"]
	for _, c := range []struct {
		name    string
		v       any
		want    CaptureSettings
		wantErr string
	}{
		{"preset", "compact", capturePresets["compact"], ""},
		{"none", "none", CaptureSettings{}, ""},
		{"unknown preset", "tiny", full, `capture preset "tiny" is not one of`},
		{"one key keeps the rest", map[string]any{"diff": false}, CaptureSettings{Screenshot: true, ViewportSnapshot: true, FullSnapshot: true, Console: true}, ""},
		{"preset in object, then keys", map[string]any{"preset": "none", "diff": true}, CaptureSettings{Diff: true}, ""},
		{"unknown key", map[string]any{"screenshots": true}, full, `capture has no setting "screenshots"`},
		{"not a bool", map[string]any{"diff": "yes"}, full, "capture.diff must be true or false"},
		{"not an object", 3.0, full, "capture must be a preset name or an object"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := applyCapture(full, c.v)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, c.wantErr)
				}
				if got != full {
					t.Fatalf("a bad setting changed the settings: %+v", got)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("got %+v, %v; want %+v", got, err, c.want)
			}
		})
	}
}

// TestNoDiffAcrossTabs: a command that moves to another tab (here one on
// the same URL) compares no page with another: its changes never list the
// first tab's elements as removed.
func TestNoDiffAcrossTabs(t *testing.T) {
	base := pagesURL(t)
	first := runJSON(t, `{"steps":[{"openTab":"`+base+`feedback.html"}]}`)
	mustOK(t, first)
	closeTabAfter(t, first)
	second := runJSON(t, `{"steps":[{"openTab":"`+base+`feedback.html"}]}`)
	mustOK(t, second)
	closeTabAfter(t, second)
	out := runJSON(t, `{"tab":"`+first.Tab+`","capture":"compact","steps":[{"connectTab":"`+second.Tab+`"},{"pageFunction":"() => document.title"}]}`)
	mustOK(t, out)
	if out.Changes != nil && len(out.Changes.Removed) > 0 {
		t.Errorf("changes across tabs: %s", jsonString(out.Changes))
	}
}
