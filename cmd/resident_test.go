package cmd

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
	"github.com/cdp-skill/cdp-skill/browser/state"
)

// residentEnv gives a test its own state dir (so its own resident process)
// and returns the environment for cli runs.
func residentTestEnv(t *testing.T) []string {
	t.Helper()
	c := browsertest.Require(t)
	dir := looseTempDir(t, "cdp-rs-")
	return append(os.Environ(), EnvPort+"="+strconv.Itoa(c.Port), EnvHeadless+"=1", state.EnvDir+"="+dir, EnvResidentIdle+"=2m")
}

// looseTempDir is a temporary directory that a resident process the test
// started may still write in when the test ends (the screenshot after an
// answer, a tab's files): unlike t.TempDir, its removal at the end never
// fails the test.
func looseTempDir(t *testing.T, prefix string) string {
	t.Helper()
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// runEnv runs the binary with exactly env in dir.
func runEnv(t *testing.T, env []string, dir string, args ...string) result {
	t.Helper()
	return runBinary(t, env, dir, nil, args...)
}

// residentOf waits until a resident process answers `chrome status` and
// returns it.
func residentOf(t *testing.T, env []string) residentStatus {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		r := runEnv(t, env, t.TempDir(), "chrome", "status", "--no-launch")
		var st struct {
			Resident []residentStatus `json:"resident"`
		}
		json.Unmarshal(r.stdout, &st)
		if len(st.Resident) == 1 {
			return st.Resident[0]
		}
		if time.Now().After(deadline) {
			t.Fatalf("no resident process came up: %s", r.stdout)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// residentCounterPage is a page whose button counts its clicks.
const residentCounterPage = `<!doctype html><title>Counter</title><main><h1>Counter</h1>
<button id="add" onclick="document.getElementById('n').textContent = ++window.clicks">Add</button>
<p>Count: <span id="n">0</span></p></main><script>window.clicks = 0</script>`

func clicksOf(t *testing.T, env []string, tab string) string {
	t.Helper()
	r := runEnv(t, env, t.TempDir(), `{"tab":"`+tab+`","steps":[{"pageFunction":"() => String(window.clicks)"}]}`)
	v, _ := r.field("steps", "0", "output").(string)
	return v
}

// TestResidentServesLaterCommandsOnce checks the warm path end to end: the
// first command runs directly and starts the resident process; later
// commands (from any working directory) go through it, each click happens
// once, the answer's screenshot appears, and the socket is private.
func TestResidentServesLaterCommandsOnce(t *testing.T) {
	env := residentTestEnv(t)
	tab := openResidentCounter(t, env)
	st := residentOf(t, env)
	// The tab's files are named once (the first click sets its capture,
	// which names them again); every command's capture rewrites them.
	var shot string
	for i := 1; i <= 3; i++ {
		capture := ""
		if i == 1 {
			capture = `"capture":"full",`
		}
		r := runEnv(t, env, t.TempDir(), `{"tab":"`+tab+`",`+capture+`"steps":[{"click":"#add"}]}`)
		if r.code != 0 || r.field("status") != "ok" || r.field("viewportSnapshot") == nil {
			t.Fatalf("click %d: %s", i, r.stdout)
		}
		if i == 1 {
			if shot, _ = r.field("screenshot").(string); shot == "" {
				t.Fatalf("click %d names no screenshot: %s", i, r.stdout)
			}
		}
		waitPNG(t, shot)
		os.Remove(shot)
	}
	if got := clicksOf(t, env, tab); got != "3" {
		t.Fatalf("three clicks through the resident process ran the handler %s times", got)
	}
	after := residentOf(t, env)
	if after.PID != st.PID || after.Commands < 4 {
		t.Fatalf("the commands did not go through the resident process: before %+v, after %+v", st, after)
	}
	info, err := os.Stat(after.Socket)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("socket mode: %v %v", info, err)
	}
	if d, err := os.Stat(filepath.Dir(after.Socket)); err != nil || d.Mode().Perm() != 0o700 {
		t.Fatalf("socket dir mode: %v %v", d, err)
	}
}

// waitPNG waits for the deferred screenshot and checks it is a whole PNG.
func waitPNG(t *testing.T, path string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		data, err := os.ReadFile(path)
		if err == nil {
			if !bytes.HasPrefix(data, []byte("\x89PNG")) || !bytes.Contains(data[len(data)-12:], []byte("IEND")) {
				t.Fatalf("%s is not a whole PNG (%d bytes)", path, len(data))
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("screenshot %s never appeared: %v", path, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestResidentKilledFallsBackOrSaysSo kills the resident process between
// commands (the next command runs directly and starts a new one) and during
// a command (the answer says the steps may have partly run — it does not
// run them again).
func TestResidentKilledFallsBackOrSaysSo(t *testing.T) {
	env := residentTestEnv(t)
	// The page tells the server of each click, so the test knows when the
	// long command's first click has run without touching the locked tab.
	var hits atomic.Int64
	page := strings.Replace(residentCounterPage, `onclick="`, `onclick="fetch('/hit'); `, 1)
	base := browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hit" {
			hits.Add(1)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(page))
	}))
	r := runEnv(t, env, t.TempDir(), `{"steps":[{"openTab":"`+base+`counter.html"}]}`)
	tab, _ := r.field("tab").(string)
	defer runEnv(t, env, t.TempDir(), `{"steps":[{"closeTab":"`+tab+`"}]}`)
	first := residentOf(t, env)
	syscall.Kill(first.PID, syscall.SIGKILL)
	r = runEnv(t, env, t.TempDir(), `{"tab":"`+tab+`","steps":[{"click":"#add"}]}`)
	if r.code != 0 {
		t.Fatalf("click after the resident process died: %s", r.stdout)
	}
	if got := clicksOf(t, env, tab); got != "1" {
		t.Fatalf("the click after the resident process died ran %s times", got)
	}
	second := residentOf(t, env)
	if second.PID == first.PID {
		t.Fatalf("no new resident process: %+v", second)
	}
	done := make(chan result, 1)
	go func() {
		done <- runEnv(t, env, t.TempDir(), `{"tab":"`+tab+`","steps":[{"click":"#add"},{"wait":4000},{"click":"#add"}]}`)
	}()
	deadline := time.Now().Add(20 * time.Second)
	for hits.Load() < 2 { // the long command's first click ran; its wait runs
		if time.Now().After(deadline) {
			t.Fatal("the long command's first click never ran")
		}
		time.Sleep(20 * time.Millisecond)
	}
	syscall.Kill(second.PID, syscall.SIGKILL)
	var mid result
	select {
	case mid = <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the command whose resident process died never answered")
	}
	msg, _ := mid.field("error", "message").(string)
	if mid.code != 1 || mid.field("error", "type") != "CONNECTION" || !strings.Contains(msg, "may have partly run") {
		t.Fatalf("answer of a command whose resident process died: %s", mid.stdout)
	}
	if got := clicksOf(t, env, tab); got != "2" {
		t.Fatalf("after a resident death mid-command the handler ran %s times in all, want 2 (not repeated)", got)
	}
}

// residentOfNow returns the resident process's state, or a zero one.
func residentOfNow(t *testing.T, env []string) residentStatus {
	t.Helper()
	r := runEnv(t, env, t.TempDir(), "chrome", "status", "--no-launch")
	var st struct {
		Resident []residentStatus `json:"resident"`
	}
	json.Unmarshal(r.stdout, &st)
	if len(st.Resident) == 0 {
		return residentStatus{}
	}
	return st.Resident[0]
}

// TestResidentOffAndStop checks CDP_SKILL_RESIDENT=0 (no process, no
// socket) and that `chrome stop` ends the resident processes of its port
// only.
func TestResidentOffAndStop(t *testing.T) {
	env := residentTestEnv(t)
	off := append(append([]string{}, env...), EnvResident+"=0")
	r := runEnv(t, off, t.TempDir(), `{"steps":[{"chromeStatus":{"autoLaunch":false}}]}`)
	if r.code != 0 {
		t.Fatalf("status: %s", r.stdout)
	}
	time.Sleep(300 * time.Millisecond)
	var dir string
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, state.EnvDir+"="); ok {
			dir = v
		}
	}
	if socks, _ := filepath.Glob(filepath.Join(dir, "resident", "*.sock")); len(socks) != 0 {
		t.Fatalf("CDP_SKILL_RESIDENT=0 still started a resident process: %v", socks)
	}
	runEnv(t, env, t.TempDir(), `{"steps":[{"chromeStatus":{"autoLaunch":false}}]}`)
	st := residentOf(t, env)
	other := runEnv(t, env, t.TempDir(), "chrome", "stop", "--port", "1")
	if other.field("residentStopped") != nil || residentOfNow(t, env).PID != st.PID {
		t.Fatalf("chrome stop of another port ended this port's resident process: %s", other.stdout)
	}
	// The shared test Chrome must keep running, so stop the resident
	// process the way `chrome stop` does, without stopping Chrome.
	previous := state.SetDir(dir)
	t.Cleanup(func() { state.SetDir(previous) })
	list := residents(st.Endpoint, true)
	if len(list) != 1 {
		t.Fatalf("stop: %+v", list)
	}
	deadline := time.Now().Add(10 * time.Second)
	for syscall.Kill(st.PID, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("resident process %d still runs after stop", st.PID)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "resident", "*")); len(left) != 0 {
		t.Fatalf("the resident process ended and left its files: %v", left)
	}
}

