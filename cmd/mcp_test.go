package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
	"github.com/cdp-skill/cdp-skill/browser/state"
)

// counterPage is a page whose buttons count their own activations in
// window.counts, by label; addButton(label) adds another such button.
const counterPage = `<!doctype html><title>Counter</title>
<script>
window.counts = {};
function count(b) { counts[b.textContent] = (counts[b.textContent] || 0) + 1; document.getElementById('n').textContent = counts['Add one'] || 0; }
function addButton(label) { const b = document.createElement('button'); b.textContent = label; b.onclick = () => count(b); document.querySelector('main').append(b); }
</script>
<main><h1>Counter</h1>
<button id="add" onclick="count(this)">Add one</button>
<p>Clicked <output id="n">0</output> times</p></main>`

var (
	mcpBuildOnce sync.Once
	mcpBuildErr  error
)

// mcpBinary is the cdp-skill binary with cdp-skill-mcp built next to it,
// as make build leaves them: `cdp-skill mcp` runs cdp-skill-mcp.
func mcpBinary(t testing.TB) string {
	t.Helper()
	bin := binary(t)
	mcpBuildOnce.Do(func() {
		build := exec.Command("go", "build", "-o", filepath.Join(filepath.Dir(bin), MCPBinary), "../cmd/"+MCPBinary)
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			mcpBuildErr = fmt.Errorf("build %s: %v\n%s", MCPBinary, err, out)
		}
	})
	if mcpBuildErr != nil {
		t.Fatal(mcpBuildErr)
	}
	return bin
}

// mcpSession starts `cdp-skill mcp` against the test Chromium and connects
// the SDK's client to it over stdio.
func mcpSession(t testing.TB) *mcp.ClientSession {
	t.Helper()
	return mcpSessionOn(t, browsertest.Require(t).Port)
}

// mcpSessionOn starts the server for the Chrome on port (launched on first
// use when none runs there).
func mcpSessionOn(t testing.TB, port int) *mcp.ClientSession {
	t.Helper()
	browsertest.Require(t)
	cmd := exec.Command(mcpBinary(t), "mcp")
	cmd.Env = append(os.Environ(), EnvPort+"="+strconv.Itoa(port), EnvHeadless+"=1")
	cmd.Dir = t.TempDir()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "cdp-skill-test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	t.Cleanup(func() {
		if err := cs.Close(); err != nil {
			t.Logf("close: %v", err)
		}
		if t.Failed() {
			t.Logf("server stderr:\n%s", stderr.String())
		}
	})
	return cs
}

// toolAnswer is a tool result: the JSON answer and any images.
type toolAnswer struct {
	isError bool
	text    string
	out     map[string]any
	images  []*mcp.ImageContent
}

func (a toolAnswer) field(path ...string) any { return result{out: a.out}.field(path...) }

// call calls a tool and decodes its text content as JSON when it is JSON.
func call(t testing.TB, cs *mcp.ClientSession, name string, args any) toolAnswer {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	a := toolAnswer{isError: res.IsError}
	for _, c := range res.Content {
		switch x := c.(type) {
		case *mcp.TextContent:
			a.text = x.Text
			json.Unmarshal([]byte(x.Text), &a.out)
		case *mcp.ImageContent:
			a.images = append(a.images, x)
		}
	}
	return a
}

// openCounter opens the counter page through the tabs tool and returns the
// tab alias.
func openCounter(t testing.TB, cs *mcp.ClientSession, extra http.Handler) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte(counterPage)) })
	if extra != nil {
		mux.Handle("/x/", extra)
	}
	base := browsertest.ServeHandler(t, mux)
	a := call(t, cs, "tabs", map[string]any{"action": "open", "url": base})
	tab, _ := a.out["tab"].(string)
	if a.isError || tab == "" {
		t.Fatalf("open: %s", a.text)
	}
	t.Cleanup(func() { cli(t, t.TempDir(), nil, `{"steps":[{"closeTab":"`+tab+`"}]}`) })
	return tab
}

// clicks reads the page's own counter of the "Add one" button through the
// command line, which also proves the alias is shared with CLI invocations.
func clicks(t testing.TB, tab string) float64 { return counted(t, tab, "Add one") }

