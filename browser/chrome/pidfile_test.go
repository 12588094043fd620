//go:build unix

package chrome

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
)

// TestForgedPidFileStopsNothing (issue 31, item 14): a chrome-<port>.json
// that names the Chrome of another port (its pid, port and profile) does
// not make `chrome stop --port` end that process; the record of the
// port's own process still works.
func TestForgedPidFileStopsNothing(t *testing.T) {
	const other, forged = 39667, 39668
	// A process whose command line is that of the Chrome on port other.
	cmd := exec.Command("/bin/sh")
	cmd.Args = []string{"/bin/sh", "-c", "sleep 60; :", "--remote-debugging-port=" + strconv.Itoa(other), "--user-data-dir=" + ProfileDir(other)}
	Detach(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	write := func(port int, rec Process) {
		data, _ := json.Marshal(rec)
		p, err := pidFile(port)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	rec := Process{PID: cmd.Process.Pid, Port: other, UserDataDir: ProfileDir(other)}
	write(forged, rec)
	if stopped, err := Stop(context.Background(), forged); stopped || err != nil {
		t.Fatalf("stop --port %d with a forged record: stopped=%v err=%v", forged, stopped, err)
	}
	select {
	case <-exited:
		t.Fatal("the Chrome of another port was killed through a forged record")
	default:
	}
	// The port's own record stops it.
	write(other, rec)
	if stopped, err := Stop(context.Background(), other); !stopped || err != nil {
		t.Fatalf("stop --port %d with its own record: stopped=%v err=%v", other, stopped, err)
	}
	<-exited
}
