package cmd

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// mustAnswerJSON fails unless the process printed one JSON object (no Go
// crash, whose exit code is 2 and whose stdout is empty).
func mustAnswerJSON(t *testing.T, what string, r result) {
	t.Helper()
	if r.out == nil || r.code == 2 {
		t.Fatalf("%s: exit %d, no JSON answer: stdout %.300q stderr %.300q", what, r.code, r.stdout, r.stderr)
	}
}

// TestCyclicAndDeepValuesAnswerJSON feeds a list that contains itself to
// a result and to a builtin, and a command nested a million levels deep:
// each gets a JSON answer, never a Go stack overflow.
func TestCyclicAndDeepValuesAnswerJSON(t *testing.T) {
	base := page(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "result.star"), []byte("x = []\nx.append(x)\nresult = x\n"), 0o644)
	r := cli(t, dir, nil, "run", "result.star")
	mustAnswerJSON(t, "cyclic result", r)

	os.WriteFile(filepath.Join(dir, "arg.star"), []byte(fmt.Sprintf("open_tab(%q)\nx = [{\"find\": \"a\"}]\nx.append(x)\npipeline(x)\n", base+"products.html")), 0o644)
	r = cli(t, dir, nil, "run", "arg.star")
	closeTab(t, r.field("tab"))
	mustAnswerJSON(t, "cyclic builtin argument", r)
	if r.code != 1 || !strings.Contains(string(r.stdout), "nested too deeply") {
		t.Fatalf("cyclic builtin argument: want an error about nesting, got exit %d %s", r.code, r.stdout)
	}

	deep := `{"steps":[{"pageFunction":{"fn":"1","args":` + strings.Repeat("[", 1_000_000) + strings.Repeat("]", 1_000_000) + `}}]}`
	in, w, _ := os.Pipe()
	// The first byte is in the pipe before the command starts: it waits
	// only 100 ms for one (a loaded machine may not run the writer sooner).
	w.WriteString(deep[:1])
	go func() { w.WriteString(deep[1:]); w.Close() }()
	r = cli(t, dir, in)
	mustAnswerJSON(t, "deep JSON", r)
	if r.field("error", "type") != "PARSE" || !strings.Contains(fmt.Sprint(r.field("error", "message")), "nested deeper than") {
		t.Fatalf("deep JSON: want a PARSE error about nesting, got exit %d %.400s", r.code, r.stdout)
	}
}

// cliEnv is cli with extra environment variables (such as a state dir of
// the test's own).
func cliEnv(t *testing.T, dir string, env []string, args ...string) result {
	t.Helper()
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	return cli(t, dir, nil, args...)
}

// TestTabNamesAreNotPaths names tabs with paths in every way a tab can be
// named: the command's tab, run --tab, connectTab's targetId and a target
// id read from tabs.json. Each is refused before any file is made.
func TestTabNamesAreNotPaths(t *testing.T) {
	dir := t.TempDir()
	// Not t.TempDir: the resident process the first command starts may
	// still be writing in it when the test ends.
	stateDir := looseTempDir(t, "cdp-tabnames-")
	outside := t.TempDir()
	env := []string{"CDP_SKILL_STATE_DIR=" + stateDir}
	escape := strings.Repeat("../", 12) + strings.TrimPrefix(outside, "/") + "/x"
	os.WriteFile(filepath.Join(dir, "a.star"), []byte("snapshot()\n"), 0o644)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"tab", []string{`{"tab":"` + escape + `","steps":[{"snapshot":true}]}`}},
		{"run --tab", []string{"run", "a.star", "--tab", escape}},
		{"connectTab.targetId", []string{`{"steps":[{"connectTab":{"targetId":"` + escape + `"}}]}`}},
		{"closeTab", []string{`{"steps":[{"closeTab":"` + escape + `"}]}`}},
	} {
		r := cliEnv(t, dir, env, tc.args...)
		mustAnswerJSON(t, tc.name, r)
		if r.code != 1 || !strings.Contains(string(r.stdout), "not a tab alias") {
			t.Errorf("%s: want a refusal naming the tab alias shape, got exit %d %s", tc.name, r.code, r.stdout)
		}
		assertEmptyDir(t, tc.name, outside)
	}

	os.WriteFile(filepath.Join(stateDir, "tabs.json"), []byte(`{"nextId":2,"tabs":{"t1":{"alias":"t1","targetId":"`+escape+`"}}}`), 0o600)
	r := cliEnv(t, dir, env, `{"tab":"t1","steps":[{"snapshot":true}]}`)
	mustAnswerJSON(t, "targetId from tabs.json", r)
	if r.code != 1 || !strings.Contains(string(r.stdout), "corrupt") {
		t.Errorf("targetId from tabs.json: want the registry reported corrupt, got exit %d %s", r.code, r.stdout)
	}
	assertEmptyDir(t, "targetId from tabs.json", outside)
}

