package cmd

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

func TestMain(m *testing.M) { browsertest.Main(m) }

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// binary builds cdp-skill once for the test binary, static as the Makefile
// builds it (CGO_ENABLED=0).
func binary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "cdp-skill-bin-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "cdp-skill")
		build := exec.Command("go", "build", "-o", binPath, "../cmd/cdp-skill")
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		out, err := build.CombinedOutput()
		if err != nil {
			buildErr = err
			t.Logf("%s", out)
		}
	})
	if buildErr != nil {
		t.Fatalf("build: %v", buildErr)
	}
	return binPath
}

// result is one process run.
type result struct {
	code   int
	stdout []byte
	stderr []byte
	out    map[string]any
}

// cli runs the binary against the test Chromium. stdin may be nil.
func cli(t testing.TB, dir string, stdin *os.File, args ...string) result {
	t.Helper()
	c := browsertest.Require(t)
	return runBinary(t, append(os.Environ(), EnvPort+"="+strconv.Itoa(c.Port), EnvHeadless+"=1"), dir, stdin, args...)
}

// runBinary runs the binary with exactly env in dir. stdin may be nil.
func runBinary(t testing.TB, env []string, dir string, stdin *os.File, args ...string) result {
	t.Helper()
	cmd := exec.Command(binary(t), args...)
	cmd.Env = env
	cmd.Dir = dir
	if stdin != nil {
		cmd.Stdin = stdin
	}
	return runProcess(t, cmd)
}

// runProcess runs cmd and decodes its JSON answer.
func runProcess(t testing.TB, cmd *exec.Cmd) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := result{stdout: stdout.Bytes(), stderr: stderr.Bytes()}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run: %v", err)
	}
	json.Unmarshal(r.stdout, &r.out)
	return r
}

func (r result) field(path ...string) any {
	var v any = r.out
	for _, p := range path {
		switch x := v.(type) {
		case map[string]any:
			v = x[p]
		case []any:
			i, _ := strconv.Atoi(p)
			if i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}
