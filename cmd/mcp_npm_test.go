package cmd

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
	"github.com/cdp-skill/cdp-skill/internal/npmcache"
)

// The npm clients the tests drive the server with are pinned in
// testdata/mcp-npm (package.json and package-lock.json): the official
// conformance suite, the TypeScript SDK, and Node 22 (which the suite
// needs) as an npm package.
const npmDir = "testdata/mcp-npm"

var (
	npmOnce sync.Once
	npmPath string
	npmErr  error
)

// npmClients installs the pinned packages, once, into a cache directory
// keyed by their manifest's and lockfile's hash, and returns it. Without
// npm the test is skipped, except in CI (CI=true), where it fails.
func npmClients(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("npm"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("npm is needed for the MCP client tests (CI=true): install Node.js and npm")
		}
		t.Skip("npm not found: the MCP client tests need it")
	}
	npmOnce.Do(func() {
		root, err := npmcache.CacheRoot("", "mcp-npm")
		if err != nil {
			npmErr = err
			return
		}
		npmPath, npmErr = npmcache.Install(npmcache.Set{What: "MCP client", Dir: npmDir, Root: root,
			Probe: filepath.Join("node_modules", ".bin", "node"), Scripts: true})
	})
	if npmErr != nil {
		t.Fatalf("install the pinned MCP clients: %v", npmErr)
	}
	// The script may be newer than the cached copy.
	data, _ := os.ReadFile(filepath.Join(npmDir, "task.mjs"))
	os.WriteFile(filepath.Join(npmPath, "task.mjs"), data, 0o644)
	return npmPath
}

// formPage is a form whose submit writes what was entered into a status.
const formPage = `<!doctype html><title>Signup</title>
<main><h1>Sign up</h1>
<form id="f" onsubmit="event.preventDefault(); window.submits = (window.submits || 0) + 1; document.getElementById('result').textContent = 'Thanks ' + f.first.value + ' ' + f.last.value + ' <' + f.email.value + '>, ' + f.city.value + ' #' + submits;">
<label>First name <input name="first"></label>
<label>Last name <input name="last"></label>
<label>Email <input name="email" type="email"></label>
<label>City <input name="city"></label>
<button type="submit">Submit</button>
</form>
<p id="result" role="status"></p></main>`

// TestMCPTypeScriptClientTask: the official TypeScript SDK client does the
// realistic task over stdio; the page's own status shows the four values,
// submitted once.
func TestMCPTypeScriptClientTask(t *testing.T) {
	dir := npmClients(t)
	port := browsertest.Require(t).Port
	url := browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte(formPage)) }))
	c := exec.Command(filepath.Join(dir, "node_modules", ".bin", "node"), "task.mjs", mcpBinary(t), url)
	c.Dir = dir
	c.Env = append(os.Environ(), EnvPort+"="+strconv.Itoa(port), EnvHeadless+"=1")
	var stderr bytes.Buffer
	c.Stderr = &stderr
	out, err := c.Output()
	if err != nil {
		t.Fatalf("task: %v\n%s\n%s", err, out, stderr.String())
	}
	var res struct {
		Tools []string
		Calls []struct {
			Name  string
			Bytes int
		}
		Changes, Snapshot string
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	want := "Thanks Ada Lovelace <ada@example.com>, London #1"
	if !strings.Contains(res.Snapshot, want) || !strings.Contains(res.Changes, want) {
		t.Errorf("the page does not show %q once:\nchanges %s\nsnapshot %s", want, res.Changes, res.Snapshot)
	}
	total := 0
	for _, c := range res.Calls {
		total += c.Bytes
	}
	t.Logf("tools %v; %d calls, %d bytes of results: %+v", res.Tools, len(res.Calls), total, res.Calls)
	// Playwright MCP 0.0.83 does this task in 6 calls and 2,832 bytes of
	// results (docs/ARCHITECTURE.md); with default settings we must read
	// less, in fewer calls.
	if len(res.Calls) >= 6 || total >= 2832 {
		t.Errorf("%d calls, %d bytes: Playwright MCP needs 6 calls, 2,832 bytes", len(res.Calls), total)
	}
}

var passed = regexp.MustCompile(`Passed: [1-9]\d*/\d+, 0 failed|: [1-9]\d* passed, 0 failed`)

// TestMCPConformance runs the official conformance suite's server
// scenarios that apply to a server of tools only (the others exercise the
// suite's own test tools, prompts, resources, logging and completion,
// which this server does not declare) against the Streamable HTTP
// endpoint.
func TestMCPConformance(t *testing.T) {
	dir := npmClients(t)
	cmd := exec.Command(mcpBinary(t), "mcp", "--http", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), EnvPort+"="+strconv.Itoa(browsertest.Require(t).Port), EnvHeadless+"=1")
	cmd.Dir = t.TempDir()
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	var seen string
	buf := make([]byte, 4096)
	deadline := time.Now().Add(60 * time.Second)
	for servingLine.FindStringSubmatch(seen) == nil && time.Now().Before(deadline) {
		n, err := stderr.Read(buf)
		seen += string(buf[:n])
		if err != nil {
			t.Fatalf("the server did not start: %s", seen)
		}
	}
	url := servingLine.FindStringSubmatch(seen)[1]
	for _, scenario := range []string{"server-initialize", "ping", "tools-list", "server-sse-multiple-streams", "dns-rebinding-protection"} {
		t.Run(scenario, func(t *testing.T) {
			c := exec.Command(filepath.Join(dir, "node_modules", ".bin", "node"), filepath.Join(dir, "node_modules", ".bin", "conformance"), "server", "--url", url, "--scenario", scenario)
			c.Dir = t.TempDir()
			out, err := c.CombinedOutput()
			if err != nil || !passed.Match(out) {
				t.Errorf("%s: %v\n%s", scenario, err, out)
			}
		})
	}
}
