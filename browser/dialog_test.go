package browser

import (
	"testing"
)

// clickDialog clicks the target and returns the dialogs the click opened.
func clickDialog(t *testing.T, p *Page, sel string) []Dialog {
	t.Helper()
	mark := p.Dialogs().Mark()
	click(t, p, Target{Selector: sel}, ClickOptions{})
	return p.Dialogs().Since(mark)
}

func TestDialogAlertIsAccepted(t *testing.T) {
	p, _ := openFixture(t, "dialogs.html")
	d := clickDialog(t, p, "#alert")
	if len(d) != 1 || d[0] != (Dialog{Type: "alert", Message: "Saved!", Action: "accepted"}) {
		t.Fatalf("dialogs = %+v", d)
	}
	if got := js(t, p, "window.afterAlert"); got != "true" {
		t.Fatalf("the script after alert() did not run: %s", got)
	}
}

func TestDialogConfirmAcceptedByDefaultAndDismissed(t *testing.T) {
	p, _ := openFixture(t, "dialogs.html")
	d := clickDialog(t, p, "#confirm")
	if len(d) != 1 || d[0].Type != "confirm" || d[0].Action != "accepted" || js(t, p, "window.confirmed") != "true" {
		t.Fatalf("default: %+v confirmed=%s", d, js(t, p, "window.confirmed"))
	}
	old := p.Dialogs().SetPolicy(DialogPolicy{Dismiss: true})
	defer p.Dialogs().SetPolicy(old)
	d = clickDialog(t, p, "#confirm")
	if len(d) != 1 || d[0].Action != "dismissed" || js(t, p, "window.confirmed") != "false" {
		t.Fatalf("dismiss: %+v confirmed=%s", d, js(t, p, "window.confirmed"))
	}
}

func TestDialogPrompt(t *testing.T) {
	p, _ := openFixture(t, "dialogs.html")
	d := clickDialog(t, p, "#prompt")
	if len(d) != 1 || d[0].Default != "nobody" || js(t, p, "window.answer") != `"nobody"` {
		t.Fatalf("default answer: %+v answer=%s", d, js(t, p, "window.answer"))
	}
	p.Dialogs().SetPolicy(DialogPolicy{PromptText: "Ada Lovelace"})
	d = clickDialog(t, p, "#prompt")
	if len(d) != 1 || d[0].Type != "prompt" || d[0].Message != "Your name?" || d[0].PromptText != "Ada Lovelace" || js(t, p, "window.answer") != `"Ada Lovelace"` {
		t.Fatalf("promptText: %+v answer=%s", d, js(t, p, "window.answer"))
	}
	p.Dialogs().SetPolicy(DialogPolicy{Dismiss: true})
	clickDialog(t, p, "#prompt")
	if got := js(t, p, "window.answer"); got != "null" {
		t.Fatalf("dismissed prompt returned %s", got)
	}
}

func TestDialogBeforeUnloadDoesNotHang(t *testing.T) {
	p, base := openFixture(t, "dialogs.html")
	// The click also gives the page the user activation Chromium requires
	// before it shows a beforeunload dialog.
	click(t, p, Target{Selector: "#guard"}, ClickOptions{})
	mark := p.Dialogs().Mark()
	res := click(t, p, Target{Selector: "#leave"}, ClickOptions{})
	d := p.Dialogs().Since(mark)
	if !res.Navigated || len(d) != 1 || d[0].Type != "beforeunload" || d[0].Action != "accepted" {
		t.Fatalf("link away from a guarded page: %+v dialogs %+v", res, d)
	}
	if got := js(t, p, "document.title"); got != `"Other page"` {
		t.Fatalf("title = %s", got)
	}
	// A navigation by the agent (Page.navigate) away from a guarded page.
	if _, err := p.Navigate(testCtx(t), base+"act/dialogs.html", WaitLoad); err != nil {
		t.Fatal(err)
	}
	click(t, p, Target{Selector: "#guard"}, ClickOptions{})
	mark = p.Dialogs().Mark()
	if _, err := p.Navigate(testCtx(t), base+"act/other.html", WaitLoad); err != nil {
		t.Fatalf("navigate away from a guarded page: %v", err)
	}
	if d := p.Dialogs().Since(mark); len(d) != 1 || d[0].Type != "beforeunload" {
		t.Fatalf("goto away from a guarded page: dialogs %+v", d)
	}
	if got := js(t, p, "document.title"); got != `"Other page"` {
		t.Fatalf("title after goto = %s", got)
	}
}

func TestDialogAlertOnLoadDoesNotHang(t *testing.T) {
	p := loadHTML(t, `<!doctype html><title>Greeting</title><script>alert('Welcome!'); window.greeted = true;</script><p>hi</p>`)
	if got := js(t, p, "[document.title, window.greeted]"); got != `["Greeting",true]` {
		t.Fatalf("page = %s", got)
	}
	d := p.Dialogs().Since(0)
	if len(d) != 1 || d[0].Type != "alert" || d[0].Message != "Welcome!" {
		t.Fatalf("dialogs = %+v", d)
	}
}