func assertEmptyDir(t *testing.T, what, dir string) {
	t.Helper()
	var found []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if p != dir {
			found = append(found, p)
		}
		return nil
	})
	if len(found) > 0 {
		t.Errorf("%s: files were made outside the state dir: %v", what, found)
	}
}

// listTabs runs listTabs and returns its tabs by target id.
func listTabsByID(t *testing.T, dir string, env []string) map[string]map[string]any {
	t.Helper()
	r := cliEnv(t, dir, env, `{"steps":[{"listTabs":true}]}`)
	out := map[string]map[string]any{}
	tabs, _ := r.field("steps", "0", "output", "tabs").([]any)
	for _, x := range tabs {
		m := x.(map[string]any)
		out[m["targetId"].(string)] = m
	}
	if r.code != 0 {
		t.Fatalf("listTabs: exit %d %s", r.code, r.stdout)
	}
	return out
}

// TestTabRegistryRecovers corrupts and empties tabs.json, fails an
// openTab and forgets a tab: the answers say what happened, aliases are
// never reused, no tab leaks and listTabs marks the forgotten tab.
func TestTabRegistryRecovers(t *testing.T) {
	base := page(t)
	dir := t.TempDir()
	// Not t.TempDir: the resident process the first command starts may
	// still be writing in it when the test ends.
	stateDir := looseTempDir(t, "cdp-reg-")
	env := []string{"CDP_SKILL_STATE_DIR=" + stateDir}
	reg := filepath.Join(stateDir, "tabs.json")
	var lastID string
	open := func() string {
		t.Helper()
		r := cliEnv(t, dir, env, `{"steps":[{"openTab":"`+base+`products.html"}]}`)
		tab, _ := r.field("tab").(string)
		if r.code != 0 || tab == "" {
			t.Fatalf("openTab: exit %d %s", r.code, r.stdout)
		}
		id, _ := r.field("steps", "0", "output", "targetId").(string)
		t.Cleanup(func() { cliEnv(t, dir, env, `{"steps":[{"closeTab":"`+id+`"}]}`) })
		lastID = id
		return tab
	}
	if a := open(); a != "t1" {
		t.Fatalf("first alias %s", a)
	}
	os.WriteFile(reg, []byte(`{"nextId": 2, "tabs": {`), 0o600)
	r := cliEnv(t, dir, env, `{"tab":"t1","steps":[{"snapshot":true}]}`)
	if r.code != 1 || !strings.Contains(string(r.stdout), "corrupt") || !strings.Contains(string(r.stdout), "recovered") {
		t.Errorf("corrupt tabs.json: want the answer to say it was corrupt and recovered, got %s", r.stdout)
	}
	if a := open(); a != "t2" {
		t.Errorf("after a corrupt tabs.json the next alias is %s, want t2 (aliases are never reused)", a)
	}
	os.WriteFile(reg, nil, 0o600)
	if a := open(); a != "t3" {
		t.Errorf("after a 0-byte tabs.json the next alias is %s, want t3", a)
	}

	t3 := lastID
	before := listTabsByID(t, dir, env)
	r = cliEnv(t, dir, env, `{"steps":[{"openTab":"http://127.0.0.1:1/"}]}`)
	if r.code != 1 {
		t.Fatalf("openTab to a closed port: exit %d %s", r.code, r.stdout)
	}
	// Chrome closes a target asynchronously: give the close a moment to
	// show in the listing before calling the tab leaked.
	var leaked map[string]any
	for deadline := time.Now().Add(3 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		leaked = map[string]any{}
		for id, tab := range listTabsByID(t, dir, env) {
			if _, ok := before[id]; !ok {
				leaked[id] = tab
			}
		}
		if len(leaked) == 0 || time.Now().After(deadline) {
			break
		}
	}
	for id, tab := range leaked {
		t.Errorf("the failed openTab left a tab open: %v", tab)
		cliEnv(t, dir, env, `{"steps":[{"closeTab":"`+id+`"}]}`)
	}

	data, _ := os.ReadFile(reg)
	os.WriteFile(reg, []byte(strings.Replace(string(data), `"t3"`, `"t3x"`, 1)), 0o600)
	if tab := listTabsByID(t, dir, env)[t3]; tab["tab"] != nil || tab["unregistered"] != true {
		t.Errorf("listTabs does not mark the tab whose entry was lost as unregistered: %v", tab)
	}
}