// counted reads the page's counter of the button labelled label.
func counted(t testing.TB, tab, label string) float64 {
	t.Helper()
	r := cli(t, t.TempDir(), nil, `{"tab":"`+tab+`","steps":[{"pageFunction":"window.counts['`+label+`'] || 0"}]}`)
	n, ok := r.field("steps", "0", "output").(float64)
	if r.code != 0 || !ok {
		t.Fatalf("read counter: %s %s", r.stdout, r.stderr)
	}
	return n
}

var buttonRef = refOf("Add one")

// refOf matches the snapshot line of the button labelled label.
func refOf(label string) *regexp.Regexp {
	return regexp.MustCompile(`button "` + label + `"[^\n]*\[ref=(s\d+e\d+)\]`)
}

func TestMCPListTools(t *testing.T) {
	cs := mcpSession(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	var stepsSchema map[string]any
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		if tool.Name == "interact" {
			data, _ := json.Marshal(tool.InputSchema)
			json.Unmarshal(data, &stepsSchema)
		}
	}
	sort.Strings(names)
	if got := strings.Join(names, ","); got != "compile,evaluate,interact,network_storage,observe,run_recipe,tabs" {
		t.Fatalf("tools = %s", got)
	}
	click := result{out: stepsSchema}.field("$defs", "step", "properties", "click", "description")
	if s, _ := click.(string); !strings.Contains(s, "click") {
		t.Errorf("steps schema does not describe click from the catalog: %v", click)
	}
}

func TestMCPClickByRefSharesTabsAndRefsWithCLI(t *testing.T) {
	cs := mcpSession(t)
	tab := openCounter(t, cs, nil)

	snap := call(t, cs, "observe", map[string]any{"tab": tab, "steps": []any{map[string]any{"snapshot": true}}})
	yaml, _ := snap.field("steps", "0", "output", "yaml").(string)
	m := buttonRef.FindStringSubmatch(yaml)
	if snap.isError || m == nil {
		t.Fatalf("no ref for the button in the snapshot: %s", snap.text)
	}
	a := call(t, cs, "interact", map[string]any{"tab": tab, "capture": "compact", "steps": []any{map[string]any{"click": m[1]}}})
	if a.isError || a.field("status") != "ok" {
		t.Fatalf("click: %s", a.text)
	}
	if n := clicks(t, tab); n != 1 {
		t.Fatalf("the page counted %v clicks, want exactly 1", n)
	}
	if !strings.Contains(a.text, `"viewportSnapshot"`) || len(a.images) != 0 {
		t.Errorf("compact capture: want the viewport snapshot and no image: %s (%d images)", a.text, len(a.images))
	}

	// Refs are numbered per tab across processes: a button the command line
	// saw first and one the server saw first get distinct refs, and each
	// acts on its own button. No image by default; "capture":"full" asks
	// for the screenshot, which comes back as an image.
	r := cli(t, t.TempDir(), nil, `{"tab":"`+tab+`","steps":[{"pageFunction":"addButton('Add two')"},{"snapshot":true}]}`)
	cliYAML, _ := r.field("steps", "1", "output", "yaml").(string)
	two := refOf("Add two").FindStringSubmatch(cliYAML)
	if r.code != 0 || two == nil {
		t.Fatalf("CLI snapshot has no ref for the new button: %s", r.stdout)
	}
	a = call(t, cs, "evaluate", map[string]any{"tab": tab, "steps": []any{map[string]any{"pageFunction": "addButton('Add three')"}, map[string]any{"snapshot": true}}})
	yaml, _ = a.field("steps", "1", "output", "yaml").(string)
	three := refOf("Add three").FindStringSubmatch(yaml)
	if a.isError || three == nil {
		t.Fatalf("server snapshot has no ref for the newest button: %s", a.text)
	}
	if three[1] == two[1] || three[1] == m[1] {
		t.Fatalf("refs handed out twice: Add one %s, Add two %s, Add three %s", m[1], two[1], three[1])
	}
	a = call(t, cs, "interact", map[string]any{"tab": tab, "steps": []any{map[string]any{"click": two[1]}}})
	if a.isError || len(a.images) != 0 {
		t.Fatalf("click with the CLI's ref (want no image by default): %s (%d images)", a.text, len(a.images))
	}
	a = call(t, cs, "interact", map[string]any{"tab": tab, "capture": "full", "steps": []any{map[string]any{"click": three[1]}}})
	if a.isError {
		t.Fatalf("click with the CLI's ref: %s", a.text)
	}
	for label, want := range map[string]float64{"Add one": 1, "Add two": 1, "Add three": 1} {
		if n := counted(t, tab, label); n != want {
			t.Errorf("%s counted %v clicks, want %v", label, n, want)
		}
	}
	if len(a.images) != 1 || a.images[0].MIMEType != "image/png" || !bytes.HasPrefix(a.images[0].Data, []byte("\x89PNG")) {
		t.Errorf("full capture: want one PNG image, got %d", len(a.images))
	}
}

