//go:build !unix

package cmd

import (
	"fmt"
	"os"
	"os/exec"
)

var lookPath = exec.LookPath

// execProgram runs bin with the process's streams and exits with its code
// (there is no exec(2) here).
func execProgram(bin string, argv, env []string) error {
	c := exec.Command(bin, argv[1:]...)
	c.Env, c.Stdin, c.Stdout, c.Stderr = env, os.Stdin, os.Stdout, os.Stderr
	if err := c.Run(); err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			os.Exit(ee.ExitCode())
		}
		return fmt.Errorf("run %s: %w", bin, err)
	}
	os.Exit(0)
	return nil
}
