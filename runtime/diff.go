package runtime

import (
	"fmt"
	"sort"
	"strings"

	"github.com/cdp-skill/cdp-skill/browser"
)

// Changes is the viewport diff of a command (spec §14.2).
type Changes struct {
	Summary string   `json:"summary"`
	Added   []string `json:"added,omitempty"`
	Removed []string `json:"removed,omitempty"`
	Changed []Change `json:"changed,omitempty"`
	// Text lists what a user would read that changed: alerts, status
	// lines, headings and short text blocks, as `+ alert: …` (appeared),
	// `~ status: … (was: …)` (changed) and `- alert: …` (went away).
	Text []string `json:"text,omitempty"`
	// Transient lists texts (toasts, flashes) that appeared and vanished
	// while the command's actions ran.
	Transient []string `json:"transient,omitempty"`
}

// Change is one state change of an element that stayed.
type Change struct {
	Ref   string `json:"ref"`
	Field string `json:"field"`
	From  any    `json:"from"`
	To    any    `json:"to"`
}

const maxDiffItems = 10

// diffElements compares the ref-bearing elements of the viewport before
// and after; nil when nothing significant changed. An element is added
// when it is in fresh (inside what the actions changed; nil: unknown, any
// new one counts) and removed when it is not in present (still in the
// page, only scrolled away): a scroll is not a change.
func diffElements(before, after []browser.SnapElement, verb string, fresh, present map[string]bool) *Changes {
	b := map[string]browser.SnapElement{}
	for _, e := range before {
		b[e.Ref] = e
	}
	a := map[string]browser.SnapElement{}
	ch := &Changes{}
	var added, removed []string
	for _, e := range after {
		a[e.Ref] = e
		old, ok := b[e.Ref]
		if !ok {
			if fresh != nil && !fresh[e.Ref] {
				continue
			}
			added = append(added, e.Ref)
			if len(ch.Added) < maxDiffItems {
				ch.Added = append(ch.Added, elementLine(e))
			}
			continue
		}
		for _, c := range stateChanges(old, e) {
			if len(ch.Changed) < maxDiffItems {
				ch.Changed = append(ch.Changed, c)
			}
		}
	}
	for _, e := range before {
		if _, ok := a[e.Ref]; !ok && !present[e.Ref] {
			removed = append(removed, e.Ref)
			if len(ch.Removed) < maxDiffItems {
				ch.Removed = append(ch.Removed, elementLine(e))
			}
		}
	}
	if len(ch.Added) == 0 && len(ch.Removed) == 0 && len(ch.Changed) == 0 {
		return nil
	}
	ch.Summary = summarize(verb, listed(added, ch.Added), listed(removed, ch.Removed), ch.Changed)
	return ch
}

// stateChanges lists the fields that differ between two states of one
// element: the states in brackets, the value and the name; or only its
// role, when that changed (a select widget's control that stood in for
// its combobox while closed is a plain group while open: its value and
// name were the combobox's, and did not go to "").
func stateChanges(old, cur browser.SnapElement) []Change {
	if old.Role != cur.Role && old.Role != "" && cur.Role != "" {
		return []Change{{Ref: cur.Ref, Field: "role", From: old.Role, To: cur.Role}}
	}
	var out []Change
	fields := map[string]bool{}
	for k := range old.State {
		fields[k] = true
	}
	for k := range cur.State {
		fields[k] = true
	}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !diffFields[k] {
			continue
		}
		from, to := stateValue(old.State[k], k), stateValue(cur.State[k], k)
		if fmt.Sprint(from) != fmt.Sprint(to) {
			out = append(out, Change{Ref: cur.Ref, Field: k, From: from, To: to})
		}
	}
	if v1, v2 := deref(old.Value), deref(cur.Value); v1 != v2 {
		out = append(out, Change{Ref: cur.Ref, Field: "value", From: v1, To: v2})
	}
	if old.Name != cur.Name {
		out = append(out, Change{Ref: cur.Ref, Field: "name", From: old.Name, To: cur.Name})
	}
	return out
}

// diffFields are the states whose change is reported; focus moves with
// every click and would only add noise.
var diffFields = map[string]bool{"checked": true, "disabled": true, "expanded": true, "pressed": true,
	"selected": true, "required": true, "invalid": true, "readonly": true}

