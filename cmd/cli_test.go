package cmd

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
	"github.com/cdp-skill/cdp-skill/browser/chrome"
	"github.com/cdp-skill/cdp-skill/examples"
)

func page(t *testing.T) string {
	srv, err := examples.Serve("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv.URL
}

func closeTab(t *testing.T, tab any) {
	if s, ok := tab.(string); ok && s != "" {
		t.Cleanup(func() { cli(t, t.TempDir(), nil, `{"steps":[{"closeTab":"`+s+`"}]}`) })
	}
}

func TestArgumentAndStdin(t *testing.T) {
	base := page(t)
	cmd := `{"steps":[{"openTab":"` + base + `products.html"},{"pageFunction":"document.title"}]}`
	r := cli(t, t.TempDir(), nil, cmd)
	closeTab(t, r.field("tab"))
	if r.code != 0 || r.field("status") != "ok" || r.field("steps", "1", "output") != "Products - Acme" {
		t.Fatalf("argument: exit %d %s %s", r.code, r.stdout, r.stderr)
	}
	in, w, _ := os.Pipe()
	w.WriteString(`{"tab":"` + r.field("tab").(string) + `","steps":[{"pageFunction":"location.pathname"}]}`)
	w.Close()
	r2 := cli(t, t.TempDir(), in, "--debug")
	if r2.code != 0 || r2.field("steps", "0", "output") != "/products.html" {
		t.Fatalf("stdin: exit %d %s %s", r2.code, r2.stdout, r2.stderr)
	}
}

func TestIdleStdinDoesNotHang(t *testing.T) {
	in, w, _ := os.Pipe()
	defer w.Close() // open, never written: an agent harness's idle stdin
	r := cli(t, t.TempDir(), in)
	if r.code != 1 || r.field("error", "type") != "PARSE" || !strings.Contains(fmt.Sprint(r.field("error", "message")), "empty input") {
		t.Fatalf("exit %d: %s", r.code, r.stdout)
	}
}

func TestExitCodesAndErrorTypes(t *testing.T) {
	for _, tt := range []struct{ input, typ string }{
		{`{"steps":`, "PARSE"},
		{`{"steps":[]}`, "VALIDATION"},
		{`{"steps":[{"goto":"a","reload":true}]}`, "VALIDATION"},
		{`{"steps":[{"teleport":true}]}`, "VALIDATION"},
		{`{"tab":"t424242","steps":[{"reload":true}]}`, "CONNECTION"},
	} {
		r := cli(t, t.TempDir(), nil, tt.input)
		if r.code != 1 || r.field("status") != "error" || r.field("error", "type") != tt.typ {
			t.Errorf("%s: exit %d, %s", tt.input, r.code, r.stdout)
		}
	}
}

func TestDebugLogAndMetrics(t *testing.T) {
	dir := t.TempDir()
	metrics := filepath.Join(dir, "m", "metrics.jsonl")
	os.Setenv(EnvMetricsFile, metrics)
	defer os.Unsetenv(EnvMetricsFile)
	r := cli(t, dir, nil, `{"steps":[{"sleep":1},{"listTabs":true}]}`, "--debug")
	if r.code != 0 {
		t.Fatalf("exit %d %s %s", r.code, r.stdout, r.stderr)
	}
	cli(t, dir, nil, "--debug", `{"steps":[{"bogus":1}]}`)
	logs, _ := filepath.Glob(filepath.Join(dir, "log", "*.json"))
	sort.Strings(logs)
	if len(logs) != 2 || filepath.Base(logs[0]) != "001-sleep-listTabs.ok.json" || filepath.Base(logs[1]) != "002.error.json" {
		t.Fatalf("debug logs = %v", logs)
	}
	// They hold what was typed (passwords): only their owner reads them
	// (issue 31, item 11).
	for _, p := range append(logs, filepath.Join(dir, "log")) {
		if info, err := os.Stat(p); err != nil || info.Mode().Perm()&0o077 != 0 {
			t.Fatalf("debug log %s: mode %v %v", p, info.Mode(), err)
		}
	}
	var rec struct {
		Request  map[string]any `json:"request"`
		Response map[string]any `json:"response"`
	}
	data, _ := os.ReadFile(logs[0])
	if err := json.Unmarshal(data, &rec); err != nil || rec.Response["status"] != "ok" || rec.Request["steps"] == nil {
		t.Errorf("log record: %s", data)
	}
	lines, _ := os.ReadFile(metrics)
	if n := strings.Count(string(lines), "\n"); n != 2 {
		t.Fatalf("metrics lines = %d: %s", n, lines)
	}
	var m map[string]any
	json.Unmarshal([]byte(strings.SplitN(string(lines), "\n", 2)[0]), &m)
	for _, k := range []string{"ts", "input_bytes", "output_bytes", "steps", "time_ms"} {
		if _, ok := m[k]; !ok {
			t.Errorf("metrics line lacks %s: %v", k, m)
		}
	}
	if m["steps"] != 2.0 {
		t.Errorf("steps = %v", m["steps"])
	}
}

func TestParallelInvocationsGetDistinctTabs(t *testing.T) {
	base := page(t)
	const n = 10
	results := make([]result, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = cli(t, t.TempDir(), nil, fmt.Sprintf(`{"steps":[{"openTab":"%sproduct.html?id=%d"},{"pageFunction":"() => { window.me = %d; return document.title }"}]}`, base, i%4+1, i))
		}()
	}
	wg.Wait()
	aliases := map[string]int{}
	for i, r := range results {
		closeTab(t, r.field("tab"))
		if r.code != 0 {
			t.Fatalf("invocation %d: exit %d %s %s", i, r.code, r.stdout, r.stderr)
		}
		aliases[r.field("tab").(string)] = i
	}
	if len(aliases) != n {
		t.Fatalf("aliases = %v", aliases)
	}
	list := cli(t, t.TempDir(), nil, `{"steps":[{"listTabs":true}]}`)
	registered := map[string]bool{}
	for _, tab := range list.field("steps", "0", "output", "tabs").([]any) {
		if a, ok := tab.(map[string]any)["tab"].(string); ok {
			registered[a] = true
		}
	}
	for alias, i := range aliases {
		if !registered[alias] {
			t.Errorf("alias %s missing from listTabs", alias)
		}
		// Each alias still reaches the tab its own invocation opened.
		r := cli(t, t.TempDir(), nil, `{"tab":"`+alias+`","steps":[{"pageFunction":"window.me"}]}`)
		if r.field("steps", "0", "output") != float64(i) {
			t.Errorf("tab %s: window.me = %v, want %d", alias, r.field("steps", "0", "output"), i)
		}
	}
}

