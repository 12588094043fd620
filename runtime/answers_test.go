package runtime

import (
	"strings"
	"testing"
)

// openAcme opens a page of the acme fixture site (header, sidebars,
// footer, toasts) and accepts its cookie banner.
func openAcme(t *testing.T, page string) (tab, base string) {
	t.Helper()
	base = pagesURL(t) + "acme/"
	out := runJSON(t, `{"steps":[{"openTab":"`+base+page+`"}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	return out.Tab, base
}

// TestFailedLoginReportsAlertAndToast: the alert a failed submit shows is
// in the changes (text and summary), and the toast that came and went
// while the click settled is reported as transient.
func TestFailedLoginReportsAlertAndToast(t *testing.T) {
	tab, _ := openAcme(t, "login.html")
	mustOK(t, runJSON(t, `{"tab":"`+tab+`","steps":[{"click":"#accept"}]}`))
	out := runJSON(t, `{"tab":"`+tab+`","steps":[{"fill":{"selector":"#email","value":"ann@example.com"}},{"click":{"text":"Sign in","exact":true}}]}`)
	mustOK(t, out)
	ch := out.Changes
	if ch == nil {
		t.Fatalf("no changes: %s", out.JSON())
	}
	text := newsLines(ch)
	for _, want := range []string{"+ alert: Please fix the errors below.", "Password must be at least 6 characters."} {
		if !strings.Contains(text, want) {
			t.Errorf("changes.text lacks %q:\n%s", want, text)
		}
	}
	if !strings.Contains(ch.Summary, `Alert: "Please fix the errors below."`) {
		t.Errorf("summary does not name the alert: %q", ch.Summary)
	}
	if len(ch.Transient) != 1 || ch.Transient[0] != "Checking your details…" {
		t.Errorf("transient = %q, want the toast", ch.Transient)
	}
	if strings.Contains(text, "Checking") {
		t.Errorf("the vanished toast is reported as still there:\n%s", text)
	}
	// The next submit fixes the error: the alert's text goes away.
	out = runJSON(t, `{"tab":"`+tab+`","steps":[{"fill":{"selector":"#email","value":"bad"}},{"fill":{"selector":"#password","value":"longenough"}},{"click":{"text":"Sign in","exact":true}}]}`)
	mustOK(t, out)
	if out.Changes == nil || !strings.Contains(newsLines(out.Changes), "+ text: Enter a valid email address.") {
		t.Errorf("second submit: %s", jsonString(out.Changes))
	}
}

// TestViewportSnapshotScopedToMainAndChange: the answer's viewport
// snapshot shows main, what the step changed outside it, and one line
// naming what it left out; refs outside main still work.
func TestViewportSnapshotScopedToMainAndChange(t *testing.T) {
	tab, _ := openAcme(t, "login.html")
	out := runJSON(t, `{"tab":"`+tab+`","steps":[{"click":"#reject"}]}`)
	mustOK(t, out)
	snap := out.ViewportSnap
	first, _, _ := strings.Cut(snap, "\n")
	if !strings.HasPrefix(first, "# left out: banner, complementary") || !strings.Contains(first, `contentinfo (`) || !strings.Contains(first, `{"snapshot":"body"}`) {
		t.Errorf("header line: %q", first)
	}
	if !strings.Contains(snap, `heading "Sign in"`) || !strings.Contains(snap, `textbox "Email"`) {
		t.Errorf("main is missing:\n%s", snap)
	}
	for _, gone := range []string{`link "Careers"`, `link "Orders"`, `link "Deals"`} {
		if strings.Contains(snap, gone) {
			t.Errorf("%s outside main is in the scoped snapshot:\n%s", gone, snap)
		}
	}
}

// TestChangesOutsideMainAndStatusText: a step that changes the header and
// adds a toast outside main shows those parts in the scoped snapshot (and
// not the rest of the header or the footer), and a status line that
// changes is reported with its old text.
func TestChangesOutsideMainAndStatusText(t *testing.T) {
	tab, _ := openAcme(t, "wizard.html")
	out := runJSON(t, `{"tab":"`+tab+`","steps":[{"click":"#next1"}]}`)
	mustOK(t, out)
	if out.Changes == nil || !strings.Contains(strings.Join(out.Changes.Text, "\n"), "~ status: Choose a country and enter your name. (was: Step 1 of 3)") {
		t.Fatalf("status change: %s", jsonString(out.Changes))
	}
	out = runJSON(t, `{"tab":"`+tab+`","steps":[{"fill":{"selector":"#name","value":"Ann"}},{"click":{"text":"Japan"}},{"click":"#next1"},{"click":"#express"},{"click":"#next2"},{"click":"#place"}]}`)
	mustOK(t, out)
	snap := out.ViewportSnap
	for _, want := range []string{`link "Cart (0)"`, "Confirmation sent to your email", `heading "Thank you!"`} {
		if !strings.Contains(snap, want) {
			t.Errorf("the scoped snapshot lacks %s:\n%s", want, snap)
		}
	}
	for _, gone := range []string{`link "Deals"`, `link "Privacy"`} {
		if strings.Contains(snap, gone) {
			t.Errorf("the scoped snapshot shows %s, which did not change:\n%s", gone, snap)
		}
	}
	if !strings.Contains(strings.Join(out.Changes.Text, "\n"), "+ text: Confirmation sent to your email") {
		t.Errorf("the toast is not in the text changes: %s", jsonString(out.Changes))
	}
}

// TestChangesOfARerenderAreWhatChanged: a page that renders its whole view
// into new nodes on every change reports what a user would notice (the
// status line), not the heading it rendered again.
func TestChangesOfARerenderAreWhatChanged(t *testing.T) {
	out := runJSON(t, `{"steps":[{"openTab":"`+pagesURL(t)+`rerender.html"}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	out = runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"click":"#add"}]}`)
	mustOK(t, out)
	text := newsLines(out.Changes)
	if !strings.Contains(text, "status: Saved") || strings.Contains(text, "Fruit") || strings.Contains(strings.Join(out.Changes.Transient, "\n"), "Fruit") {
		t.Fatalf("changes of a re-render: %s", jsonString(out.Changes))
	}
	if got := pageJSON(t, out.Tab, "document.querySelectorAll('li').length"); got != "2" {
		t.Fatalf("the page has %s items", got)
	}
}
