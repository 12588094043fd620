//go:build unix

package chrome

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// detach starts Chrome in its own session so it outlives this process and
// does not receive its signals.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}

// isOurChrome checks that pid still runs and, where /proc exists, that its
// command line carries our port and profile dir, so a recycled pid is never
// killed.
func isOurChrome(p *Process) bool {
	if syscall.Kill(p.PID, 0) != nil {
		return false
	}
	data, err := os.ReadFile("/proc/" + strconv.Itoa(p.PID) + "/cmdline")
	if err != nil {
		return !procExists()
	}
	cmdline := strings.ReplaceAll(string(data), "\x00", " ")
	return strings.Contains(cmdline, "--remote-debugging-port="+strconv.Itoa(p.Port)) &&
		strings.Contains(cmdline, p.UserDataDir)
}

func procExists() bool {
	_, err := os.Stat("/proc/self/cmdline")
	return err == nil
}

// terminate sends SIGTERM to the process group, then SIGKILL after 5 s.
func terminate(ctx context.Context, pid int) error {
	target := -pid // the whole session/group started by detach
	if err := syscall.Kill(target, syscall.SIGTERM); err != nil {
		if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
			return err
		}
		target = pid
	}
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if syscall.Kill(pid, 0) != nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	return syscall.Kill(target, syscall.SIGKILL)
}