func TestCompileThenRun(t *testing.T) {
	base := page(t)
	open := cli(t, t.TempDir(), nil, `{"steps":[{"openTab":"`+base+`index.html"}]}`)
	tab := open.field("tab").(string)
	closeTab(t, tab)
	command := `{"tab":"` + tab + `","steps":[{"goto":"` + base + `products.html"},{"pageFunction":"document.querySelectorAll('tbody tr').length"}]}`
	dir := t.TempDir()
	c := cli(t, dir, nil, "compile", command)
	if c.code != 0 || !strings.Contains(string(c.stdout), `page_function("document.querySelectorAll('tbody tr').length")`) {
		t.Fatalf("compile: %d %s %s", c.code, c.stdout, c.stderr)
	}
	star := filepath.Join(dir, "cmd.star")
	os.WriteFile(star, c.stdout, 0o644)
	viaJSON := cli(t, dir, nil, command)
	viaStar := cli(t, dir, nil, "run", star, "--tab", tab)
	if viaJSON.code != 0 || viaStar.code != 0 {
		t.Fatalf("json %s / star %s", viaJSON.stdout, viaStar.stdout)
	}
	for _, path := range [][]string{{"steps", "0", "output"}, {"steps", "1", "output"}, {"context"}, {"tab"}} {
		a, _ := json.Marshal(viaJSON.field(path...))
		b, _ := json.Marshal(viaStar.field(path...))
		if string(a) != string(b) {
			t.Errorf("%v: json %s, recipe %s", path, a, b)
		}
	}
}

func TestRunRecipeArgsAndTimeout(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.star"), []byte("result = args['who'] + '!'\n"), 0o644)
	r := cli(t, dir, nil, "run", "a.star", "--arg", "who=agent")
	if r.code != 0 || r.field("result") != "agent!" {
		t.Fatalf("%d %s", r.code, r.stdout)
	}
	os.WriteFile(filepath.Join(dir, "slow.star"), []byte("sleep(60000)\n"), 0o644)
	r = cli(t, dir, nil, "run", "slow.star", "--timeout", "300ms")
	if r.code != 1 || r.field("steps", "0", "errorType") != "TimeoutError" {
		t.Fatalf("%d %s", r.code, r.stdout)
	}
	r = cli(t, dir, nil, "run", "a.star", "--arg", "novalue")
	if r.code != 1 || r.field("error", "type") != "VALIDATION" {
		t.Fatalf("%d %s", r.code, r.stdout)
	}
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "good.star"), []byte("load('@stdlib/wait.star', 'no_spinner')\ngoto('https://a', wait_until = 'load', settled_when = no_spinner())\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "bad.star"), []byte("goto('https://a', wait_untill = 'load')\nclck()\n"), 0o644)
	good := cli(t, dir, nil, "check", "good.star")
	if good.code != 0 || good.field("status") != "ok" {
		t.Fatalf("good: %d %s", good.code, good.stdout)
	}
	bad := cli(t, dir, nil, "check", "bad.star")
	diags, _ := bad.field("files", "0", "diagnostics").([]any)
	if bad.code != 1 || len(diags) != 2 {
		t.Fatalf("bad: %d %s", bad.code, bad.stdout)
	}
	if !strings.Contains(string(bad.stdout), "bad.star:1:19") || !strings.Contains(string(bad.stdout), "did you mean wait_until") {
		t.Errorf("diagnostics: %s", bad.stdout)
	}
}

