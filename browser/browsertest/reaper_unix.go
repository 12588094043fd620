//go:build unix

package browsertest

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// reapAfter starts a watcher, in its own session, that kills every Chrome
// whose profile is under dir and removes dir once this test binary has
// exited, however it exited: a panic or `go test -timeout` ends the binary
// before Main stops the Chromes it and the cdp-skill processes it ran
// launched, and each leaked Chrome then loads the machine for the next
// runs. Best effort: without a shell it does nothing.
func reapAfter(dir string) {
	const script = `while kill -0 "$1" 2>/dev/null; do sleep 2; done; pkill -9 -f -- "--user-data-dir=$2/"; rm -rf "$2"`
	cmd := exec.Command("/bin/sh", "-c", script, "cdp-skill-test-reaper", strconv.Itoa(os.Getpid()), dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if cmd.Start() == nil {
		cmd.Process.Release()
	}
}
