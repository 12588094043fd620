//go:build unix

package cmd

import (
	"fmt"
	"os/exec"
	"syscall"
)

var lookPath = exec.LookPath

// execProgram replaces the process with bin, so the MCP client talks to
// (and signals) the server itself.
func execProgram(bin string, argv, env []string) error {
	if err := syscall.Exec(bin, argv, env); err != nil {
		return fmt.Errorf("run %s: %w", bin, err)
	}
	return nil
}