// TestLocalURLsNeedOptIn opens file:, view-source:file: and chrome: URLs
// in every way a command can: refused with how to opt in, unless the user
// allowed the directory; a page cannot navigate itself there either.
func TestLocalURLsNeedOptIn(t *testing.T) {
	base := page(t)
	dir := t.TempDir()
	files := t.TempDir()
	os.WriteFile(filepath.Join(files, "local.html"), []byte("<title>Local</title><p>local file</p>"), 0o644)
	r := cli(t, dir, nil, `{"steps":[{"openTab":"`+base+`products.html"}]}`)
	tab, _ := r.field("tab").(string)
	closeTab(t, tab)
	for _, tc := range []struct{ cmd, want string }{
		{`{"steps":[{"openTab":"file:///etc/passwd"}]}`, "CDP_SKILL_FILE_DIRS"},
		{`{"tab":"` + tab + `","steps":[{"goto":"file:///etc/passwd"}]}`, "CDP_SKILL_FILE_DIRS"},
		{`{"tab":"` + tab + `","steps":[{"goto":"FILE:///etc/passwd"}]}`, "CDP_SKILL_FILE_DIRS"},
		{`{"tab":"` + tab + `","steps":[{"goto":"view-source:file:///etc/passwd"}]}`, "CDP_SKILL_FILE_DIRS"},
		{`{"tab":"` + tab + `","steps":[{"goto":"chrome://version"}]}`, "CDP_SKILL_ALLOW_SCHEMES=chrome"},
		{`{"tab":"` + tab + `","steps":[{"goto":"file://` + files + `/local.html"}]}`, "CDP_SKILL_FILE_DIRS"},
	} {
		r := cli(t, dir, nil, tc.cmd)
		mustAnswerJSON(t, tc.cmd, r)
		if r.code != 1 || !strings.Contains(string(r.stdout), tc.want) {
			t.Errorf("%s: want a refusal naming %s, got exit %d %s", tc.cmd, tc.want, r.code, r.stdout)
		}
	}
	r = cli(t, dir, nil, `{"tab":"`+tab+`","steps":[{"pageFunction":"location.href = 'file:///etc/passwd'; 1"},{"wait":300},{"pageFunction":"location.protocol + document.body.innerText.slice(0, 40)"}]}`)
	if strings.Contains(fmt.Sprint(r.field("steps", "2", "output")), "root:") {
		t.Fatalf("the page navigated itself to a local file: %s", r.stdout)
	}

	env := []string{"CDP_SKILL_FILE_DIRS=" + files}
	r = cliEnv(t, dir, env, `{"tab":"`+tab+`","steps":[{"goto":"file://`+files+`/local.html"},{"pageFunction":"document.body.innerText"}]}`)
	if r.code != 0 || r.field("steps", "1", "output") != "local file" {
		t.Fatalf("a file in an allowed directory: exit %d %s", r.code, r.stdout)
	}
	r = cliEnv(t, dir, env, `{"tab":"`+tab+`","steps":[{"goto":"file:///etc/passwd"}]}`)
	if r.code != 1 || !strings.Contains(string(r.stdout), "outside the allowed directories") {
		t.Fatalf("a file outside the allowed directory: exit %d %s", r.code, r.stdout)
	}
}

