package builtins

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/cdp-skill/cdp-skill/browser/suggest"
)

// forExample is the hint of a call that lacks what its step needs: the
// example steps, each given as one JSON step ({"fill": {…}}), which each
// frontend writes in its own syntax (a builtin call in a recipe). An
// example that is not one JSON step is shown as it is written
// (TestUsageExamplesAreSteps keeps them steps).
func forExample(steps ...string) *suggest.Hint {
	parsed := make([]suggest.Step, 0, len(steps))
	for _, s := range steps {
		step, ok := exampleStep(s)
		if !ok {
			return suggest.New("for example " + strings.ReplaceAll(strings.Join(steps, " or "), "%", "%%"))
		}
		parsed = append(parsed, step)
	}
	verbs := strings.TrimSuffix(strings.Repeat("%s or ", len(parsed)), " or ")
	return suggest.New("for example "+verbs, parsed...)
}

// exampleStep parses a JSON object with one key, the step's name, keeping
// its value's text (and so its key order).
func exampleStep(s string) (suggest.Step, bool) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &m); err != nil || len(m) != 1 {
		return suggest.Step{}, false
	}
	for name, v := range m {
		var compact bytes.Buffer
		if json.Compact(&compact, v) != nil {
			return suggest.Step{}, false
		}
		return suggest.Step{Name: name, Value: json.RawMessage(compact.Bytes())}, true
	}
	return suggest.Step{}, false
}
