//go:build unix

package chrome

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
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
	args := strings.Split(string(data), "\x00")
	return slices.Contains(args, "--remote-debugging-port="+strconv.Itoa(p.Port)) &&
		slices.Contains(args, "--user-data-dir="+p.UserDataDir)
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

// ownsPort reports whether process pid holds the listening socket of the
// loopback port, read from /proc: the endpoint that answers is the Chrome
// just launched, not another process that held the port (one frozen by
// SIGSTOP and resumed). Without /proc it cannot tell and trusts the answer.
func ownsPort(pid, port int) bool {
	inodes := listeningInodes(port)
	if inodes == nil {
		return !procExists()
	}
	dir := "/proc/" + strconv.Itoa(pid) + "/fd"
	fds, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, fd := range fds {
		link, err := os.Readlink(dir + "/" + fd.Name())
		if err == nil && strings.HasPrefix(link, "socket:[") && inodes[strings.TrimSuffix(strings.TrimPrefix(link, "socket:["), "]")] {
			return true
		}
	}
	return false
}

// listeningInodes returns the socket inodes listening on port (from
// /proc/net/tcp and tcp6), nil when /proc cannot be read.
func listeningInodes(port int) map[string]bool {
	var inodes map[string]bool
	want := fmt.Sprintf(":%04X", port)
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		if inodes == nil {
			inodes = map[string]bool{}
		}
		for _, line := range strings.Split(string(data), "\n")[1:] {
			fields := strings.Fields(line)
			// sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
			if len(fields) > 9 && strings.HasSuffix(fields[1], want) && fields[3] == "0A" {
				inodes[fields[9]] = true
			}
		}
	}
	return inodes
}