// TestResidentKilledFilesAreRemoved: a resident process killed outright
// leaves its socket and lock file; `chrome status` removes them (a live
// process's files stay), and the next command starts a new process.
func TestResidentKilledFilesAreRemoved(t *testing.T) {
	env := residentTestEnv(t)
	var dir string
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, state.EnvDir+"="); ok {
			dir = v
		}
	}
	status := `{"steps":[{"chromeStatus":{"autoLaunch":false}}]}`
	runEnv(t, env, t.TempDir(), status)
	st := residentOf(t, env)
	files := func() []string {
		list, _ := filepath.Glob(filepath.Join(dir, "resident", "*"))
		return list
	}
	if got := files(); len(got) != 2 {
		t.Fatalf("a live resident process has %v, want its socket and lock file", got)
	}
	syscall.Kill(st.PID, syscall.SIGKILL)
	deadline := time.Now().Add(10 * time.Second)
	for syscall.Kill(st.PID, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("resident process %d survived SIGKILL", st.PID)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got := files(); len(got) != 2 {
		t.Fatalf("a killed resident process left %v, want its socket and lock file (the case this test is about)", got)
	}
	if r := runEnv(t, env, t.TempDir(), "chrome", "status", "--no-launch"); r.code != 0 || r.field("resident") != nil {
		t.Fatalf("chrome status after the kill: %s", r.stdout)
	}
	if got := files(); len(got) != 0 {
		t.Fatalf("chrome status left a killed resident process's files: %v", got)
	}
	if r := runEnv(t, env, t.TempDir(), status); r.code != 0 {
		t.Fatalf("command after the kill: %s", r.stdout)
	}
	if next := residentOf(t, env); next.PID == st.PID {
		t.Fatalf("no new resident process after the kill: %+v", next)
	}
	runEnv(t, env, t.TempDir(), "chrome", "status", "--no-launch")
	if got := files(); len(got) != 2 {
		t.Fatalf("chrome status touched a live resident process's files: %v", got)
	}
}

