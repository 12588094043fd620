package runtime

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/cdp-skill/cdp-skill/browser"
)

// Hostile pages and a failing renderer: every command answers within its
// timeout plus the grace, with a typed error that says how to recover, and
// the other tabs keep working.

// answerBound is the longest a command with the given step timeout may take
// (the watchdog's grace plus slack for a loaded machine).
func answerBound(timeout time.Duration) time.Duration {
	return timeout + watchdogGrace + 5*time.Second
}

func timedJSON(t *testing.T, input string) (*Output, time.Duration) {
	t.Helper()
	start := time.Now()
	out := runJSON(t, input)
	return out, time.Since(start)
}

func TestCrashedTabAnswersPageCrashedAndReloadRecovers(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[{"openTab":"`+base+`one.html"},{"pageFunction":"window.mark = 'before'"}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	tab := out.Tab

	crash, took := timedJSON(t, `{"tab":"`+tab+`","timeout":5000,"steps":[{"goto":"chrome://crash"}]}`)
	if crash.OK() || crash.Steps[0].ErrorType != "PageCrashedError" || !strings.Contains(crash.Steps[0].Error, `{"reload":true}`) {
		t.Fatalf("goto chrome://crash: %s", crash.JSON())
	}
	if took > answerBound(5*time.Second) {
		t.Errorf("the crash answered after %s", took)
	}
	// A later command on the crashed tab answers at once, with the recovery.
	next, took := timedJSON(t, `{"tab":"`+tab+`","timeout":5000,"steps":[{"pageFunction":"1"}]}`)
	if next.OK() || next.Steps[0].ErrorType != "PageCrashedError" || !strings.Contains(next.Steps[0].Error, "closeTab") {
		t.Fatalf("command on the crashed tab: %s", next.JSON())
	}
	if took > answerBound(5*time.Second) {
		t.Errorf("the command on the crashed tab answered after %s", took)
	}
	// reload brings the page back (afresh: the old page's state is gone).
	back := runJSON(t, `{"tab":"`+tab+`","timeout":10000,"steps":[{"reload":true},{"pageFunction":"[location.pathname, typeof window.mark, document.title]"}]}`)
	mustOK(t, back)
	if got := jsonString(back.Steps[1].Output); got != `["/one.html","undefined","Page one"]` {
		t.Errorf("after reload the page reads %s", got)
	}
}

func TestHungRendererAnswersInTimeAndOtherTabsWork(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[{"openTab":"`+base+`hung.html"}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	hung := out.Tab

	click, took := timedJSON(t, `{"tab":"`+hung+`","timeout":2000,"steps":[{"click":"#freeze"}]}`)
	if click.OK() || click.Steps[0].ErrorType != "PageUnresponsiveError" || !strings.Contains(click.Steps[0].Error, "closeTab") {
		t.Fatalf("click into an endless loop: %s", click.JSON())
	}
	if took > answerBound(2*time.Second) {
		t.Errorf("the click answered after %s", took)
	}
	// Another tab works while that renderer spins.
	other := runJSON(t, `{"timeout":10000,"steps":[{"openTab":"`+base+`two.html"},{"wait":"#late"},{"pageFunction":"document.querySelector('#late').textContent"}]}`)
	closeTabAfter(t, other)
	mustOK(t, other)
	if got := jsonString(other.Steps[2].Output); got != `"arrived"` {
		t.Errorf("the other tab reads %s", got)
	}
	// The hung tab answers fast, saying so.
	again, took := timedJSON(t, `{"tab":"`+hung+`","timeout":2000,"steps":[{"pageFunction":"window.clicks"}]}`)
	if again.OK() || again.Steps[0].ErrorType != "PageUnresponsiveError" {
		t.Fatalf("next command on the hung tab: %s", again.JSON())
	}
	if took > answerBound(2*time.Second) {
		t.Errorf("the next command answered after %s", took)
	}
}

// neverAnswering is a loopback server that accepts connections and never
// sends a byte.
func neverAnswering(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns = append(conns, c)
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		<-done
		for _, c := range conns {
			c.Close()
		}
	})
	return "http://" + ln.Addr().String() + "/slow"
}

