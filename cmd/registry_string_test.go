package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
	"github.com/cdp-skill/cdp-skill/browser/state"
)

// TestRegistryPlainStringEntry: a tabs.json entry that is a plain string
// ("t77": "<targetId>", the spec's older form, §18.7) names that target on
// the command's default endpoint; an unreadable entry beside it costs
// only itself, and the other aliases keep working.
func TestRegistryPlainStringEntry(t *testing.T) {
	env := residentTestEnv(t)
	var dir string
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, state.EnvDir+"="); ok {
			dir = v
		}
	}
	page := browsertest.Serve(t, fstest.MapFS{"counter.html": {Data: []byte(residentCounterPage)}}) + "counter.html"
	r := runEnv(t, env, t.TempDir(), `{"steps":[{"openTab":"`+page+`"}]}`)
	id, _ := r.field("steps", "0", "output", "targetId").(string)
	tab, _ := r.field("tab").(string)
	if id == "" {
		t.Fatalf("openTab: %s", r.stdout)
	}
	defer runEnv(t, env, t.TempDir(), `{"steps":[{"closeTab":"`+id+`"}]}`)
	data := `{"nextId": 80, "tabs": {"t77": "` + id + `", "t78": 42}}`
	if err := os.WriteFile(filepath.Join(dir, "tabs.json"), []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	r = runEnv(t, env, t.TempDir(), `{"tab":"t77","steps":[{"click":"#add"},{"pageFunction":"String(window.clicks)"}]}`)
	if r.code != 0 || r.field("steps", "1", "output") != "1" {
		t.Fatalf("a plain-string entry (was %s): %s", tab, r.stdout)
	}
	r = runEnv(t, env, t.TempDir(), `{"tab":"t78","steps":[{"sleep":0}]}`)
	if msg, _ := r.field("error", "message").(string); r.code == 0 || !strings.Contains(msg, "t78") {
		t.Fatalf("the unreadable entry: %s", r.stdout)
	}
	if r := runEnv(t, env, t.TempDir(), `{"tab":"t77","steps":[{"pageFunction":"String(window.clicks)"}]}`); r.field("steps", "0", "output") != "1" {
		t.Fatalf("t77 after the registry was rewritten: %s", r.stdout)
	}
}
