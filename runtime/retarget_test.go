package runtime

import (
	"encoding/json"
	"testing"
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
		{map[string]any{"label": "Qty", "timeout": 500}, `{"click":{"ref":"s1e5","timeout":500}}`},
		{map[string]any{"timeout": 500}, `null`},
	} {
		got, _ := json.Marshal(retarget("click", c.params, "s1e5"))
		if string(got) != c.want {
			t.Errorf("retarget(%v) = %s, want %s", c.params, got, c.want)
		}
	}
}