func TestMCPErrorsAreToolResults(t *testing.T) {
	cs := mcpSession(t)
	tab := openCounter(t, cs, nil)
	cases := []struct {
		name, tool string
		args       any
		typ, want  string
	}{
		{"missing element", "interact", map[string]any{"tab": tab, "steps": []any{map[string]any{"click": "#nope"}}}, "EXECUTION", "nope"},
		{"unknown action", "interact", map[string]any{"tab": tab, "steps": []any{map[string]any{"clik": "#add"}}}, "VALIDATION", `did you mean "click"`},
		{"unknown tab", "interact", map[string]any{"tab": "t999", "steps": []any{map[string]any{"click": "#add"}}}, "CONNECTION", "t999"},
		{"recipe error", "run_recipe", map[string]any{"tab": tab, "source": "click(\"#nope\", timeout = 500)\n"}, "EXECUTION", "nope"},
		{"recipe syntax", "run_recipe", map[string]any{"source": "click(\n"}, "PARSE", "recipe.star"},
		{"recipe without source", "run_recipe", map[string]any{"tab": tab}, "VALIDATION", "exactly one of"},
		{"bad tabs action", "tabs", map[string]any{"action": "reopen"}, "VALIDATION", "list, open or close"},
		{"close without tab", "tabs", map[string]any{"action": "close"}, "VALIDATION", `needs "tab"`},
		{"bad snapshot option", "observe", map[string]any{"tab": tab, "steps": []any{map[string]any{"snapshot": map[string]any{"detial": "full"}}}}, "VALIDATION", `did you mean "detail"`},
		{"a step of another tool", "observe", map[string]any{"tab": tab, "steps": []any{map[string]any{"click": "#add"}}}, "VALIDATION", "call the interact tool"},
		{"a hook outside evaluate", "interact", map[string]any{"tab": tab, "steps": []any{map[string]any{"click": map[string]any{"selector": "#add", "readyWhen": "() => true"}}}}, "VALIDATION", "evaluate tool"},
		{"a wrong argument type", "tabs", map[string]any{"action": "open", "url": 5}, "VALIDATION", `"url" must be a string, not a number`},
		{"compile error", "compile", map[string]any{"steps": []any{}}, "VALIDATION", "empty"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := call(t, cs, c.tool, c.args)
			if !a.isError || a.field("status") != "error" {
				t.Fatalf("want an error result: %s", a.text)
			}
			typ := a.field("error", "type")
			if typ == nil {
				typ = a.field("errors", "0", "type")
			}
			if typ != c.typ || !strings.Contains(fmt.Sprint(a.out), c.want) {
				t.Errorf("type %v, want %s containing %q: %s", typ, c.typ, c.want, a.text)
			}
		})
	}
	if n := clicks(t, tab); n != 0 {
		t.Errorf("failed calls clicked the button %v times", n)
	}
	// A tool that does not exist is the client's mistake: a protocol error.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "nope", Arguments: map[string]any{}}); err == nil {
		t.Error("calling an unknown tool succeeded")
	}
}

