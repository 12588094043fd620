package cmd

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// TestJSONArgsParseAsCobra: every argument list jsonArgs takes is one the
// cobra tree runs as the root (JSON) command, with the same positional
// arguments and flag values; everything else is left to the tree.
func TestJSONArgsParseAsCobra(t *testing.T) {
	t.Setenv(EnvPort, "9333")
	t.Setenv(EnvEndpoint, "")
	t.Setenv(EnvHeadless, "")
	for _, tt := range []struct {
		args []string
		fast bool
	}{
		{[]string{`{"steps":[]}`}, true},
		{nil, true}, // the command on stdin
		{[]string{"--port", "9444", `{"a":1}`}, true},
		{[]string{`{"a":1}`, "--port=0x10"}, true},
		{[]string{"--port", "1", "--port", "2", `{}`}, true},
		{[]string{"--headless", `{"a":1}`}, true},
		{[]string{"--headless=false", "--endpoint", "ws://127.0.0.1:1/x", `{`, `}`}, true},
		{[]string{"--endpoint=http://127.0.0.1:1", "--endpoint", "-x", " \n{}"}, true},
		{[]string{`{}`, "-", ""}, true},
		{[]string{"--headless", "--port", "-1"}, true},
		{[]string{"--headless", "false", `{}`}, false},
		{[]string{"-", `{}`}, false},
		{[]string{""}, false},
		{[]string{"[1]"}, false},
		{[]string{"--port"}, false},
		{[]string{`{}`, "--endpoint"}, false},
		{[]string{"--port", "x", `{}`}, false},
		{[]string{"--port=", `{}`}, false},
		{[]string{"--headless=maybe", `{}`}, false},
		{[]string{"--bogus", `{}`}, false},
		{[]string{"---port", "1", `{}`}, false},
		{[]string{"--=1", `{}`}, false},
		{[]string{"-h"}, false},
		{[]string{"--help"}, false},
		{[]string{`{}`, "--help"}, false},
		{[]string{"--", `{}`}, false},
		{[]string{"help"}, false},
		{[]string{"chrome", "status"}, false},
		{[]string{"--port", "1", "version"}, false},
		{[]string{"run", "x.star"}, false},
	} {
		fast := &app{}
		positional, ok := fast.jsonArgs(tt.args)
		if ok != tt.fast {
			t.Errorf("%q: jsonArgs ok = %v, want %v", tt.args, ok, tt.fast)
			continue
		}
		if !ok {
			continue
		}
		tree := &app{stdout: io.Discard, stderr: io.Discard}
		root := tree.rootCommand()
		var ran bool
		var got []string
		root.PersistentPreRun = nil
		root.RunE = func(_ *cobra.Command, args []string) error {
			ran, got = true, args
			return nil
		}
		root.SetArgs(tt.args)
		root.SetOut(io.Discard)
		root.SetErr(io.Discard)
		if err := root.Execute(); err != nil || !ran {
			t.Errorf("%q: the cobra tree did not run the JSON command (err %v)", tt.args, err)
			continue
		}
		if !slices.Equal(got, positional) || tree.port != fast.port || tree.endpoint != fast.endpoint || tree.headless != fast.headless {
			t.Errorf("%q: jsonArgs %q port %d endpoint %q headless %v; cobra %q port %d endpoint %q headless %v", tt.args,
				positional, fast.port, fast.endpoint, fast.headless, got, tree.port, tree.endpoint, tree.headless)
		}
	}
}

// TestJSONCommandsWithFlagsThroughResident: JSON commands with the flags
// before or after them, and on stdin, go through the resident process and
// act once each; --debug still runs directly and writes its log; a bad
// flag or flag value is still the cobra tree's error (exit 2, nothing run).
func TestJSONCommandsWithFlagsThroughResident(t *testing.T) {
	env := residentTestEnv(t)
	port := strconv.Itoa(browsertest.Require(t).Port)
	tab := openResidentCounter(t, env)
	before := residentOf(t, env)
	click := `{"tab":"` + tab + `","steps":[{"click":"#add"}]}`
	in, w, _ := os.Pipe()
	w.WriteString(click)
	w.Close()
	for i, r := range []result{
		runEnv(t, env, t.TempDir(), "--port", port, click),
		runEnv(t, env, t.TempDir(), click, "--port="+port, "--headless"),
		runBinary(t, env, t.TempDir(), in, "--port", port),
	} {
		if r.code != 0 || r.field("status") != "ok" {
			t.Fatalf("command %d: exit %d %s %s", i, r.code, r.stdout, r.stderr)
		}
	}
	after := residentOf(t, env)
	if after.PID != before.PID || after.Commands < before.Commands+3 {
		t.Fatalf("the commands did not go through the resident process: before %+v, after %+v", before, after)
	}
	dir := t.TempDir()
	if r := runEnv(t, env, dir, click, "--debug"); r.code != 0 {
		t.Fatalf("--debug: exit %d %s %s", r.code, r.stdout, r.stderr)
	}
	if logs, _ := filepath.Glob(filepath.Join(dir, "log", "001-*-click.ok.json")); len(logs) != 1 {
		t.Fatalf("--debug wrote no log of the command: %v", logs)
	}
	for _, bad := range []struct {
		args []string
		says string
	}{
		{[]string{"--bogus", click}, "unknown flag: --bogus"},
		{[]string{click, "--port", "abc"}, `invalid argument "abc"`},
		{[]string{click, "--endpoint"}, "flag needs an argument"},
	} {
		r := runEnv(t, env, t.TempDir(), bad.args...)
		// A usage error answers on stdout as every command does (issue
		// 31, Low), and names the problem on stderr too.
		if r.code != 2 || !strings.Contains(string(r.stdout), `"type":"VALIDATION"`) || !strings.Contains(string(r.stderr), bad.says) {
			t.Errorf("%q: exit %d, stdout %s, stderr %s", bad.args, r.code, r.stdout, r.stderr)
		}
	}
	if got := clicksOf(t, env, tab); got != "4" {
		t.Fatalf("four clicks ran the page's handler %s times", got)
	}
}
