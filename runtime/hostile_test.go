package runtime

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/browser/browsertest"
	"github.com/cdp-skill/cdp-skill/browser/chrome"
	"github.com/cdp-skill/cdp-skill/browser/state"
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
	t.Setenv(browser.AllowSchemesEnv, "chrome") // chrome://crash is refused by default
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
	withSiteRecipes(t)
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[{"openTab":"`+base+`hung.html"}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	hung := out.Tab

	click, took := timedJSON(t, `{"tab":"`+hung+`","timeout":2000,"steps":[{"click":"#freeze"}]}`)
	if click.OK() || click.Steps[0].ErrorType != "PageUnresponsiveError" || !strings.Contains(click.Steps[0].Error, "stopped") {
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
	// The endless handler was stopped: the tab answers again, state kept,
	// and the handler ran once.
	again := runJSON(t, `{"tab":"`+hung+`","timeout":5000,"steps":[{"pageFunction":"window.clicks"}]}`)
	mustOK(t, again)
	if got := jsonString(again.Steps[0].Output); got != "1" {
		t.Errorf("the page counted %s clicks", got)
	}
	// A script that starts looping between commands cannot be stopped by a
	// new session: the next command says so within its timeout.
	arm := runJSON(t, `{"tab":"`+hung+`","capture":"none","steps":[{"pageFunction":"() => { setTimeout(() => { for (;;) {} }, 1000) }"}]}`)
	mustOK(t, arm)
	time.Sleep(2 * time.Second)
	stuck, took := timedJSON(t, `{"tab":"`+hung+`","timeout":2000,"steps":[{"pageFunction":"1"}]}`)
	if stuck.OK() || stuck.Steps[0].ErrorType != "PageUnresponsiveError" || !strings.Contains(stuck.Steps[0].Error, "closeTab") {
		t.Fatalf("command on the looping tab: %s", stuck.JSON())
	}
	if took > answerBound(2*time.Second) {
		t.Errorf("the command on the looping tab answered after %s", took)
	}
}

// withSiteRecipes gives the test a sites directory in which another site
// has recipes: every step then looks up the page's site hooks
// (sites.go), and that lookup must not wait for a blocked page (it held
// each step of a command for 2 s).
func withSiteRecipes(t *testing.T) {
	t.Helper()
	sites := t.TempDir()
	prev := state.SetSitesDir(sites)
	t.Cleanup(func() { state.SetSitesDir(prev) })
	if err := os.WriteFile(filepath.Join(sites, "other.example.star"), []byte("def noop():\n    pass\n"), 0o600); err != nil {
		t.Fatal(err)
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

func TestChromeThatDiedIsReportedWithWhatWasLost(t *testing.T) {
	base := pagesURL(t)
	port, err := browsertest.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	opts := testOptions(t)
	opts.Endpoint = chrome.Endpoint{Port: port}.Normalize()
	t.Cleanup(func() { chrome.Stop(context.Background(), port) })
	run := func(input string) *Output {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		_, out := RunJSON(ctx, []byte(input), opts)
		return out
	}
	// This command launches its own Chrome on the port.
	first := run(`{"steps":[{"openTab":"` + base + `one.html"}]}`)
	mustOK(t, first)
	proc, alive := chrome.Launched(port)
	if !alive {
		t.Fatalf("no Chrome recorded on port %d", port)
	}
	logBefore, err := os.ReadFile(filepath.Join(chrome.ProfileDir(port), "chrome.log"))
	if err != nil {
		t.Fatal(err)
	}
	// Chrome dies (as in a crash): nobody ran `chrome stop`.
	if err := syscall.Kill(-proc.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 100; i++ {
		if _, alive := chrome.Launched(port); !alive {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	// The next command relaunches Chrome and says what was lost.
	next := run(`{"steps":[{"openTab":"` + base + `two.html"}]}`)
	mustOK(t, next)
	if len(next.Warnings) == 0 || !strings.Contains(next.Warnings[0], "BrowserCrashedError") || !strings.Contains(next.Warnings[0], first.Tab) {
		t.Fatalf("the command after the crash: %s", next.JSON())
	}
	// A command on the lost tab gets a typed answer naming the crash.
	lost := run(`{"tab":"` + first.Tab + `","steps":[{"pageFunction":"1"}]}`)
	if lost.OK() || lost.Error == nil || lost.Error.ErrorType != "BrowserCrashedError" || !strings.Contains(lost.Error.Message, "openTab") {
		t.Fatalf("command on the lost tab: %s", lost.JSON())
	}
	// The dead Chrome's log is kept.
	c := chrome.LastCrash(port)
	if c == nil || c.PID != proc.PID || c.Log == "" {
		t.Fatalf("crash record %+v", c)
	}
	kept, err := os.ReadFile(c.Log)
	if err != nil || !bytes.HasPrefix(kept, logBefore) {
		t.Errorf("kept log %s: %v (%d bytes, had %d)", c.Log, err, len(kept), len(logBefore))
	}
}

func TestFrozenChromeIsNeverDuplicated(t *testing.T) {
	base := pagesURL(t)
	port, err := browsertest.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	opts := testOptions(t)
	opts.Endpoint = chrome.Endpoint{Port: port}.Normalize()
	t.Cleanup(func() { chrome.Stop(context.Background(), port) })
	run := func(input string) *Output {
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		_, out := RunJSON(ctx, []byte(input), opts)
		return out
	}
	first := run(`{"steps":[{"openTab":"` + base + `one.html"},{"pageFunction":"window.mark = 3"}]}`)
	mustOK(t, first)
	proc, alive := chrome.Launched(port)
	if !alive {
		t.Fatalf("no Chrome recorded on port %d", port)
	}
	// Chrome freezes: it holds its port and answers nothing.
	if err := syscall.Kill(-proc.PID, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	resumed := false
	resume := func() {
		if !resumed {
			syscall.Kill(-proc.PID, syscall.SIGCONT)
			resumed = true
		}
	}
	t.Cleanup(resume)
	frozen := run(`{"timeout":3000,"steps":[{"openTab":"` + base + `two.html"}]}`)
	if frozen.OK() || !strings.Contains(jsonString(frozen), "frozen") {
		t.Fatalf("command while Chrome is frozen: %s", frozen.JSON())
	}
	if p, _ := chrome.Launched(port); p == nil || p.PID != proc.PID {
		t.Fatalf("the pidfile now names %+v, not the frozen Chrome %d", p, proc.PID)
	}
	// Thawed, the same Chrome serves the tab, its page intact.
	resume()
	back := run(`{"tab":"` + first.Tab + `","steps":[{"pageFunction":"window.mark"}]}`)
	mustOK(t, back)
	if got := jsonString(back.Steps[0].Output); got != "3" {
		t.Errorf("after the thaw the page reads %s", got)
	}
}
