package runtime

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// agent plays a task the way an agent does: every step it sends names
// elements only by refs read from earlier answers, or is a step an answer
// suggested in nextActions.
type agent struct {
	t    *testing.T
	tab  string
	last *Output
}

func (a *agent) send(steps ...any) *Output {
	a.t.Helper()
	data, err := json.Marshal(map[string]any{"tab": a.tab, "steps": steps})
	if err != nil {
		a.t.Fatal(err)
	}
	a.last = runJSON(a.t, string(data))
	return a.last
}

// answerText is everything of the last answer an agent reads for refs.
func (a *agent) answerText() string {
	data, _ := json.Marshal(a.last.Changes)
	return a.last.ViewportSnap + "\n" + string(data)
}

var lineRef = regexp.MustCompile(`\[ref=(s\d+e\d+)\]`)

// ref reads the ref of the one line of the last answer holding every
// needle; two such lines are a test failure (the agent could not tell).
func (a *agent) ref(needles ...string) string {
	a.t.Helper()
	found := ""
	for _, line := range strings.Split(a.answerText(), "\n") {
		ok := true
		for _, n := range needles {
			ok = ok && strings.Contains(line, n)
		}
		if m := lineRef.FindStringSubmatch(line); ok && m != nil {
			if found != "" && found != m[1] {
				a.t.Fatalf("two lines of the answer hold %q:\n%s", needles, a.answerText())
			}
			found = m[1]
		}
	}
	if found == "" {
		a.t.Fatalf("no ref for %q in the answer:\n%s", needles, a.answerText())
	}
	return found
}

// TestAgentTaskLoginThenWizard plays a small task on a site built like a
// real one (header, sidebar, footer, cookie banner, toasts): sign in —
// first blocked by the cookie banner, then with a validation error — and
// go through a three-step checkout wizard whose choices are role-less
// divs. Every element is named by a ref from an earlier answer or by a
// step from nextActions; the page's own state is checked at the end.
func TestAgentTaskLoginThenWizard(t *testing.T) {
	base := pagesURL(t) + "acme/"
	open := runJSON(t, `{"steps":[{"openTab":"`+base+`login.html"}]}`)
	mustOK(t, open)
	closeTabAfter(t, open)
	a := &agent{t: t, tab: open.Tab, last: open}
	email, signIn := a.ref(`textbox "Email"`), a.ref(`button "Sign in"`)
	password := a.ref(`textbox "Password"`)

	// The cookie banner covers the form: the answer suggests dismissing it.
	out := a.send(map[string]any{"click": signIn})
	if out.OK() || len(out.NextActions) == 0 {
		t.Fatalf("the click under the cookie banner: %s", out.JSON())
	}
	var dismiss *NextAction
	for i, n := range out.NextActions {
		if strings.Contains(n.Why, "Reject") {
			dismiss = &out.NextActions[i]
		}
	}
	if dismiss == nil {
		t.Fatalf("no nextAction dismisses the banner: %s", jsonString(out.NextActions))
	}
	mustOK(t, a.send(dismiss.Step))

	// A short password: the answer says what went wrong.
	out = a.send(map[string]any{"fill": map[string]any{"ref": email, "value": "ann@example.com"}},
		map[string]any{"fill": map[string]any{"ref": password, "value": "abc"}},
		map[string]any{"click": signIn})
	mustOK(t, out)
	if out.Changes == nil || !strings.Contains(out.Changes.Summary, `Alert: "Please fix the errors below."`) {
		t.Fatalf("the failed sign-in does not say why: %s", jsonString(out.Changes))
	}
	invalid := a.ref(`textbox "Password"`, `[invalid]`)
	out = a.send(map[string]any{"fill": map[string]any{"ref": invalid, "value": "longsecret"}},
		map[string]any{"click": a.ref(`button "Sign in"`)})
	mustOK(t, out)
	if !out.Navigated || !strings.HasSuffix(out.Context.URL, "/acme/wizard.html") {
		t.Fatalf("signing in did not reach the wizard: %s", out.JSON())
	}

	// Wizard step 1: a name and a country from a div-built list.
	out = a.send(map[string]any{"fill": map[string]any{"ref": a.ref(`textbox "Full name"`), "value": "Ann Lee"}},
		map[string]any{"click": a.ref(`[clickable]`, `Germany`)},
		map[string]any{"click": a.ref(`button "Continue"`)})
	mustOK(t, out)
	if !strings.Contains(strings.Join(out.Changes.Text, "\n"), "Step 2 of 3") {
		t.Fatalf("step 2 is not announced: %s", jsonString(out.Changes))
	}
	// Step 2: a delivery speed card (a div with a listener), then on.
	out = a.send(map[string]any{"click": a.ref(`[clickable]`, `Express`)},
		map[string]any{"click": a.ref(`button "Continue"`)})
	mustOK(t, out)
	// Step 3: place the order.
	out = a.send(map[string]any{"click": a.ref(`button "Place order"`)})
	mustOK(t, out)
	text := strings.Join(out.Changes.Text, "\n")
	if !strings.Contains(text, "Thank you!") || !strings.Contains(text, "Order placed") {
		t.Errorf("the order's confirmation is not in the changes: %s", jsonString(out.Changes))
	}
	check := a.send(map[string]any{"pageFunction": "JSON.stringify(window.order)"})
	mustOK(t, check)
	var order struct {
		Name, Country, Speed string
		Placed               int
	}
	json.Unmarshal([]byte(check.Steps[0].Output.(string)), &order)
	if order.Name != "Ann Lee" || order.Country != "Germany" || order.Speed != "express" || order.Placed != 1 {
		t.Errorf("the page's order: %+v", order)
	}
}
