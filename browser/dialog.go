package browser

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
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
	// BetweenCommands marks a dialog that opened while no command was
	// connected (answered by the dialog keeper by the default policy).
	BetweenCommands bool `json:"betweenCommands,omitempty"`
}

// Dialogs answers a tab's JavaScript dialogs as they open, by a policy,
// and logs them. Reach it by Page.Dialogs.
type Dialogs struct {
	sess *Session
	// parked is the page's: no program holds it (see Page.Park).
	parked *atomic.Bool

	mu     sync.Mutex
	policy DialogPolicy
	seen   []Dialog
	// recent are the opening times of the last dialogs, to spot a storm.
	recent []time.Time
	// stormed counts the dialogs answered since the storm began (0 = no
	// storm); they are summed up in one entry instead of listed.
	stormed    int
	lastOpened time.Time
	// taken is closed when a program takes the parked page back
	// (Page.Resume): a dialog left to the keeper is then answered here at
	// once. Guarded by mu; nil until a dialog waits on it.
	taken chan struct{}
	// gone is closed when Chrome detaches the session (its tab closed):
	// a storm's paced answer is not waited for then.
	gone chan struct{}
}

// A page that opens dialog after dialog (a loop of alert()) would keep
// the tab busy answering for ever and flood Chrome and the answer. After
// stormLimit dialogs within stormWindow, further dialogs are answered no
// faster than one per stormPace (confirm and prompt dismissed, whatever the
// policy) and the answer reports one summary entry with their count.
const (
	stormLimit  = 20
	stormWindow = 5 * time.Second
	stormPace   = 100 * time.Millisecond
)

// handle runs for the life of the session: every dialog is answered at
// once by the current policy. onClose registers the unsubscribe.
func (d *Dialogs) handle(onClose func(...func())) {
	events, stop := d.sess.Subscribe(page.JavascriptDialogOpening.Method)
	onClose(stop)
	gone := make(chan struct{})
	var once sync.Once
	onClose(d.sess.OnDetach(func() { once.Do(func() { close(gone) }) }))
	d.mu.Lock()
	d.gone = gone
	d.mu.Unlock()
	go func() {
		defer stop()
		for raw := range events {
			var ev page.EventJavascriptDialogOpening
			if decode(raw, &ev) != nil {
				continue
			}
			d.answer(ev)
		}
	}()
}

// keeperGrace is how long a parked page leaves a dialog to the dialog
// keeper before answering it itself.
var keeperGrace = 2 * time.Second

