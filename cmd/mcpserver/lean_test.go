package mcpserver

import (
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/runtime"
)

func TestLeanAnswer(t *testing.T) {
	snap := `- textbox "Email" [ref=s1e1]: "ann@example.com"` + "\n" + `- button "Go" [focused] [ref=s1e2]`
	cases := []struct {
		name      string
		out       *runtime.Output
		want, not []string
	}{
		{
			name: "bare steps, shown changes and the nudge go",
			out: &runtime.Output{Status: "ok", Tab: "t1",
				ActionRequired: &runtime.ActionRequired{Action: "createSiteProfile", Domain: "x"},
				Context:        &runtime.PageContext{URL: "http://x/", Title: "X", Scroll: map[string]any{"y": 0, "percent": 0}, ActiveElement: map[string]any{"ref": "s1e2"}},
				Steps: []*runtime.StepResult{
					{Action: "fill", Status: "ok", Output: map[string]any{"filled": true, "method": "insertText", "verified": true, "element": map[string]any{"name": "Email"}}},
					{Action: "click", Status: "ok", Output: map[string]any{"clicked": true, "method": "cdp"}},
				},
				Changes: &runtime.Changes{Summary: `step 2 (click): Status: "Saved". 1 changed (s1e1 value).`,
					Changed: []runtime.Change{{Ref: "s1e1", Field: "value", From: "", To: "ann@example.com"}},
					Text:    []string{"+ status: Saved"}},
				ViewportSnap: snap},
			want: []string{`"summary":"step 2 (click): Status: \"Saved\". 1 changed (s1e1 value)."`, `"url":"http://x/"`},
			not:  []string{"createSiteProfile", `"steps"`, "scroll", "activeElement", `"changed":`, "+ status", "method"},
		},
		{
			name: "a failed, a warned step and unshown changes stay",
			out: &runtime.Output{Status: "error", Tab: "t1",
				Context: &runtime.PageContext{URL: "http://x/", Scroll: map[string]any{"y": 300, "percent": 40}, ActiveElement: map[string]any{"ref": "s1e9"}},
				Steps: []*runtime.StepResult{
					{Action: "fill", Status: "ok", Output: map[string]any{"filled": true, "verified": false}, Warning: []string{"the field reformatted the value"}},
					{Action: "click", Status: "error", Output: map[string]any{"clicked": false, "method": "cdp"}, Error: "covered"},
				},
				Changes: &runtime.Changes{Summary: "1 changed (s1e3 value).",
					Changed: []runtime.Change{{Ref: "s1e3", Field: "value", From: "a", To: "b"}},
					Text:    []string{"+ alert: Please fix the errors"}},
				ViewportSnap: `- textbox "Email" [ref=s1e1]`},
			want: []string{`"verified":false`, `"warning":["the field reformatted the value"]`, `"method":"cdp"`, `"scroll":{`, `"activeElement"`, `"changed":[{"ref":"s1e3"`, "+ alert: Please fix the errors"},
			not:  []string{`"filled"`},
		},
		{
			name: "an opened tab's echoes and a query's own selector go",
			out: &runtime.Output{Status: "ok", Tab: "t2",
				Context: &runtime.PageContext{URL: "http://x/a", Title: "A"},
				Steps: []*runtime.StepResult{
					{Action: "openTab", Status: "ok", Output: map[string]any{"tab": "t2", "targetId": "ABC", "url": "http://x/a", "title": "A"}},
					{Action: "query", Status: "ok", Output: map[string]any{"selector": "#r", "total": 1, "showing": 1, "results": []any{map[string]any{"index": 0, "ref": "s1e6", "value": "a <b>"}}}},
				}},
			want: []string{`{"action":"openTab","status":"ok"}`, `"output":{"results":[{"ref":"s1e6","value":"a <b>"}],"total":1}`},
			not:  []string{"targetId", "#r", "showing", "index"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			leanAnswer(c.out)
			got := string(c.out.JSON())
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("lacks %s:\n%s", w, got)
				}
			}
			for _, n := range c.not {
				if strings.Contains(got, n) {
					t.Errorf("still has %s:\n%s", n, got)
				}
			}
		})
	}
}
