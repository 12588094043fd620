package runtime

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/browser/suggest"
)

// Every blocking call watches its context, and every phase of a command has
// a deadline: attaching, each step, assembling the answer. The watchdog is
// the backstop for whatever does not honour them (a CDP call Chrome never
// answers on a context that cannot be cancelled, a frozen browser): when a
// phase runs past its deadline plus watchdogGrace, the command answers a
// TimeoutError saying which phase it was, and the stuck work is abandoned.

// watchdogGrace is how long a phase may run past its own deadline (the
// failure diagnostics of a timed-out step take up to 3 s of it).
const watchdogGrace = 5 * time.Second

// attachBudget bounds attaching to the tab: waiting for another process
// that drives the same tab may take up to the tab lock's 60 s.
const attachBudget = 60 * time.Second

// answerBudget bounds assembling the answer (captures of visual steps).
const answerBudget = 10 * time.Second

// watchdog tracks the deadline of the phase that runs.
type watchdog struct {
	mu       sync.Mutex
	deadline time.Time
	phase    string
	step     int
	action   string
	changed  chan struct{}
	// syntax writes the steps of the answer's hint (the program's;
	// JSON when nil).
	syntax suggest.Syntax
}

func newWatchdog() *watchdog { return &watchdog{changed: make(chan struct{}, 1)} }

// arm starts a phase that must end within d (plus the grace).
func (w *watchdog) arm(d time.Duration, phase string, step int, action string) {
	w.mu.Lock()
	w.deadline = time.Now().Add(d + watchdogGrace)
	w.phase, w.step, w.action = phase, step, action
	w.mu.Unlock()
	w.poke()
}

// disarm ends the phase; until the next arm only the program deadline
// applies.
func (w *watchdog) disarm() {
	w.mu.Lock()
	w.deadline = time.Time{}
	w.phase, w.step, w.action = "", 0, ""
	w.mu.Unlock()
	w.poke()
}

func (w *watchdog) poke() {
	select {
	case w.changed <- struct{}{}:
	default:
	}
}

// wait returns the output of done, or nil after the deadline of the
// running phase (or program + grace) passed.
func (w *watchdog) wait(ctx context.Context, done <-chan *Output) *Output {
	for {
		w.mu.Lock()
		dl := w.deadline
		w.mu.Unlock()
		if pdl, ok := ctx.Deadline(); ok && (dl.IsZero() || pdl.Add(watchdogGrace).Before(dl)) {
			dl = pdl.Add(watchdogGrace)
		}
		var fire <-chan time.Time
		stop := func() bool { return false }
		if !dl.IsZero() {
			t := time.NewTimer(time.Until(dl))
			fire, stop = t.C, t.Stop
		}
		select {
		case out := <-done:
			stop()
			return out
		case <-w.changed:
			stop()
		case <-fire:
			// A phase that ends right at its deadline still answers.
			select {
			case out := <-done:
				return out
			case <-time.After(100 * time.Millisecond):
			}
			return nil
		}
	}
}

// output is the answer of a command the watchdog stopped.
func (w *watchdog) output(tab string) *Output {
	w.mu.Lock()
	defer w.mu.Unlock()
	msg := fmt.Sprintf("%s did not finish within its timeout plus %s: Chrome did not answer, so cdp-skill stopped waiting", w.phase, watchdogGrace)
	hint := suggest.New("run %s to check the browser; if the tab stays stuck, close it with %s or restart Chrome with `cdp-skill chrome stop`",
		browser.ListTabs, browser.CloseTab).Render(w.syntax)
	if w.phase == "" {
		// No step or attach was running: the program's own code was.
		msg = fmt.Sprintf("the program did not finish within its timeout plus %s: its Starlark code was still computing (no browser call was waiting), so cdp-skill stopped it", watchdogGrace)
		hint = "make the recipe do less work per command (smaller values, fewer iterations), or raise its timeout"
	}
	out := &Output{Status: StatusError, Tab: tab}
	if w.step > 0 {
		out.Errors = []ErrorEntry{{Step: w.step, Action: w.action, Type: TypeExecution,
			ErrorType: string(browser.KindTimeout), Error: msg + ". " + hint}}
		return out
	}
	out.Error = &TopError{Type: TypeConnection, Message: msg + ". " + hint}
	return out
}