// answer answers one dialog by the policy, or as part of a storm. A
// parked page (no program holds it) leaves the dialog to the dialog keeper,
// which records it for whichever command comes next; it answers only when
// the dialog is still open after keeperGrace (no keeper runs) or a program
// took the page meanwhile.
func (d *Dialogs) answer(ev page.EventJavascriptDialogOpening) {
	if d.parked.Load() && d.leftToKeeper() {
		return
	}
	d.mu.Lock()
	pol := d.policy
	storm := d.noteOpening(time.Now())
	d.mu.Unlock()
	dl := Dialog{Type: string(ev.Type), Message: ev.Message, Default: ev.DefaultPrompt, Action: "accepted", BetweenCommands: d.parked.Load()}
	params := page.HandleJavaScriptDialogParams{Accept: !pol.Dismiss}
	switch {
	case storm:
		params = page.HandleJavaScriptDialogParams{Accept: false}
		if ev.Type == page.DialogTypeAlert || ev.Type == page.DialogTypeBeforeunload {
			params.Accept = true
		}
	case pol.Dismiss:
		dl.Action = "dismissed"
	case ev.Type == page.DialogTypePrompt:
		params.PromptText = pol.PromptText
		if params.PromptText == "" {
			params.PromptText = ev.DefaultPrompt
		}
		dl.PromptText = params.PromptText
	}
	if dl.BetweenCommands {
		// No program waits on it: answer first, and record it only if
		// this answer closed it (the keeper may have, a moment ago).
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err := cdp.Call(ctx, d.sess, page.HandleJavaScriptDialog, params)
		cancel()
		if err == nil {
			d.mu.Lock()
			d.record(dl, storm)
			d.mu.Unlock()
		}
		return
	}
	// Record before answering: the action blocked by the dialog returns
	// right after the answer and must see it.
	d.mu.Lock()
	first := d.record(dl, storm)
	d.mu.Unlock()
	if storm && !first {
		d.pace()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	cdp.Call(ctx, d.sess, page.HandleJavaScriptDialog, params)
	cancel()
}

// leftToKeeper waits, on a parked page, until the open dialog is closed by
// someone else (true) or keeperGrace passes or a program resumes the page
// (false: answer it here).
func (d *Dialogs) leftToKeeper() bool {
	closed, stop := d.sess.Subscribe(page.JavascriptDialogClosed.Method)
	defer stop()
	taken := d.takenBack()
	if !d.parked.Load() {
		return false
	}
	deadline := time.NewTimer(keeperGrace)
	defer deadline.Stop()
	select {
	case _, ok := <-closed:
		return ok
	case <-deadline.C:
		return false
	case <-taken:
		return false
	}
}

// takenBack is closed when a program next takes the page back (resumed).
func (d *Dialogs) takenBack() <-chan struct{} {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.taken == nil {
		d.taken = make(chan struct{})
	}
	return d.taken
}

// resumed tells a dialog left to the keeper that a program took the page
// back (after parked is cleared), so it is answered here now.
func (d *Dialogs) resumed() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.taken != nil {
		close(d.taken)
		d.taken = nil
	}
}

// pace holds a storm's answer for stormPace, or until the session ends.
func (d *Dialogs) pace() {
	d.mu.Lock()
	gone := d.gone
	d.mu.Unlock()
	t := time.NewTimer(stormPace)
	defer t.Stop()
	select {
	case <-t.C:
	case <-gone:
	}
}

// noteOpening records a dialog's opening and reports whether the page is
// storming. d.mu is held.
func (d *Dialogs) noteOpening(now time.Time) bool {
	last := d.lastOpened
	d.lastOpened = now
	if d.stormed > 0 && now.Sub(last) < stormWindow {
		return true
	}
	d.stormed = 0
	d.recent = append(d.recent, now)
	if len(d.recent) > stormLimit {
		d.recent = d.recent[len(d.recent)-stormLimit:]
	}
	return len(d.recent) == stormLimit && now.Sub(d.recent[0]) < stormWindow
}

// record appends a dialog to the log; during a storm one summary entry
// counts them. It reports whether the storm just began. d.mu is held.
func (d *Dialogs) record(dl Dialog, storm bool) bool {
	if !storm {
		d.seen = append(d.seen, dl)
		return false
	}
	d.stormed++
	summary := Dialog{Type: "storm", Action: "throttled",
		Message: fmt.Sprintf("the page kept opening dialogs (%d within %s): the last %d were answered unlisted, at most %d a second (confirm and prompt dismissed)", stormLimit, stormWindow, d.stormed, time.Second/stormPace)}
	if d.stormed == 1 {
		d.seen = append(d.seen, summary)
		return true
	}
	for i := len(d.seen) - 1; i >= 0; i-- {
		if d.seen[i].Type == "storm" {
			d.seen[i] = summary
			break
		}
	}
	return false
}

// SetPolicy sets how later dialogs are answered and returns the previous
// policy.
func (d *Dialogs) SetPolicy(pol DialogPolicy) DialogPolicy {
	d.mu.Lock()
	defer d.mu.Unlock()
	old := d.policy
	d.policy = pol
	return old
}

// Mark returns a position in the dialog log.
func (d *Dialogs) Mark() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.seen)
}

// Since returns the dialogs answered after mark.
func (d *Dialogs) Since(mark int) []Dialog {
	d.mu.Lock()
	defer d.mu.Unlock()
	if mark >= len(d.seen) {
		return nil
	}
	return append([]Dialog(nil), d.seen[mark:]...)
}