func TestChromeStatusAndStop(t *testing.T) {
	browsertest.Require(t)
	port, err := browsertest.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	p := strconv.Itoa(port)
	dir := t.TempDir()
	none := cli(t, dir, nil, "chrome", "status", "--port", p, "--no-launch")
	if none.code != 0 || none.field("steps", "0", "output", "running") != false {
		t.Fatalf("no-launch: %s", none.stdout)
	}
	up := cli(t, dir, nil, "chrome", "status", "--port", p)
	if up.code != 0 || up.field("steps", "0", "output", "launched") != true || up.field("steps", "0", "output", "version") == nil {
		t.Fatalf("status: %s %s", up.stdout, up.stderr)
	}
	again := cli(t, dir, nil, "chrome", "status", "--port", p)
	if again.field("steps", "0", "output", "launched") == true || again.field("steps", "0", "output", "running") != true {
		t.Fatalf("second status: %s", again.stdout)
	}
	stop := cli(t, dir, nil, "chrome", "stop", "--port", p)
	if stop.code != 0 || stop.field("stopped") != true {
		t.Fatalf("stop: %s", stop.stdout)
	}
	if _, err := chrome.Version(t.Context(), chrome.Endpoint{Port: port}); err == nil {
		t.Fatal("Chrome still answers after stop")
	}
	stop = cli(t, dir, nil, "chrome", "stop", "--port", p)
	if stop.field("stopped") != false {
		t.Fatalf("second stop: %s", stop.stdout)
	}
}

func TestChromeStopLeavesOtherChromeAlone(t *testing.T) {
	browsertest.Require(t)
	exe, _, _ := chrome.Find(chrome.Host{Path: os.Getenv(chrome.EnvChromePath)})
	port, _ := browsertest.FreePort()
	// Not t.TempDir: Chrome's helper processes may still write to the
	// profile while it is removed, which would fail the test's cleanup.
	profile, err := os.MkdirTemp("", "other-chrome-")
	if err != nil {
		t.Fatal(err)
	}
	other := exec.Command(exe, "--headless=new", "--no-sandbox", "--remote-debugging-port="+strconv.Itoa(port), "--user-data-dir="+profile, "about:blank")
	other.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		syscall.Kill(-other.Process.Pid, syscall.SIGKILL)
		other.Wait()
		os.RemoveAll(profile)
	}()
	ep := chrome.Endpoint{Port: port}
	for i := 0; ; i++ {
		if _, err := chrome.Version(t.Context(), ep); err == nil {
			break
		}
		if i > 200 {
			t.Fatal("the other Chrome did not start")
		}
		time.Sleep(50 * time.Millisecond)
	}
	r := cli(t, t.TempDir(), nil, "chrome", "stop", "--port", strconv.Itoa(port))
	if r.field("stopped") != false {
		t.Fatalf("stop: %s", r.stdout)
	}
	if _, err := chrome.Version(t.Context(), ep); err != nil {
		t.Fatalf("a Chrome cdp-skill did not launch was stopped: %v", err)
	}
}

func TestVersion(t *testing.T) {
	r := cli(t, t.TempDir(), nil, "version")
	if r.code != 0 || r.field("version") == nil {
		t.Fatalf("%s", r.stdout)
	}
}

func TestDemo(t *testing.T) {
	r := cli(t, t.TempDir(), nil, "demo")
	if r.code != 0 || r.field("status") != "ok" {
		t.Fatalf("demo: %d %s %s", r.code, r.stdout, r.stderr)
	}
	if got, _ := json.Marshal(r.field("result")); !strings.Contains(string(got), `"products":4`) {
		t.Errorf("demo result = %s", got)
	}
}

// TestLocalhostEndpointStaticBuild: the binary is built without cgo (as
// the Makefile builds it), so Go's own resolver must find localhost.
func TestLocalhostEndpointStaticBuild(t *testing.T) {
	base := page(t)
	port := strconv.Itoa(browsertest.Require(t).Port)
	r := cli(t, t.TempDir(), nil, "--endpoint", "http://localhost:"+port, `{"steps":[{"openTab":"`+base+`products.html"},{"pageFunction":"document.title"}]}`)
	closeTab(t, r.field("tab"))
	if r.code != 0 || r.field("steps", "1", "output") != "Products - Acme" {
		t.Fatalf("exit %d %s %s", r.code, r.stdout, r.stderr)
	}
}
