package browser

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/chromedp/cdproto/target"

	"github.com/cdp-skill/cdp-skill/browser/state"
)

// Dialogs a page opens between commands are answered by the dialog keeper
// (package keeper) and recorded in the state dir; the next command on the
// tab reports them in its first step.

// maxKeptDialogs bounds the dialogs listed per tab between two commands.
const maxKeptDialogs = 20

// keptDialogs is the on-disk record of a tab's dialogs between commands.
type keptDialogs struct {
	Dialogs []Dialog `json:"dialogs"`
	// More counts the dialogs of a storm answered unlisted.
	More int `json:"more,omitempty"`
}

// targetIDPattern is the shape of a Chrome target id; anything else never
// becomes a file name.
var targetIDPattern = lazyRegexp(`^[A-Za-z0-9_-]{1,64}$`)

func keptPath(id target.ID) (string, error) {
	if !targetIDPattern().MatchString(string(id)) {
		return "", errors.New("invalid target id")
	}
	return state.Path("dialogs", string(id)+".json")
}

// RecordKeptDialog appends a dialog answered between commands to the tab's
// record. The caller holds the tab's command lock.
func RecordKeptDialog(id target.ID, d Dialog, storm bool) {
	p, err := keptPath(id)
	if err != nil {
		return
	}
	var k keptDialogs
	if data, err := os.ReadFile(p); err == nil {
		json.Unmarshal(data, &k)
	}
	if storm || len(k.Dialogs) >= maxKeptDialogs {
		k.More++
	} else {
		k.Dialogs = append(k.Dialogs, d)
	}
	data, _ := json.Marshal(k)
	state.WriteFileAtomic(p, data, 0o600)
}

// takeKeptDialogs returns and forgets the dialogs answered on the tab
// between commands; a storm's unlisted rest becomes one summary entry.
func takeKeptDialogs(id target.ID) []Dialog {
	p, err := keptPath(id)
	if err != nil {
		return nil
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil
	}
	os.Remove(p)
	var k keptDialogs
	if json.Unmarshal(data, &k) != nil {
		return nil
	}
	if k.More > 0 {
		k.Dialogs = append(k.Dialogs, Dialog{Type: "storm", Action: "accepted", BetweenCommands: true,
			Message: fmt.Sprintf("the page kept opening dialogs between commands: %d more were answered unlisted", k.More)})
	}
	return k.Dialogs
}