func TestMCPRecipeAndCompile(t *testing.T) {
	t.Setenv(state.EnvSitesDir, t.TempDir()) // the server inherits it
	cs := mcpSession(t)
	tab := openCounter(t, cs, nil)
	compiled := call(t, cs, "compile", map[string]any{"tab": tab, "steps": []any{map[string]any{"click": map[string]any{"text": "Add one"}}}})
	if compiled.isError || !strings.Contains(compiled.text, `click(text = "Add one")`) {
		t.Fatalf("compile: %s", compiled.text)
	}
	src := "for i in range(int(args[\"times\"])):\n    click(text = \"Add one\")\nresult = text(\"#n\")\n"
	a := call(t, cs, "run_recipe", map[string]any{"tab": tab, "source": src, "args": map[string]any{"times": 3}})
	if a.isError || a.field("result") != "3" {
		t.Fatalf("recipe: %s", a.text)
	}
	if n := clicks(t, tab); n != 3 {
		t.Fatalf("the page counted %v clicks, want 3", n)
	}
	// A recipe file, with load() of a module next to it.
	dir := t.TempDir()
	os.WriteFile(dir+"/lib.star", []byte("def add():\n    return click(\"#add\")\n"), 0o644)
	os.WriteFile(dir+"/main.star", []byte("load(\"lib.star\", \"add\")\nadd()\nresult = text(\"#n\")\n"), 0o644)
	a = call(t, cs, "run_recipe", map[string]any{"tab": tab, "path": dir + "/main.star"})
	if a.isError || a.field("result") != "4" {
		t.Fatalf("recipe file: %s", a.text)
	}
	// A site profile's recipe, written through the server, run by name.
	w := call(t, cs, "network_storage", map[string]any{"steps": []any{map[string]any{"writeSiteProfile": map[string]any{
		"domain": "127.0.0.1", "content": "# 127.0.0.1\nA counter.\n",
		"recipes": "def add(times):\n    for i in range(int(times)):\n        click(text = 'Add one')\n    return text('#n')\n"}}}})
	if w.isError {
		t.Fatalf("writeSiteProfile: %s", w.text)
	}
	a = call(t, cs, "run_recipe", map[string]any{"tab": tab, "site": "127.0.0.1", "name": "add", "args": map[string]any{"times": 2}})
	if a.isError || a.field("result") != "6" {
		t.Fatalf("site recipe: %s", a.text)
	}
	if n := clicks(t, tab); n != 6 {
		t.Fatalf("the page counted %v clicks, want 6", n)
	}
}

func TestMCPCancelStopsTheRunningStep(t *testing.T) {
	cs := mcpSession(t)
	var once sync.Once
	started := make(chan struct{})
	tab := openCounter(t, cs, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		once.Do(func() { close(started) })
	}))
	// The predicate tells the test it runs, then never holds.
	pred := `(window.__told || (window.__told = true, fetch('/x/started'))) && false`
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "evaluate", Arguments: map[string]any{
			"tab": tab, "steps": []any{map[string]any{"poll": pred, "timeout": 300000}}}})
		done <- err
	}()
	select {
	case <-started:
	case err := <-done:
		t.Fatalf("poll ended before it was cancelled: %v", err)
	case <-time.After(60 * time.Second):
		t.Fatal("the poll never started")
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled call: %v", err)
	}
	// The next call needs the tab's lock, which the poll holds until it
	// ends: it succeeds only if the cancellation stopped the poll (a poll
	// still running would hold it for five minutes; the lock wait gives up
	// after one).
	a := call(t, cs, "interact", map[string]any{"tab": tab, "steps": []any{map[string]any{"click": "#add"}}})
	if a.isError {
		t.Fatalf("call after cancel: %s", a.text)
	}
	if n := clicks(t, tab); n != 1 {
		t.Fatalf("the page counted %v clicks, want 1", n)
	}
}

