package mcpserver

import (
	"encoding/json"
	"strings"

	"github.com/cdp-skill/cdp-skill/runtime"
)

// leanAnswer drops from an MCP answer what it says twice or what only a
// debugging human reads, so an agent reads each fact once:
//   - the site-profile nudge (the instructions say it once per session);
//   - the context's scroll at the top of the page, and its focused
//     element when the snapshot marks it [focused];
//   - in step outputs, what the answer says elsewhere (an opened tab's
//     url, title and target id are the context's and the tab's; the
//     element an action reached is on the snapshot, its effect in the
//     changes; a query's selector is the agent's own), the
//     acknowledgement of a step that succeeded ("clicked": true), how the
//     action was done ("method"), a verification that held and snapshot
//     ids and counts;
//   - value changes the snapshot shows on the changed element's line, and
//     text changes the summary quotes;
//   - the steps, when each succeeded with nothing more to say.
//
// A step that failed, warned or was skipped keeps everything.
func leanAnswer(out *runtime.Output) {
	if out.ActionRequired != nil && out.ActionRequired.Action == "createSiteProfile" {
		out.ActionRequired = nil
	}
	if c := out.Context; c != nil {
		if atTop(c.Scroll) {
			c.Scroll = nil
		}
		if strings.Contains(out.ViewportSnap, "[focused]") || lastSnapshotFocused(out.Steps) {
			c.ActiveElement = nil
		}
	}
	bare := true
	for _, st := range out.Steps {
		if st.Status != runtime.StatusOK {
			bare = false
			continue
		}
		st.Output = leanOutput(st.Action, st.Output, out.Context, out.Tab)
		if st.Output != nil || st.Observation != nil || st.Dialogs != nil || len(st.Warning) > 0 || st.Download != nil || st.Context != nil {
			bare = false
		}
	}
	if bare {
		out.Steps = nil
	}
	if ch := out.Changes; ch != nil {
		ch.Changed = runtime.ShownChanges(ch.Changed, out.ViewportSnap)
		ch.Text = runtime.UnquotedText(ch.Text, ch.Summary)
	}
}

// lastSnapshotFocused reports whether the command's last step is a
// snapshot that marks the focused element (the answer's one tree).
func lastSnapshotFocused(steps []*runtime.StepResult) bool {
	if len(steps) == 0 || steps[len(steps)-1].Action != "snapshot" {
		return false
	}
	data, _ := json.Marshal(steps[len(steps)-1].Output)
	return strings.Contains(string(data), "[focused]")
}

// atTop reports whether a context's scroll says the page is at its top.
func atTop(scroll any) bool {
	var s struct {
		X, Y    float64
		Percent float64
	}
	data, err := json.Marshal(scroll)
	return err == nil && json.Unmarshal(data, &s) == nil && s.X == 0 && s.Y == 0 && s.Percent == 0
}

// leanOutput is a successful step's output without what the answer says
// elsewhere; nil when nothing is left.
func leanOutput(action string, output any, ctx *runtime.PageContext, tab string) any {
	data, err := json.Marshal(output)
	if err != nil {
		return output
	}
	var m map[string]any
	if json.Unmarshal(data, &m) != nil {
		return output // not an object: a value the step returned
	}
	if m[ackOf(action)] == true {
		delete(m, ackOf(action))
	}
	if m["verified"] == true {
		delete(m, "verified")
	}
	delete(m, "method")
	delete(m, "targetId")
	if _, ok := m["element"].(map[string]any); ok && action != "query" {
		delete(m, "element") // the snapshot and the changes show it
	}
	switch action {
	case "openTab":
		if ctx != nil {
			dropEqual(m, "url", ctx.URL)
			dropEqual(m, "title", ctx.Title)
		}
		if m["tab"] == tab {
			delete(m, "tab")
		}
	case "snapshot":
		delete(m, "refs")
		delete(m, "snapshotId")
	case "query":
		delete(m, "selector")
		if m["showing"] == m["total"] {
			delete(m, "showing")
		}
		if list, ok := m["results"].([]any); ok {
			for _, r := range list {
				if r, ok := r.(map[string]any); ok {
					delete(r, "index")
				}
			}
		}
	}
	if len(m) == 0 {
		return nil
	}
	return rawJSON(m)
}

// rawJSON encodes v as the answer does, without HTML escaping.
func rawJSON(v any) json.RawMessage {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return nil
	}
	return json.RawMessage(strings.TrimSuffix(b.String(), "\n"))
}

// ackOf is the field acknowledging action ("click" → "clicked").
func ackOf(action string) string {
	switch {
	case strings.HasSuffix(action, "e"):
		return action + "d"
	case action == "closeTab":
		return "closed"
	case action == "drag":
		return "dragged"
	}
	return action + "ed"
}

func dropEqual(m map[string]any, key, want string) {
	if m[key] == want {
		delete(m, key)
	}
}
