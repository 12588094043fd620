//go:build unix

package cmd

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// TestRecipeFIFOIsRefused (issue 31, item 7): a named pipe given as the
// recipe file (to run or check), or loaded by a recipe, is refused at once
// as not a regular file, instead of blocking in open() until something
// writes to it.
func TestRecipeFIFOIsRefused(t *testing.T) {
	c := browsertest.Require(t)
	dir := t.TempDir()
	for _, name := range []string{"pipe.star", "mod.star"} {
		if err := syscall.Mkfifo(filepath.Join(dir, name), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "loads.star"), []byte("load(\"mod.star\", \"x\")\nresult = x\n"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "pipe.star", "--timeout", "5s"}, "pipe.star is a named pipe (FIFO)"},
		{[]string{"check", "pipe.star"}, "pipe.star is a named pipe (FIFO)"},
		{[]string{"run", "loads.star", "--timeout", "5s"}, "mod.star is a named pipe (FIFO)"},
	} {
		bin := binary(t)
		// A hang detector: nothing ever writes to the pipes.
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		cmd := exec.CommandContext(ctx, bin, tc.args...)
		cmd.Env = append(os.Environ(), EnvPort+"="+strconv.Itoa(c.Port), EnvHeadless+"=1")
		cmd.Dir = dir
		r := runProcess(t, cmd)
		hung := ctx.Err() != nil
		cancel()
		if hung {
			t.Fatalf("%v blocked on the named pipe", tc.args)
		}
		mustAnswerJSON(t, strings.Join(tc.args, " "), r)
		if !strings.Contains(string(r.stdout), tc.want) || !strings.Contains(string(r.stdout), "not a regular file") {
			t.Errorf("%v: exit %d %.400s", tc.args, r.code, r.stdout)
		}
	}
}