// TestResidentParallelCommandsActOnce runs commands in parallel through the
// resident process: six clicks on one tab (serialized by the tab's lock)
// and one click on each of three other tabs, from several working
// directories. Every click runs its handler exactly once.
func TestResidentParallelCommandsActOnce(t *testing.T) {
	env := residentTestEnv(t)
	base := browsertest.Serve(t, fstest.MapFS{"counter.html": {Data: []byte(residentCounterPage)}})
	var tabs []string
	for range 4 {
		r := runEnv(t, env, t.TempDir(), `{"steps":[{"openTab":"`+base+`counter.html"}]}`)
		tab, _ := r.field("tab").(string)
		if tab == "" {
			t.Fatalf("openTab: %s", r.stdout)
		}
		tabs = append(tabs, tab)
		defer runEnv(t, env, t.TempDir(), `{"steps":[{"closeTab":"`+tab+`"}]}`)
	}
	residentOf(t, env)
	dirs := []string{t.TempDir(), t.TempDir()}
	jobs := []string{tabs[0], tabs[0], tabs[0], tabs[0], tabs[0], tabs[0], tabs[1], tabs[2], tabs[3]}
	errs := make(chan string, len(jobs))
	for i, tab := range jobs {
		go func() {
			r := runEnv(t, env, dirs[i%2], `{"tab":"`+tab+`","capture":"compact","steps":[{"click":"#add"}]}`)
			if r.code != 0 {
				errs <- string(r.stdout)
				return
			}
			errs <- ""
		}()
	}
	for range jobs {
		if e := <-errs; e != "" {
			t.Errorf("a parallel click failed: %s", e)
		}
	}
	want := map[string]string{tabs[0]: "6", tabs[1]: "1", tabs[2]: "1", tabs[3]: "1"}
	for tab, n := range want {
		if got := clicksOf(t, env, tab); got != n {
			t.Errorf("tab %s: the handler ran %s times, want %s", tab, got, n)
		}
	}
}

