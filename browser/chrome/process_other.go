//go:build !unix

package chrome

import (
	"context"
	"os"
	"os/exec"
)

func detach(cmd *exec.Cmd) {}

func isOurChrome(p *Process) bool {
	_, err := os.FindProcess(p.PID)
	return err == nil
}

func terminate(ctx context.Context, pid int) error {
	proc, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return proc.Kill()
}

// ownsPort cannot tell here which process holds the port and trusts the
// endpoint that answered.
func ownsPort(pid, port int) bool { return true }