// TestNumbersOutOfRange gives waits, timeouts and coordinates no page can
// have: each is refused with a message naming the range, and a step that
// runs out of time says which step and what it was doing.
func TestNumbersOutOfRange(t *testing.T) {
	base := page(t)
	dir := t.TempDir()
	r := cli(t, dir, nil, `{"steps":[{"openTab":"`+base+`products.html"}]}`)
	tab, _ := r.field("tab").(string)
	closeTab(t, tab)
	for _, tc := range []struct{ cmd, want string }{
		{`{"steps":[{"wait":1000000000000000}]}`, "more than an hour"},
		{`{"timeout":0,"steps":[{"wait":10}]}`, "below 1 ms"},
		{`{"timeout":0.5,"steps":[{"wait":10}]}`, "below 1 ms"},
		{`{"timeout":1.5,"steps":[{"wait":10}]}`, "whole number"},
		{`{"tab":"` + tab + `","steps":[{"click":{"selector":"#nope","timeout":0}}]}`, "below 1 ms"},
		{`{"tab":"` + tab + `","steps":[{"click":{"x":1e308,"y":10}}]}`, "outside any viewport"},
		{`{"tab":"` + tab + `","steps":[{"elementsAt":{"x":10,"y":-1e9}}]}`, "must be 0 or more"},
	} {
		r := cli(t, dir, nil, tc.cmd)
		mustAnswerJSON(t, tc.cmd, r)
		if r.code != 1 || !strings.Contains(string(r.stdout), tc.want) {
			t.Errorf("%s: want an error saying %q, got exit %d %s", tc.cmd, tc.want, r.code, r.stdout)
		}
	}
	// A timeout above the maximum is clamped, with a warning (spec §18.3).
	for _, cmd := range []string{`{"timeout":1e300,"steps":[{"wait":10}]}`, `{"steps":[{"wait":10,"timeout":1e300}]}`} {
		r := cli(t, dir, nil, cmd)
		mustAnswerJSON(t, cmd, r)
		if r.code != 0 || !strings.Contains(string(r.stdout), "above the maximum of 300000 ms (5 minutes), so 300000 ms was used") {
			t.Errorf("%s: want it clamped with a warning, got exit %d %s", cmd, r.code, r.stdout)
		}
	}
	os.WriteFile(filepath.Join(dir, "t.star"), []byte("click(selector = '#nope', timeout = 1e300)\n"), 0o644)
	r = cli(t, dir, nil, "run", "t.star", "--tab", tab)
	if r.code != 1 || !strings.Contains(string(r.stdout), "above the maximum") {
		t.Errorf("a recipe timeout of 1e300: exit %d %s", r.code, r.stdout)
	}
	// No fill completes its round trips to Chrome within 1 ms.
	r = cli(t, dir, nil, `{"tab":"`+tab+`","steps":[{"wait":10},{"fill":{"selector":"input","value":"x"},"timeout":1}]}`)
	msg := fmt.Sprint(r.field("steps", "1", "error"))
	if r.code != 1 || !strings.Contains(msg, "step 2 (fill)") || !strings.Contains(msg, "1ms timeout") {
		t.Errorf("a step that ran out of time: want which step and what it waited for, got %s", r.stdout)
	}
}