// TestResidentCommandStateEndsWithTheCommand: what lasts only as long as a
// command on its own connection (viewport, geolocation) ends with the
// command through the resident process too, and a dialog that opens
// between commands is reported once, by the next command, whether that one
// runs through the resident process or directly.
func TestResidentCommandStateEndsWithTheCommand(t *testing.T) {
	env := residentTestEnv(t)
	direct := append(append([]string{}, env...), EnvResident+"=0")
	tab := openResidentCounter(t, env)
	residentOf(t, env)
	r := runEnv(t, env, t.TempDir(), `{"tab":"`+tab+`","steps":[{"viewport":{"width":500,"height":400}},{"pageFunction":"() => innerWidth"}]}`)
	if r.field("steps", "1", "output") != float64(500) {
		t.Fatalf("viewport in its command: %s", r.stdout)
	}
	for _, e := range [][]string{env, direct} {
		r = runEnv(t, e, t.TempDir(), `{"tab":"`+tab+`","steps":[{"pageFunction":"() => innerWidth"}]}`)
		if r.field("steps", "0", "output") != float64(1280) {
			t.Fatalf("the viewport outlasted its command: %s", r.stdout)
		}
	}
	// A dialog between commands, reported by a direct command, then not
	// again by the resident process.
	for _, next := range [][]string{direct, env} {
		armed := false
		for _, delay := range []string{"800", "2000", "4000"} {
			r = runEnv(t, env, t.TempDir(), `{"tab":"`+tab+`","capture":"none","steps":[{"pageFunction":"() => { setTimeout(() => alert('between'), `+delay+`); return 1 }"}]}`)
			if r.code == 0 && r.field("steps", "0", "dialogs") == nil {
				armed = true
				break
			}
			// It opened during the arming command itself (a loaded
			// machine): arm a later one.
		}
		if !armed {
			t.Fatalf("the timer's dialog always opened during the arming command: %s", r.stdout)
		}
		time.Sleep(6500 * time.Millisecond) // past the timer and the keeper's grace
		first := runEnv(t, next, t.TempDir(), `{"tab":"`+tab+`","capture":"none","steps":[{"sleep":0}]}`)
		again := runEnv(t, env, t.TempDir(), `{"tab":"`+tab+`","capture":"none","steps":[{"sleep":0}]}`)
		got, dup := jsonOf(first.field("steps", "0", "dialogs")), jsonOf(again.field("steps", "0", "dialogs"))
		if strings.Count(got, `"message":"between"`) != 1 || !strings.Contains(got, `"betweenCommands":true`) || strings.Contains(dup, "between") {
			t.Fatalf("dialog between commands: next command %s, the one after %s", got, dup)
		}
	}
}

// TestResidentDirectoryMadeAgainIsNotTrusted: a command from a directory
// deleted and made again (same path, another directory) writes its files
// into the new directory, not the old one's ghost.
func TestResidentDirectoryMadeAgainIsNotTrusted(t *testing.T) {
	env := residentTestEnv(t)
	tab := openResidentCounter(t, env)
	residentOf(t, env)
	work := filepath.Join(t.TempDir(), "work")
	for i := range 2 {
		os.RemoveAll(work)
		if err := os.Mkdir(work, 0o755); err != nil {
			t.Fatal(err)
		}
		withOut := append(append([]string{}, env...), "CDP_SKILL_OUTPUT_DIR="+work)
		r := runEnv(t, withOut, work, `{"tab":"`+tab+`","steps":[{"screenshot":"shot.png"}]}`)
		if r.code != 0 {
			t.Fatalf("screenshot %d: %s", i, r.stdout)
		}
		if _, err := os.Stat(filepath.Join(work, "shot.png")); err != nil {
			t.Fatalf("screenshot %d is not in the directory the command ran in: %v (%s)", i, err, r.stdout)
		}
	}
}

