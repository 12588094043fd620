package browser

import (
	"context"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
)

// DialogPolicy says how JavaScript dialogs (alert, confirm, prompt,
// beforeunload) are answered. The default accepts them: the agent acted on
// purpose, and a page must never hang on a dialog.
type DialogPolicy struct {
	Dismiss    bool
	PromptText string
}

// Dialog is a dialog that opened and how it was answered.
type Dialog struct {
	Type    string `json:"type"`
	Message string `json:"message"`
	// Action is accepted or dismissed.
	Action     string `json:"action"`
	PromptText string `json:"promptText,omitempty"`
	// Default is the prompt's default value.
	Default string `json:"defaultPrompt,omitempty"`
}

// dialogs answers dialogs as they open and remembers them.
type dialogs struct {
	mu     sync.Mutex
	policy DialogPolicy
	seen   []Dialog
}

// handleDialogs runs for the life of the session: every dialog is answered
// at once by the current policy.
func (p *Page) handleDialogs() {
	events, stop := p.sess.Subscribe(page.JavascriptDialogOpening.Method)
	go func() {
		defer stop()
		for raw := range events {
			var ev page.EventJavascriptDialogOpening
			if decode(raw, &ev) != nil {
				continue
			}
			p.dlg.mu.Lock()
			pol := p.dlg.policy
			p.dlg.mu.Unlock()
			d := Dialog{Type: string(ev.Type), Message: ev.Message, Default: ev.DefaultPrompt, Action: "accepted"}
			params := page.HandleJavaScriptDialogParams{Accept: !pol.Dismiss}
			if pol.Dismiss {
				d.Action = "dismissed"
			} else if ev.Type == page.DialogTypePrompt {
				params.PromptText = pol.PromptText
				if params.PromptText == "" {
					params.PromptText = ev.DefaultPrompt
				}
				d.PromptText = params.PromptText
			}
			// Record before answering: the action blocked by the dialog
			// returns right after the answer and must see it.
			p.dlg.mu.Lock()
			p.dlg.seen = append(p.dlg.seen, d)
			p.dlg.mu.Unlock()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			cdp.Call(ctx, p.sess, page.HandleJavaScriptDialog, params)
			cancel()
		}
	}()
}

// SetDialogPolicy sets how later dialogs are answered and returns the
// previous policy.
func (p *Page) SetDialogPolicy(pol DialogPolicy) DialogPolicy {
	p.dlg.mu.Lock()
	defer p.dlg.mu.Unlock()
	old := p.dlg.policy
	p.dlg.policy = pol
	return old
}

// DialogMark returns a position in the dialog log.
func (p *Page) DialogMark() int {
	p.dlg.mu.Lock()
	defer p.dlg.mu.Unlock()
	return len(p.dlg.seen)
}

// DialogsSince returns the dialogs answered after mark.
func (p *Page) DialogsSince(mark int) []Dialog {
	p.dlg.mu.Lock()
	defer p.dlg.mu.Unlock()
	if mark >= len(p.dlg.seen) {
		return nil
	}
	return append([]Dialog(nil), p.dlg.seen[mark:]...)
}
