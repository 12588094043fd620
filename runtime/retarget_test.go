package runtime

import (
	"encoding/json"
	"testing"

	"github.com/cdp-skill/cdp-skill/lang"
)

// TestRetargetDropsEveryTargetKey: a suggestion that aims a failed step
// at a near match's ref keeps the step's options and drops all of its
// target, withinSelector and a point included (the catalog's list), so
// the suggested step does not look for the ref inside a stale container.
func TestRetargetDropsEveryTargetKey(t *testing.T) {
	for _, c := range []struct {
		params any
		want   string
	}{
		{"Buy", `{"click":"s1e5"}`},
		{map[string]any{"text": "Buy", "withinSelector": "#cart"}, `{"click":"s1e5"}`},
		{map[string]any{"selector": "#buy", "x": 3, "y": 4, "exact": true}, `{"click":"s1e5"}`},
		{map[string]any{"text": "Qty", "timeout": 500}, `{"click":{"ref":"s1e5","timeout":500}}`},
		{map[string]any{"timeout": 500}, `null`},
	} {
		got, _ := json.Marshal(retarget("click", c.params, "s1e5"))
		if string(got) != c.want {
			t.Errorf("retarget(%v) = %s, want %s", c.params, got, c.want)
		}
	}
}

// TestRetargetDropsOnlyTheActionsTarget: the keys a suggestion replaces
// are the ones the failed step's own action reads as its target (the
// catalog's Target marks), not every key spelled like a target: type's
// text is what to type and scroll's x/y a position, and a suggestion that
// dropped them would type nothing or scroll elsewhere.
func TestRetargetDropsOnlyTheActionsTarget(t *testing.T) {
	for _, c := range []struct {
		action string
		params any
		want   string
	}{
		{"type", map[string]any{"selector": "#q", "text": "shoes"}, `{"type":{"ref":"s1e5","text":"shoes"}}`},
		{"type", map[string]any{"label": "Search", "exact": true, "text": "shoes", "delay": 20}, `{"type":{"delay":20,"ref":"s1e5","text":"shoes"}}`},
		{"scroll", map[string]any{"selector": "#list", "y": 300}, `{"scroll":{"ref":"s1e5","y":300}}`},
		{"hover", map[string]any{"text": "Menu", "withinSelector": "#nav", "duration": 300}, `{"hover":{"duration":300,"ref":"s1e5"}}`},
		{"selectOption", map[string]any{"selector": "#plan", "label": "Pro"}, `{"selectOption":{"label":"Pro","ref":"s1e5"}}`},
		{"press", map[string]any{"key": "Enter"}, `null`},
	} {
		got, _ := json.Marshal(retarget(c.action, c.params, "s1e5"))
		if string(got) != c.want {
			t.Errorf("retarget(%s, %v) = %s, want %s", c.action, c.params, got, c.want)
		}
	}
}

// TestSuggestParamsKeepsTextButNotSecrets: a suggestion that repeats a
// failed fill on a near match carries the text to type (the echo masks
// it, and a suggested step that types "••••••" would do harm), except
// when the step or the near match is about a secret: then no suggestion.
func TestSuggestParamsKeepsTextButNotSecrets(t *testing.T) {
	obj := func(kv ...string) *lang.Object {
		o := &lang.Object{Values: map[string]any{}}
		for i := 0; i < len(kv); i += 2 {
			o.Keys = append(o.Keys, kv[i])
			o.Values[kv[i]] = kv[i+1]
		}
		return o
	}
	for _, c := range []struct {
		typed any
		name  string
		want  string
	}{
		{obj("label", "Notes", "value", "Hello"), "Note", `{"fill":{"ref":"s1e5","value":"Hello"}}`},
		{obj("label", "Password", "value", "hunter2"), "Password", `null`},
		{obj("label", "Pass word", "value", "hunter2"), "Passcode", `null`},
		{obj("selector", "#api_key", "value", "k-123"), "Key", `null`},
	} {
		res := &StepResult{Action: "fill", typed: c.typed, Params: maskTypedParams("fill", c.typed)}
		got, _ := json.Marshal(retarget("fill", suggestParams(res, c.name), "s1e5"))
		if string(got) != c.want {
			t.Errorf("%v near %q: %s, want %s", c.typed, c.name, got, c.want)
		}
	}
}

// TestDismissiveButtons: the suggestions that clear a covering layer name
// only the buttons that close it, never the modal's own action.
func TestDismissiveButtons(t *testing.T) {
	for name, want := range map[string]bool{
		"Close": true, "×": true, "": true, "Cancel": true, "No thanks": true, "Accept all": true,
		"Reject all": true, "Close dialog": true, "Got it!": true,
		"Save changes": false, "Delete": false, "Submit": false, "Confirm purchase": false, "Subscribe": false,
	} {
		if got := dismissive(name); got != want {
			t.Errorf("dismissive(%q) = %v, want %v", name, got, want)
		}
	}
}