// TestMCPRefNumbersContinueAfterCLI: a ref is never handed out twice in a
// tab, even when the command line advanced the tab's ref counters and the
// page was replaced since the server last looked.
func TestMCPRefNumbersContinueAfterCLI(t *testing.T) {
	cs := mcpSession(t)
	tab := openCounter(t, cs, nil)
	first := call(t, cs, "observe", map[string]any{"tab": tab, "steps": []any{map[string]any{"snapshot": true}}})
	if first.isError {
		t.Fatalf("snapshot: %s", first.text)
	}
	url, _ := first.field("context", "url").(string)
	r := cli(t, t.TempDir(), nil, `{"tab":"`+tab+`","steps":[{"goto":"`+url+`"},{"snapshot":true}]}`)
	cliYAML, _ := r.field("steps", "1", "output", "yaml").(string)
	byCLI := buttonRef.FindStringSubmatch(cliYAML)
	if byCLI == nil {
		t.Fatalf("CLI snapshot: %s", r.stdout)
	}
	// A fresh document that no snapshot saw yet.
	if r := cli(t, t.TempDir(), nil, `{"tab":"`+tab+`","capture":"none","steps":[{"goto":"`+url+`"}]}`); r.code != 0 {
		t.Fatalf("goto: %s", r.stdout)
	}
	a := call(t, cs, "observe", map[string]any{"tab": tab, "steps": []any{map[string]any{"snapshot": true}}})
	yaml, _ := a.field("steps", "0", "output", "yaml").(string)
	byServer := buttonRef.FindStringSubmatch(yaml)
	if byServer == nil {
		t.Fatalf("server snapshot: %s", a.text)
	}
	if byServer[1] == byCLI[1] {
		t.Fatalf("the server handed out %s again, a ref the command line gave an element of the previous document", byServer[1])
	}
}

func TestInstallSkillMCP(t *testing.T) {
	home := t.TempDir()
	cfg := home + "/.codex/config.toml"
	os.MkdirAll(home+"/.codex", 0o755)
	os.WriteFile(cfg, []byte("model = \"o4\"\n[mcp_servers.other]\ncommand = \"x\""), 0o644)
	run := func() map[string]any {
		cmd := exec.Command(binary(t), "install-skill", "--mcp")
		cmd.Env = append(os.Environ(), "HOME="+home)
		data, err := cmd.Output()
		if err != nil {
			t.Fatalf("install-skill --mcp: %v %s", err, data)
		}
		var out map[string]any
		if err := json.Unmarshal(data, &out); err != nil {
			t.Fatalf("%v: %s", err, data)
		}
		return out
	}
	out := run()
	bin, _ := out["binary"].(string)
	if got := (result{out: out}).field("claude", "command"); got != "claude mcp add cdp-skill -- "+bin+" mcp" {
		t.Errorf("claude command = %v", got)
	}
	if (result{out: out}).field("codex", "written") != true {
		t.Errorf("codex config not written: %v", out)
	}
	data, _ := os.ReadFile(cfg)
	want := "model = \"o4\"\n[mcp_servers.other]\ncommand = \"x\"\n\n[mcp_servers.cdp-skill]\ncommand = \"" + bin + "\"\nargs = [\"mcp\"]\n"
	if string(data) != want {
		t.Fatalf("config.toml =\n%s\nwant\n%s", data, want)
	}
	if fi, _ := os.Stat(cfg); fi.Mode().Perm() != 0o644 {
		t.Errorf("config.toml mode changed to %v", fi.Mode().Perm())
	}
	// Installing again leaves the file alone.
	out = run()
	if (result{out: out}).field("codex", "written") == true {
		t.Errorf("written twice: %v", out)
	}
	if again, _ := os.ReadFile(cfg); string(again) != want {
		t.Errorf("config.toml changed on the second install:\n%s", again)
	}
	// No skill files were installed by --mcp.
	if _, err := os.Stat(home + "/.claude/skills"); err == nil {
		t.Error("--mcp installed the skill files too")
	}
}

// TestMCPViewportLastsAcrossCalls: the server keeps the tab's session, so
// an emulated viewport stays for later calls, while the command line's
// ends with its command.
func TestMCPViewportLastsAcrossCalls(t *testing.T) {
	cs := mcpSession(t)
	tab := openCounter(t, cs, nil)
	a := call(t, cs, "interact", map[string]any{"tab": tab, "capture": "none", "steps": []any{map[string]any{"viewport": map[string]any{"width": 500, "height": 400}}}})
	if a.isError {
		t.Fatalf("viewport: %s", a.text)
	}
	a = call(t, cs, "evaluate", map[string]any{"tab": tab, "steps": []any{map[string]any{"pageFunction": "innerWidth"}}})
	if got := a.field("steps", "0", "output"); got != float64(500) {
		t.Fatalf("innerWidth on the next call = %v, want 500: %s", got, a.text)
	}
}