func TestGotoNeverAnsweringServerStopsTheLoad(t *testing.T) {
	base := pagesURL(t)
	slow := neverAnswering(t)
	out := runJSON(t, `{"steps":[{"openTab":"`+base+`one.html"},{"pageFunction":"window.mark = 7"}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)

	nav, took := timedJSON(t, `{"tab":"`+out.Tab+`","timeout":3000,"steps":[{"goto":"`+slow+`"}]}`)
	if nav.OK() || nav.Steps[0].ErrorType != "TimeoutError" || !strings.Contains(nav.Steps[0].Error, "load was stopped") {
		t.Fatalf("goto a server that never answers: %s", nav.JSON())
	}
	if took > answerBound(3*time.Second) {
		t.Errorf("goto answered after %s", took)
	}
	// The tab is usable at once, on the page it showed, state intact.
	next, took := timedJSON(t, `{"tab":"`+out.Tab+`","timeout":3000,"steps":[{"pageFunction":"[location.pathname, window.mark]"}]}`)
	mustOK(t, next)
	if got := jsonString(next.Steps[0].Output); got != `["/one.html",7]` {
		t.Errorf("after the stopped load the page reads %s", got)
	}
	if took > answerBound(3*time.Second) {
		t.Errorf("the next command answered after %s", took)
	}
}

func TestDialogStormIsThrottledAndSummed(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"timeout":30000,"steps":[{"openTab":"`+base+`storm.html"},{"click":"#storm"},{"poll":"window.finished"},{"pageFunction":"[window.alerts, window.asked, window.confirmed]"}]}`)
	closeTabAfter(t, out)
	mustOK(t, out)
	// Every dialog was answered (the script ran to its end), the answer
	// lists at most stormLimit of them plus one summary, and the confirms
	// of the storm were dismissed.
	if got := jsonString(out.Steps[3].Output); got != `[40,20,0]` {
		t.Errorf("the page counted %s", got)
	}
	var listed int
	var summary string
	for _, s := range out.Steps {
		ds, _ := s.Dialogs.([]browser.Dialog)
		listed += len(ds)
		for _, d := range ds {
			if d.Type == "storm" {
				summary = d.Message
			}
		}
	}
	if listed != 20 || !strings.Contains(summary, "the last 41 ") {
		t.Errorf("%d dialogs listed, summary %q", listed, summary)
	}
	// Chrome is fine: another tab works.
	other := runJSON(t, `{"steps":[{"openTab":"`+base+`one.html"},{"pageFunction":"document.title"}]}`)
	closeTabAfter(t, other)
	mustOK(t, other)
}

func TestWatchdogAnswersWhenAPhaseNeverEnds(t *testing.T) {
	w := newWatchdog()
	w.arm(10*time.Millisecond, "step 2 (click)", 2, "click")
	never := make(chan *Output)
	start := time.Now()
	if out := w.wait(context.Background(), never); out != nil {
		t.Fatalf("wait returned %s", out.JSON())
	}
	if took := time.Since(start); took < watchdogGrace {
		t.Errorf("the watchdog fired after %s, before the grace", took)
	}
	out := w.output("t9")
	if out.OK() || len(out.Errors) != 1 || out.Errors[0].Step != 2 || out.Errors[0].ErrorType != "TimeoutError" || out.Tab != "t9" {
		t.Errorf("watchdog answer: %s", out.JSON())
	}
	// A phase that ends answers normally.
	w.arm(time.Minute, "step 1 (goto)", 1, "goto")
	done := make(chan *Output, 1)
	done <- &Output{Status: StatusOK}
	if out := w.wait(context.Background(), done); out == nil || !out.OK() {
		t.Errorf("a finished command got %v", out)
	}
}