// stateValue reads a state, absent meaning false (an unchecked box has no
// checked state).
func stateValue(v any, field string) any {
	if v == nil {
		return false
	}
	return v
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// elementLine renders an element as its snapshot line.
func elementLine(e browser.SnapElement) string {
	var b strings.Builder
	b.WriteString(e.Role)
	if e.Name != "" {
		fmt.Fprintf(&b, " %q", e.Name)
	}
	for _, k := range []string{"checked", "disabled", "expanded", "pressed", "selected", "required", "invalid"} {
		switch v := e.State[k].(type) {
		case bool:
			if v {
				b.WriteString(" [" + k + "]")
			} else if k == "expanded" {
				b.WriteString(" [collapsed]")
			}
		case string:
			b.WriteString(" [" + k + "=" + v + "]")
		}
	}
	fmt.Fprintf(&b, " [ref=%s]", e.Ref)
	if e.Value != nil {
		fmt.Fprintf(&b, ": %q", *e.Value)
	}
	return b.String()
}

// summarize writes the one-line summary: "Clicked. 3 added (s1e5, s1e6,
// s1e7). 1 removed (s1e2). 2 changed (s1e3 expanded, s1e4 checked)." A nil
// added or removed list with a count (see listed) is said as the count
// alone: "3 added.".
func summarize(verb string, added, removed []string, changed []Change) string {
	parts := []string{verb + "."}
	if verb == "" {
		parts = parts[:0]
	}
	parts = appendCount(parts, "added", added)
	parts = appendCount(parts, "removed", removed)
	if len(changed) > 0 {
		var items []string
		for _, c := range changed {
			items = append(items, c.Ref+" "+c.Field)
		}
		parts = append(parts, fmt.Sprintf("%d changed (%s).", len(changed), strings.Join(items, ", ")))
	}
	return strings.Join(parts, " ")
}

// appendCount adds "N what (refs)." for refs, or "N what." when refs are
// all blank (listed in full elsewhere in the answer).
func appendCount(parts []string, what string, refs []string) []string {
	if len(refs) == 0 {
		return parts
	}
	if refs[0] == "" {
		return append(parts, fmt.Sprintf("%d %s.", len(refs), what))
	}
	return append(parts, fmt.Sprintf("%d %s (%s).", len(refs), what, refList(refs)))
}

// listed returns refs blanked when lines (the changes' added or removed
// lines, each with its ref) list every one of them: the summary then
// gives the count alone instead of repeating the refs.
func listed(refs, lines []string) []string {
	if len(refs) == 0 || len(lines) < len(refs) {
		return refs
	}
	return make([]string, len(refs))
}

func refList(refs []string) string {
	if len(refs) > 6 {
		return strings.Join(refs[:6], ", ") + ", …"
	}
	return strings.Join(refs, ", ")
}

// withText adds the text changes and transient texts to the diff (making
// one when the elements did not change), and names the first in the
// summary: an alert after a failed submit is the news of the step.
func withText(ch *Changes, text, transient []string, verb string) *Changes {
	if len(text) == 0 && len(transient) == 0 {
		return ch
	}
	var news []string
	if len(text) > 0 {
		news = append(news, textNews(text[0]))
	}
	if len(transient) > 0 {
		news = append(news, fmt.Sprintf("Transient: %q.", transient[0]))
	}
	// The news goes right after the verb: "Clicked. Alert: "…". 2 added…".
	ch = withNews(ch, strings.Join(news, " "), verb)
	ch.Text, ch.Transient = text, transient
	return ch
}

// withFrames names, in the summary, the iframes the command's actions took
// to another page: their elements' refs changed because the frame did
// ("Clicked. Frame went to https://…/step2. 2 removed …").
func withFrames(ch *Changes, urls []string, verb string) *Changes {
	if len(urls) == 0 {
		return ch
	}
	news := fmt.Sprintf("Frame went to %s.", urls[0])
	if len(urls) > 1 {
		news = fmt.Sprintf("%d frames went elsewhere (first: %s).", len(urls), urls[0])
	}
	return withNews(ch, news, verb)
}

// withNews puts news right after the summary's verb ("Clicked. News. 2
// added…"), making a diff when there was none.
func withNews(ch *Changes, news, verb string) *Changes {
	if ch == nil {
		ch = &Changes{Summary: verb + "."}
		if verb == "" {
			ch.Summary = ""
		}
	}
	if ch.Summary == "" {
		ch.Summary = news
		return ch
	}
	head, rest, _ := strings.Cut(ch.Summary, ". ")
	if !strings.HasSuffix(head, ".") {
		head += "."
	}
	ch.Summary = strings.TrimSpace(head + " " + news + " " + rest)
	return ch
}

// textNews phrases a text change line for the summary: `+ alert: Please
// fix` → `Alert: "Please fix".`
func textNews(line string) string {
	sign, body, _ := strings.Cut(line, " ")
	role, text, ok := strings.Cut(body, ": ")
	if !ok {
		return body
	}
	if i := strings.Index(text, " (was: "); i >= 0 && sign == "~" {
		text = text[:i]
	}
	word := map[string]string{"+": "", "~": " now", "-": " gone"}[sign]
	if role == "" {
		return body
	}
	return fmt.Sprintf("%s%s%s: %q.", strings.ToUpper(role[:1]), role[1:], word, text)
}
