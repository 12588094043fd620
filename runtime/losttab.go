package runtime

import (
	"context"
	"strings"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/browser/suggest"
)

// noteLostTab adds to an answer without page state why, when its tab
// closed or its page crashed (lostTabWarning), and forgets the alias of a
// tab that closed: it would only name a tab that is gone.
func (h *host) noteLostTab(ctx context.Context, p *browser.Page, out *Output) {
	if w := lostTabWarning(p, out, h.syntax()); w != "" {
		out.Warnings = append(out.Warnings, w)
	}
	if alias := h.env.Tab().Alias; p.TabClosed() && alias != "" {
		h.env.Registry.Remove(ctx, alias)
	}
}

// lostTabWarning says why the command's answer has no page state when its
// tab closed or its page crashed (a click that made the page close its
// own tab, a tab closed by someone else or a renderer that died while a
// step waited). "" when neither, or when an error of the answer says so
// already.
func lostTabWarning(p *browser.Page, out *Output, syntax suggest.Syntax) string {
	tab := "the tab"
	if out.Tab != "" {
		tab = "tab " + out.Tab
	}
	switch {
	case p.TabClosed():
		if saysSo(out, func(text, _ string) bool { return strings.Contains(text, browser.TabClosedText) }) {
			return ""
		}
		return tab + " closed during this command (by the page, the user or another agent): its alias and refs are gone; " +
			suggest.New("run %s, then continue in an open tab or open a new one with %s", browser.ListTabs, browser.OpenTab).Render(syntax)
	case p.Session().Crashed():
		if saysSo(out, func(_, typ string) bool { return typ == string(browser.KindPageCrashed) }) {
			return ""
		}
		return "the page of " + tab + " has crashed (its renderer process died): " + browser.CrashHint.Render(syntax)
	}
	return ""
}

// saysSo reports whether an error of out (the command's, a step's or the
// program's) is one that said, by its text and error type.
func saysSo(out *Output, said func(text, errorType string) bool) bool {
	if out.Error != nil && said(out.Error.Message, out.Error.ErrorType) {
		return true
	}
	for _, s := range out.Steps {
		if s.Error != "" && said(s.Error, s.ErrorType) {
			return true
		}
	}
	for _, e := range out.Errors {
		if said(e.Error, e.ErrorType) {
			return true
		}
	}
	return false
}