// TestResidentThatStopsAnsweringIsLeft: a resident process frozen during a
// command (SIGSTOP) is given up after its silence bound, with the answer
// that says the steps may have partly run.
func TestResidentThatStopsAnsweringIsLeft(t *testing.T) {
	env := residentTestEnv(t)
	base := browsertest.Serve(t, fstest.MapFS{"counter.html": {Data: []byte(residentCounterPage)}})
	r := runEnv(t, env, t.TempDir(), `{"steps":[{"openTab":"`+base+`counter.html"}]}`)
	tab, _ := r.field("tab").(string)
	st := residentOf(t, env)
	defer func() {
		syscall.Kill(st.PID, syscall.SIGCONT)
		syscall.Kill(st.PID, syscall.SIGKILL)
		runEnv(t, env, t.TempDir(), `{"steps":[{"closeTab":"`+tab+`"}]}`)
	}()
	done := make(chan result, 1)
	go func() { done <- runEnv(t, env, t.TempDir(), `{"tab":"`+tab+`","steps":[{"wait":3000}]}`) }()
	deadline := time.Now().Add(20 * time.Second)
	for residentOfNow(t, env).Running == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the command never reached the resident process")
		}
		time.Sleep(50 * time.Millisecond)
	}
	syscall.Kill(st.PID, syscall.SIGSTOP)
	select {
	case r := <-done:
		msg, _ := r.field("error", "message").(string)
		if r.code != 1 || !strings.Contains(msg, "stopped answering") {
			t.Fatalf("answer of a command whose resident process froze: %s", r.stdout)
		}
	case <-time.After(40 * time.Second):
		t.Fatal("the CLI waited on a frozen resident process")
	}
}

// TestResidentTakesProgramSettingsPerCommand: commands whose capture preset
// and output dir differ (CDP_SKILL_CAPTURE, CDP_SKILL_OUTPUT_DIR) go
// through the one resident process, and each answers with its own
// settings: no second process per value.
func TestResidentTakesProgramSettingsPerCommand(t *testing.T) {
	env := residentTestEnv(t)
	tab := openResidentCounter(t, env)
	st := residentOf(t, env)
	with := func(kv ...string) []string { return append(append([]string{}, env...), kv...) }
	click := `{"tab":"` + tab + `","steps":[{"click":"#add"}]}`
	none := runEnv(t, with("CDP_SKILL_CAPTURE=none"), t.TempDir(), click)
	if none.code != 0 || none.field("screenshot") != nil || none.field("viewportSnapshot") != nil {
		t.Fatalf("click with CDP_SKILL_CAPTURE=none answered with a capture: %s", none.stdout)
	}
	// The default capture (its files named in the tab's first answer,
	// then only when the command sets its capture).
	full := runEnv(t, env, t.TempDir(), `{"tab":"`+tab+`","capture":"full","steps":[{"click":"#add"}]}`)
	shot, _ := full.field("screenshot").(string)
	if full.code != 0 || shot == "" {
		t.Fatalf("click with the full capture names no screenshot: %s", full.stdout)
	}
	waitPNG(t, shot)
	os.Remove(shot)
	if def := runEnv(t, env, t.TempDir(), click); def.code != 0 || def.field("viewportSnapshot") == nil {
		t.Fatalf("click with the default capture answered no capture: %s", def.stdout)
	}
	waitPNG(t, shot)
	for _, name := range []string{"a", "b"} {
		out := t.TempDir()
		r := runEnv(t, with("CDP_SKILL_OUTPUT_DIR="+out, "CDP_SKILL_CAPTURE=none"), t.TempDir(), `{"tab":"`+tab+`","steps":[{"screenshot":"`+name+`.png"}]}`)
		if r.code != 0 {
			t.Fatalf("screenshot %s: %s", name, r.stdout)
		}
		if _, err := os.Stat(filepath.Join(out, name+".png")); err != nil {
			t.Fatalf("screenshot %s is not in its command's CDP_SKILL_OUTPUT_DIR: %v (%s)", name, err, r.stdout)
		}
	}
	if got := clicksOf(t, env, tab); got != "3" {
		t.Fatalf("three clicks ran the handler %s times", got)
	}
	after := residentOf(t, env) // exactly one
	if after.PID != st.PID || after.Commands < st.Commands+5 {
		t.Fatalf("the commands with other settings did not all go through the one resident process: before %+v, after %+v", st, after)
	}
}

// openResidentCounter opens the counter page in a new tab (closed when the
// test ends) and returns its alias.
func openResidentCounter(t *testing.T, env []string) string {
	t.Helper()
	return openResidentTab(t, env, browsertest.Serve(t, fstest.MapFS{"counter.html": {Data: []byte(residentCounterPage)}})+"counter.html")
}

// openResidentTab opens url in a new tab (closed when the test ends) and
// returns its alias.
func openResidentTab(t *testing.T, env []string, url string) string {
	t.Helper()
	r := runEnv(t, env, t.TempDir(), `{"steps":[{"openTab":"`+url+`"}]}`)
	tab, _ := r.field("tab").(string)
	if r.code != 0 || tab == "" {
		t.Fatalf("openTab: %s", r.stdout)
	}
	t.Cleanup(func() { runEnv(t, env, t.TempDir(), `{"steps":[{"closeTab":"`+tab+`"}]}`) })
	return tab
}