// downloadServer serves a page whose link downloads a script under a name
// the page picks, and a page that starts that download on load.
func downloadServer(t *testing.T) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/autorun.sh", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Disposition", `attachment; filename="autorun.sh"`)
		w.Write([]byte("#!/bin/sh\necho owned\n"))
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<title>Free stuff</title><a id="dl" href="/autorun.sh">Get it</a>`))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestDownloadsAreDeniedOrConfinedAndReported lets a page start a
// download: by default it is denied and reported; with downloads allowed
// it is saved in the output directory's downloads folder (never the
// user's Downloads), not executable, and reported with its path.
func TestDownloadsAreDeniedOrConfinedAndReported(t *testing.T) {
	base := downloadServer(t)
	// Not t.TempDir: the resident process the first command starts works
	// in both, and may still write in them when the test ends.
	dir, stateDir := looseTempDir(t, "cdp-dl-"), looseTempDir(t, "cdp-dl-state-")
	env := []string{"CDP_SKILL_STATE_DIR=" + stateDir}
	home, _ := os.UserHomeDir()
	stray := filepath.Join(home, "Downloads", "autorun.sh")
	os.Remove(stray)
	r := cliEnv(t, dir, env, `{"steps":[{"openTab":"`+base+`/"}]}`)
	tab, _ := r.field("tab").(string)
	t.Cleanup(func() { cliEnv(t, dir, env, `{"steps":[{"closeTab":"`+tab+`"}]}`) })
	// The page clicks its own link (no click step: this is the page's
	// doing); waitForDownload waits for it.
	const pageClicks = `{"pageFunction":"document.getElementById('dl').click(); 1"},{"waitForDownload":true,"optional":true}`
	r = cliEnv(t, dir, env, `{"tab":"`+tab+`","steps":[`+pageClicks+`]}`)
	dl, _ := r.field("downloads", "0").(map[string]any)
	if dl["state"] != "denied" || dl["suggestedFilename"] != "autorun.sh" || !strings.Contains(fmt.Sprint(dl["note"]), "CDP_SKILL_DOWNLOADS=allow") {
		t.Errorf("a download by default: want it denied and reported, got %s", r.stdout)
	}
	if _, err := os.Stat(stray); err == nil {
		t.Errorf("the page's download landed in %s", stray)
	}
	env = append(env, "CDP_SKILL_DOWNLOADS=allow")
	r = cliEnv(t, dir, env, `{"tab":"`+tab+`","steps":[`+pageClicks+`]}`)
	dl, _ = r.field("downloads", "0").(map[string]any)
	path, _ := dl["path"].(string)
	if dl["state"] != "completed" || path != filepath.Join(dir, "downloads", "autorun.sh") {
		t.Fatalf("an allowed download: want it saved in the output dir's downloads folder, got %s", r.stdout)
	}
	info, err := os.Stat(path)
	if data, rerr := os.ReadFile(path); rerr != nil || !strings.Contains(string(data), "echo owned") || err != nil || info.Mode().Perm()&0o111 != 0 {
		t.Errorf("the saved download: %q %v %v", data, rerr, info.Mode())
	}
	if _, err := os.Stat(stray); err == nil {
		t.Errorf("the page's download landed in %s", stray)
	}
}

// TestStepBudgetCoversLoadedModules loads two modules that each spend a
// third of the step budget and spends another third in the recipe: the
// budget is the whole program's, so the run stops.
func TestStepBudgetCoversLoadedModules(t *testing.T) {
	dir := t.TempDir()
	burn := "def burn(n):\n    for i in range(n):\n        pass\n"
	os.WriteFile(filepath.Join(dir, "a.star"), []byte(burn+"burn(30000)\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "b.star"), []byte(burn+"burn(30000)\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "one.star"), []byte(burn+"burn(30000)\nresult = 'done'\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "main.star"), []byte("load('a.star', 'burn')\nload('b.star', b = 'burn')\nburn(30000)\nresult = 'done'\n"), 0o644)
	// One third of the work fits the budget...
	r := cli(t, dir, nil, "run", "one.star", "--max-steps", "300000")
	if r.code != 0 || r.field("result") != "done" {
		t.Fatalf("one third of the work: exit %d %s", r.code, r.stdout)
	}
	// ...three thirds, spread over modules, do not.
	r = cli(t, dir, nil, "run", "main.star", "--max-steps", "300000")
	mustAnswerJSON(t, "budget", r)
	if r.code != 1 || !strings.Contains(string(r.stdout), "too many steps") {
		t.Fatalf("loaded modules ran on budgets of their own: exit %d %s", r.code, r.stdout)
	}
}

// TestLargeAnswersSpill returns a 5 MB result: the answer stays small and
// names the file that holds all of it.
func TestLargeAnswersSpill(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "big.star"), []byte("result = {'rows': ['x' * 1000 for i in range(5000)]}\n"), 0o644)
	r := cli(t, dir, nil, "run", "big.star")
	mustAnswerJSON(t, "big result", r)
	if len(r.stdout) > 600<<10 {
		t.Fatalf("a 5 MB result came back inline: %d bytes", len(r.stdout))
	}
	file, _ := r.field("result", "file").(string)
	data, err := os.ReadFile(file)
	if r.code != 0 || r.field("result", "truncated") != true || err != nil || len(data) < 5_000_000 {
		t.Fatalf("spilled result: exit %d, file %q (%d bytes, %v): %.300s", r.code, file, len(data), err, r.stdout)
	}
}

// TestEndlessRecipeFileIsRefused (issue 31, item 8): `run /dev/zero` is
// refused as a device instead of reading forever, and a recipe file over
// the limit is read at most to the limit and answers a PARSE error saying
// so; the same for `check`.
func TestEndlessRecipeFileIsRefused(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.star")
	if err := os.WriteFile(big, bytes.Repeat([]byte("x = 1\n"), 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ file, want string }{{"/dev/zero", "is a device"}, {big, "more than 4 MiB"}} {
		for _, args := range [][]string{{"run", tc.file, "--timeout", "3s"}, {"check", tc.file}} {
			r := cli(t, dir, nil, args...)
			mustAnswerJSON(t, args[0]+" "+tc.file, r)
			if !strings.Contains(string(r.stdout), tc.want) {
				t.Fatalf("%s %s: exit %d %.400s", args[0], tc.file, r.code, r.stdout)
			}
		}
	}
}

// TestRunTimeoutOutOfRangeIsRefused (issue 31, Low): run --timeout -5s, 0
// or 99999h is a VALIDATION error naming the range, not a recipe run
// without a deadline.
func TestRunTimeoutOutOfRangeIsRefused(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "r.star"), []byte("result = 1\n"), 0o644)
	for _, d := range []string{"-5s", "0", "99999h"} {
		r := cli(t, dir, nil, "run", "r.star", "--timeout", d)
		mustAnswerJSON(t, "run --timeout "+d, r)
		if r.field("error", "type") != "VALIDATION" || !strings.Contains(fmt.Sprint(r.field("error", "message")), "out of range") {
			t.Fatalf("run --timeout %s: exit %d %.300s", d, r.code, r.stdout)
		}
	}
	if r := cli(t, dir, nil, "run", "r.star", "--timeout", "30s"); r.code != 0 {
		t.Fatalf("run --timeout 30s: exit %d %.300s", r.code, r.stdout)
	}
}
