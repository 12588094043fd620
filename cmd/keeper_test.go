package cmd

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// The command line starts the dialog keeper: a dialog a page's timer opens
// after the command ended is answered, and the next command reports it
// with the page's state intact.
func TestDialogBetweenCommandsIsReportedByTheNextCommand(t *testing.T) {
	base := browsertest.Serve(t, fstest.MapFS{"p.html": {Data: []byte(`<!doctype html><title>Timer</title><h1>Timer</h1>`)}})
	dir := t.TempDir()
	open := cli(t, dir, nil, `{"steps":[{"openTab":"`+base+`p.html"}]}`)
	tab, _ := open.field("tab").(string)
	if open.code != 0 || tab == "" {
		t.Fatalf("openTab: %s", open.stdout)
	}
	t.Cleanup(func() { cli(t, dir, nil, `{"steps":[{"closeTab":"`+tab+`"}]}`) })
	for _, delay := range []int{1500, 4000, 10000} {
		arm := cli(t, dir, nil, `{"tab":"`+tab+`","capture":"none","steps":[{"pageFunction":"() => { window.mark = 'kept'; setTimeout(() => { window.answer = confirm('Leave?'); }, `+strconv.Itoa(delay)+`) }"}]}`)
		if arm.code != 0 {
			t.Fatalf("arm: %s", arm.stdout)
		}
		if arm.field("steps", "0", "dialogs") != nil {
			continue // it opened during the command
		}
		time.Sleep(time.Duration(delay+1000) * time.Millisecond)
		next := cli(t, dir, nil, `{"tab":"`+tab+`","timeout":5000,"steps":[{"pageFunction":"[window.mark, window.answer]"}]}`)
		if next.code != 0 || jsonOf(next.field("steps", "0", "output")) != `["kept",true]` {
			t.Fatalf("next command: %s", next.stdout)
		}
		got := jsonOf(next.field("steps", "0", "dialogs"))
		if !strings.Contains(got, `"message":"Leave?"`) || !strings.Contains(got, `"betweenCommands":true`) {
			t.Errorf("dialogs = %s", got)
		}
		return
	}
	t.Fatal("the dialog never opened between commands")
}

func jsonOf(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}
