package runtime

import (
	"github.com/cdp-skill/cdp-skill/browser"
)

// lostTabWarning says why the command's answer has no page state when its
// tab closed or its page crashed during the command, after its steps ran
// (a click that made the page close its own tab, a tab closed by someone
// else while a step waited). "" when neither, or when a step failed on it
// already and said so.
func lostTabWarning(p *browser.Page, out *Output) string {
	if out.Error != nil || len(out.Steps) > 0 && out.Steps[len(out.Steps)-1].Status == StatusError {
		return ""
	}
	tab := "the tab"
	if out.Tab != "" {
		tab = "tab " + out.Tab
	}
	switch {
	case p.TabClosed():
		return tab + " closed during this command (by the page, the user or another agent), after its steps ran: its refs are gone; run listTabs, then continue in an open tab or openTab a new one"
	case p.Session().Crashed():
		return "the page of " + tab + " crashed during this command (its renderer process died), after its steps ran: " + browser.CrashHint
	}
	return ""
}
