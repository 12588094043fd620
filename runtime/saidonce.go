package runtime

import (
	"encoding/json"
	"fmt"
	"strings"
)

// sayOnce drops from an answer what it says twice, so an agent reads each
// fact once:
//   - value changes the viewport snapshot shows on the changed element's
//     line (a fill's "" → "Ann Lee" next to `textbox "Name" [ref=…]:
//     "Ann Lee"`);
//   - text lines ("+ status: Saved") whose text the changes' summary
//     already quotes;
//   - the summary's list of changed refs when the changed list holds
//     them all;
//   - the focused element's ref, role and name, when the snapshot marks
//     that ref [focused] (its line says them); the spec's fields (tag,
//     selector, box, editable, and a field's type, value, placeholder)
//     stay.
func sayOnce(out *Output) {
	if ch := out.Changes; ch != nil && out.ViewportSnap != "" {
		all := len(ch.Changed)
		ch.Changed = ShownChanges(ch.Changed, out.ViewportSnap)
		if all > 0 && len(ch.Changed) == all {
			ch.Summary = countOnly(ch.Summary, ch.Changed)
		}
	}
	if ch := out.Changes; ch != nil {
		ch.Text = UnquotedText(ch.Text, ch.Summary)
	}
	if c := out.Context; c != nil {
		c.ActiveElement = focusedShown(c.ActiveElement, out.ViewportSnap)
	}
}

// focusedShown is the context's focused element without its ref, role and
// name when snap marks that ref [focused].
func focusedShown(active any, snap string) any {
	a, ok := active.(map[string]any)
	if !ok {
		return active
	}
	ref, _ := a["ref"].(string)
	if ref == "" || !strings.Contains(snap, "[focused] [ref="+ref+"]") {
		return active
	}
	out := make(map[string]any, len(a))
	for k, v := range a {
		if k != "ref" && k != "role" && k != "name" {
			out[k] = v
		}
	}
	return out
}

// ShownChanges drops the value changes the snapshot shows on the changed
// element's line.
func ShownChanges(list []Change, snap string) []Change {
	kept := list[:0]
	for _, c := range list {
		to, ok := c.To.(string)
		if c.Field == "value" && ok && strings.Contains(snap, "[ref="+c.Ref+"]: "+snapQuote(to)) {
			continue
		}
		kept = append(kept, c)
	}
	if len(kept) == 0 {
		return nil
	}
	return kept
}

// UnquotedText drops the text lines ("+ status: Thanks") whose text the
// summary already quotes.
func UnquotedText(lines []string, summary string) []string {
	kept := lines[:0]
	for _, l := range lines {
		_, text, ok := strings.Cut(l, ": ")
		if ok && strings.HasPrefix(l, "+ ") && strings.Contains(summary, snapQuote(text)) {
			continue
		}
		kept = append(kept, l)
	}
	if len(kept) == 0 {
		return nil
	}
	return kept
}

// snapQuote is s as the snapshot and the summary quote it.
func snapQuote(s string) string {
	data, _ := json.Marshal(s)
	return strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&").Replace(string(data))
}

// countOnly turns the summary's "N changed (s1e3 expanded, …)." into "N
// changed." when changed is the whole list it names.
func countOnly(summary string, changed []Change) string {
	items := make([]string, len(changed))
	for i, c := range changed {
		items[i] = c.Ref + " " + c.Field
	}
	long := fmt.Sprintf("%d changed (%s).", len(changed), strings.Join(items, ", "))
	return strings.Replace(summary, long, fmt.Sprintf("%d changed.", len(changed)), 1)
}