// TestMCPTabClosedUnderneath: a kept tab that is closed outside the server
// (here through Chrome's own endpoint, as a person closing it would) fails
// the next call with the tab-gone error, and the server goes on.
func TestMCPTabClosedUnderneath(t *testing.T) {
	c := browsertest.Require(t)
	cs := mcpSession(t)
	tab := openCounter(t, cs, nil)
	list := call(t, cs, "tabs", map[string]any{"action": "list"})
	var id string
	for _, x := range list.field("steps", "0", "output", "tabs").([]any) {
		if m := x.(map[string]any); m["tab"] == tab {
			id, _ = m["targetId"].(string)
		}
	}
	if id == "" {
		t.Fatalf("tab %s not listed: %s", tab, list.text)
	}
	// As a person closing it a moment before the agent's next call.
	c.CloseTab(t, id)
	a := call(t, cs, "interact", map[string]any{"tab": tab, "steps": []any{map[string]any{"click": "#add"}}})
	if !a.isError || a.field("error", "type") != "CONNECTION" || !strings.Contains(fmt.Sprint(a.field("error", "message")), "gone") {
		t.Fatalf("want the tab-gone error: %s", a.text)
	}
	if again := openCounter(t, cs, nil); again == tab {
		t.Fatalf("alias %s handed out again", tab)
	}
}

// TestMCPLaunchesChromeAndSurvivesItsRestart: the server launches Chrome on
// first use like the command line, and after that Chrome is stopped, the
// next call connects to (and launches) a new one.
func TestMCPLaunchesChromeAndSurvivesItsRestart(t *testing.T) {
	port, err := browsertest.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	p := strconv.Itoa(port)
	t.Cleanup(func() { cli(t, t.TempDir(), nil, "chrome", "stop", "--port", p) })
	cs := mcpSessionOn(t, port)
	st := call(t, cs, "observe", map[string]any{"steps": []any{map[string]any{"chromeStatus": true}}})
	if st.isError || st.field("steps", "0", "output", "launched") != true {
		t.Fatalf("chromeStatus on first use: %s", st.text)
	}
	for round := 1; round <= 2; round++ {
		tab := openCounter(t, cs, nil)
		a := call(t, cs, "evaluate", map[string]any{"tab": tab, "capture": "none", "steps": []any{map[string]any{"click": "#add"}, map[string]any{"pageFunction": "window.counts['Add one']"}}})
		if a.isError || a.field("steps", "1", "output") != float64(1) {
			t.Fatalf("round %d: %s", round, a.text)
		}
		if round == 1 {
			if r := cli(t, t.TempDir(), nil, "chrome", "stop", "--port", p); r.field("stopped") != true {
				t.Fatalf("stop: %s", r.stdout)
			}
		}
	}
}

// TestMCPParallelCallsOnTwoTabs: calls on different tabs run at once on
// the shared connection, each acting once on its own tab.
func TestMCPParallelCallsOnTwoTabs(t *testing.T) {
	cs := mcpSession(t)
	tabs := []string{openCounter(t, cs, nil), openCounter(t, cs, nil)}
	var wg sync.WaitGroup
	results := make([]*mcp.CallToolResult, len(tabs)*3)
	errs := make([]error, len(results))
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			results[i], errs[i] = cs.CallTool(ctx, &mcp.CallToolParams{Name: "interact",
				Arguments: map[string]any{"tab": tabs[i%2], "capture": "minimal", "steps": []any{map[string]any{"click": "#add"}}}})
		}()
	}
	wg.Wait()
	for i, res := range results {
		if errs[i] != nil || res.IsError {
			t.Errorf("call %d: %v %v", i, errs[i], res)
		}
	}
	for _, tab := range tabs {
		if n := clicks(t, tab); n != 3 {
			t.Errorf("tab %s counted %v clicks, want 3", tab, n)
		}
	}
}
