//go:build linux

package cmd

import (
	"net/http"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// TestCommandTimeoutBoundsWaitOnStoppedResident: while the resident
// process that holds a tab (mid-command) is stopped, a command on the tab
// with "timeout":2000 answers about its timeout later, not a minute later:
// a CONNECTION error naming the stopped process and how to resume it. The
// tab is not acted on, and once resumed the first command finishes.
func TestCommandTimeoutBoundsWaitOnStoppedResident(t *testing.T) {
	env := residentTestEnv(t)
	var hits atomic.Int64
	page := strings.Replace(residentCounterPage, `onclick="`, `onclick="fetch('/hit'); `, 1)
	base := browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hit" {
			hits.Add(1)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(page))
	}))
	tab := openResidentTab(t, env, base+"counter.html")
	res := residentOf(t, env)
	long := make(chan result, 1)
	go func() {
		long <- runEnv(t, env, t.TempDir(), `{"tab":"`+tab+`","steps":[{"click":"#add"},{"wait":1500}]}`)
	}()
	deadline := time.Now().Add(20 * time.Second)
	for hits.Load() < 1 { // the long command holds the tab: its click ran
		if time.Now().After(deadline) {
			t.Fatal("the long command's click never ran")
		}
		time.Sleep(10 * time.Millisecond)
	}
	syscall.Kill(res.PID, syscall.SIGSTOP)
	resumed := false
	resume := func() {
		if !resumed {
			syscall.Kill(res.PID, syscall.SIGCONT)
			resumed = true
		}
	}
	defer resume()

	start := time.Now()
	r := runEnv(t, env, t.TempDir(), `{"tab":"`+tab+`","timeout":2000,"steps":[{"click":"#add"}]}`)
	took := time.Since(start)
	t.Logf("a timeout:2000 command on the tab of a stopped resident answered in %v", took.Round(time.Millisecond))
	msg, _ := r.field("error", "message").(string)
	if r.code != 1 || r.field("error", "type") != "CONNECTION" || !strings.Contains(msg, "stopped") || !strings.Contains(msg, "kill -CONT") {
		t.Fatalf("answer on a tab held by a stopped resident: %s", r.stdout)
	}
	if took > 10*time.Second { // it took 63 s when the lock ignored the timeout
		t.Fatalf("a timeout:2000 command took %v", took)
	}
	resume()
	select {
	case lr := <-long:
		if lr.code != 0 {
			t.Fatalf("the resumed command: %s", lr.stdout)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the resumed command never answered")
	}
	if got := clicksOf(t, env, tab); got != "1" {
		t.Fatalf("the handler ran %s times, want 1 (the busy command must not click)", got)
	}
}
