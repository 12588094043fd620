package runtime

import (
	"encoding/json"
	"fmt"

	"github.com/cdp-skill/cdp-skill/browser"
)

// hiddenMatch is what the failure diagnostics found of a target that
// exists but is hidden (browser/inpage/hidden.js): why, and the step that
// shows it.
type hiddenMatch struct {
	Text   string `json:"text"`
	Role   string `json:"role"`
	Why    string `json:"why"`
	Action string `json:"action"`
	Opener *struct {
		Ref  string `json:"ref"`
		Role string `json:"role"`
		Name string `json:"name"`
	} `json:"opener"`
}

// hiddenOf reads the hidden match of a failed step's context.
func hiddenOf(res *StepResult) *hiddenMatch {
	m, ok := res.Context.(map[string]any)
	if !ok || m["hiddenMatch"] == nil {
		return nil
	}
	data, err := json.Marshal(m["hiddenMatch"])
	if err != nil {
		return nil
	}
	var hm hiddenMatch
	if json.Unmarshal(data, &hm) != nil || hm.Why == "" {
		return nil
	}
	return &hm
}

// explainHidden rewrites the error of a step whose target was not found
// when an element with its text exists but is hidden: the answer says so,
// why, and which element to hover or click first, instead of advising a
// spelling check.
func explainHidden(res *StepResult) {
	if res.ErrorType != string(browser.KindElementNotFound) {
		return
	}
	hm := hiddenOf(res)
	if hm == nil {
		return
	}
	msg := fmt.Sprintf("%s %q is on the page but hidden: it is %s", hm.Role, hm.Text, hm.Why)
	if o := hm.Opener; o != nil && o.Ref != "" && hm.Action != "" {
		msg += fmt.Sprintf(" %s %q (%s). %s %s first ({%q:%q}), then repeat this step", o.Role, o.Name, o.Ref, title(hm.Action), o.Ref, hm.Action, o.Ref)
	} else {
		msg += "; take a snapshot to find what shows it"
	}
	res.Error = msg
}

// hiddenActions suggests the step that shows a hidden target.
func hiddenActions(res *StepResult) []NextAction {
	hm := hiddenOf(res)
	if hm == nil || hm.Opener == nil || hm.Opener.Ref == "" || hm.Action == "" {
		return nil
	}
	return []NextAction{{Why: fmt.Sprintf("%s %q is %s %s %q: %s it first, then repeat the step", hm.Role, hm.Text, hm.Why, hm.Opener.Role, hm.Opener.Name, hm.Action),
		Step: map[string]any{hm.Action: hm.Opener.Ref}}}
}

func title(s string) string {
	if s == "" {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
