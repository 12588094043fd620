package cmd

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
	"github.com/cdp-skill/cdp-skill/browser/state"
)

// TestKeeperSaysHowManyDialogsItDidNotList (issue 31, Low): a page that
// opens 25 alerts between commands gets every one answered (its script
// runs to its end), and the next command lists the first ones and says
// how many more there were, instead of dropping those past 20 silently.
func TestKeeperSaysHowManyDialogsItDidNotList(t *testing.T) {
	base := browsertest.Serve(t, fstest.MapFS{"p.html": {Data: []byte(`<!doctype html><title>Alerts</title><h1>Alerts</h1>`)}})
	dir := t.TempDir()
	open := cli(t, dir, nil, `{"steps":[{"openTab":"`+base+`p.html"}]}`)
	tab, _ := open.field("tab").(string)
	id, _ := open.field("steps", "0", "output", "targetId").(string)
	if open.code != 0 || tab == "" || id == "" {
		t.Fatalf("openTab: %s", open.stdout)
	}
	t.Cleanup(func() { cli(t, dir, nil, `{"steps":[{"closeTab":"`+tab+`"}]}`) })
	arm := cli(t, dir, nil, `{"tab":"`+tab+`","capture":"none","steps":[{"pageFunction":"() => { window.shown = 0; setTimeout(() => { for (let i = 1; i <= 25; i++) { alert('alert ' + i); window.shown = i; } }, 1500) }"}]}`)
	if arm.code != 0 || arm.field("steps", "0", "dialogs") != nil {
		t.Fatalf("arm: %s", arm.stdout)
	}
	// Wait until the keeper has answered all 25 (its record counts them).
	rec, err := state.Path("dialogs", id+".json")
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		var k struct {
			Dialogs []json.RawMessage `json:"dialogs"`
			More    int               `json:"more"`
		}
		data, _ := os.ReadFile(rec)
		if json.Unmarshal(data, &k) == nil && len(k.Dialogs)+k.More >= 25 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the keeper recorded %s", data)
		}
		time.Sleep(100 * time.Millisecond)
	}
	next := cli(t, dir, nil, `{"tab":"`+tab+`","timeout":5000,"steps":[{"pageFunction":"window.shown"}]}`)
	if next.code != 0 || jsonOf(next.field("steps", "0", "output")) != `25` {
		t.Fatalf("next command: %s", next.stdout)
	}
	// Each alert is either listed or counted in the summary.
	var listed, more int
	dialogs, _ := next.field("steps", "0", "dialogs").([]any)
	for _, d := range dialogs {
		m, _ := d.(map[string]any)
		msg, _ := m["message"].(string)
		switch {
		case m["type"] == "alert" && m["betweenCommands"] == true:
			listed++
		case m["type"] == "storm":
			fmt.Sscanf(msg[strings.Index(msg, ": ")+2:], "%d more", &more)
		}
	}
	if listed == 0 || listed+more != 25 {
		t.Errorf("%d alerts listed and %d said unlisted, of 25: %s", listed, more, jsonOf(dialogs))
	}
}
