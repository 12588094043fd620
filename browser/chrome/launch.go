package chrome

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/state"
)

// ErrLaunch is wrapped by errors from a launch that did not bring up an
// endpoint.
var ErrLaunch = errors.New("chrome launch failed")

// LaunchOptions tunes a launch.
type LaunchOptions struct {
	// Headless forces --headless=new. Without a display Chrome is always
	// headless.
	Headless bool
	// Timeout bounds the wait for the endpoint to answer (default 10 s).
	Timeout time.Duration
	// Warn receives notes on a launch that went ahead anyway (CHROME_PATH
	// names no file, so the usual places were searched).
	Warn func(string)
	// Host says which Chrome to start and whether there is a display.
	Host Host
}

// Process describes a Chrome that cdp-skill launched; it is stored in the
// state dir so that `cdp-skill chrome stop` ends exactly that process.
type Process struct {
	PID         int    `json:"pid"`
	Port        int    `json:"port"`
	Executable  string `json:"executable"`
	UserDataDir string `json:"userDataDir"`
	Headless    bool   `json:"headless"`
	Started     string `json:"started"`
}

func pidFile(port int) (string, error) {
	return state.Path("chrome-" + strconv.Itoa(port) + ".json")
}

// ProfileDir is the user data dir of the Chrome launched for port.
func ProfileDir(port int) string {
	return filepath.Join(state.Dir(), "chrome-"+strconv.Itoa(port))
}

// Args returns the command-line flags for a Chrome on port, headless or
// not.
func Args(port int, headless bool) []string {
	args := []string{
		"--remote-debugging-port=" + strconv.Itoa(port),
		"--remote-debugging-address=127.0.0.1",
		"--user-data-dir=" + ProfileDir(port),
		"--no-first-run",
		"--no-default-browser-check",
		"--disable-background-networking",
		"--disable-component-update",
		"--disable-sync",
		"--disable-default-apps",
		"--disable-features=Translate,MediaRouter,OptimizationHints",
		"--disable-renderer-backgrounding",
		"--disable-background-timer-throttling",
		"--disable-backgrounding-occluded-windows",
		"--password-store=basic",
		"--use-mock-keychain",
		"--window-size=1280,800",
	}
	if os.Geteuid() == 0 {
		args = append(args, "--no-sandbox")
	}
	if headless {
		args = append(args, "--headless=new", "--hide-scrollbars", "--mute-audio")
	}
	return append(args, "about:blank")
}

// Detach makes cmd run in its own session, so that it outlives this
// process and does not receive its signals (as Chrome does).
func Detach(cmd *exec.Cmd) { detach(cmd) }

// Launch starts a detached Chrome with remote debugging on port and waits
// until its endpoint answers.
func Launch(ctx context.Context, port int, opts LaunchOptions) (*Process, error) {
	exe, warning, err := Find(opts.Host)
	if err != nil {
		return nil, err
	}
	if warning != "" && opts.Warn != nil {
		opts.Warn(warning)
	}
	// The profile must be one only this user controls: a planted
	// Default/Preferences would steer Chrome (where downloads go).
	if _, err := state.EnsureSubdir(filepath.Base(ProfileDir(port))); err != nil {
		return nil, fmt.Errorf("%w: profile dir: %w", ErrLaunch, err)
	}
	if err := writeProfilePrefs(ProfileDir(port)); err != nil {
		return nil, fmt.Errorf("%w: profile preferences: %v", ErrLaunch, err)
	}
	logPath := filepath.Join(ProfileDir(port), "chrome.log")
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("%w: log file: %v", ErrLaunch, err)
	}
	defer logFile.Close()
	headless := opts.Headless || !opts.Host.Display
	cmd := exec.Command(exe, Args(port, headless)...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	detach(cmd)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%w: start %s: %v", ErrLaunch, exe, err)
	}
	proc := &Process{PID: cmd.Process.Pid, Port: port, Executable: exe, UserDataDir: ProfileDir(port),
		Headless: headless, Started: time.Now().UTC().Format(time.RFC3339)}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	deadline := time.Now().Add(timeout)
	ep := Endpoint{Port: port}
	for {
		if _, err := Version(ctx, ep); err == nil {
			if ownsPort(cmd.Process.Pid, port) {
				break
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				return nil, fmt.Errorf("%w: another process answers on port %d, not the Chrome just launched: %s", ErrLaunch, port, logTail(logPath))
			}
		}
		select {
		case err := <-exited:
			return nil, fmt.Errorf("%w: %s exited (%v) before its endpoint answered on port %d: %s", ErrLaunch, exe, err, port, logTail(logPath))
		case <-ctx.Done():
			cmd.Process.Kill()
			return nil, fmt.Errorf("%w: %v", ErrLaunch, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			return nil, fmt.Errorf("%w: port %d did not answer within %s (is another program using it?): %s", ErrLaunch, port, timeout, logTail(logPath))
		}
	}
	if p, err := pidFile(port); err == nil {
		data, _ := json.MarshalIndent(proc, "", "  ")
		if err := state.WriteFileAtomic(p, data, 0o600); err != nil {
			return proc, err
		}
	}
	return proc, nil
}

// portFree checks that nothing holds the port before a launch: a Chrome
// that is frozen (SIGSTOP) or overloaded keeps its port while not
// answering, and a second Chrome must never be started beside it.
func portFree(port int) error {
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		msg := fmt.Sprintf("port %d is taken by a process that does not answer as Chrome's DevTools endpoint", port)
		if proc, alive := Launched(port); alive {
			msg = fmt.Sprintf("the Chrome cdp-skill launched on port %d (pid %d) does not answer: it is frozen or overloaded. Wait and retry, or run `cdp-skill chrome stop --port %d` to end it", port, proc.PID, port)
		} else {
			msg += "; end that program or use another --port"
		}
		return fmt.Errorf("%w: %s", ErrLaunch, msg)
	}
	ln.Close()
	return nil
}

func logTail(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return "(no log)"
	}
	data = bytes.TrimSpace(data)
	if len(data) > 600 {
		data = data[len(data)-600:]
	}
	if len(data) == 0 {
		return "(empty log)"
	}
	return strings.ReplaceAll(string(data), "\n", " | ")
}

// Ensure returns the browser WebSocket URL of e, launching Chrome when e is
// local, nothing answers and autoLaunch is set. Concurrent callers serialize
// on a per-port lock so that only one of them launches.
func Ensure(ctx context.Context, e Endpoint, autoLaunch bool, opts LaunchOptions) (wsURL string, launched bool, err error) {
	e = e.Normalize()
	if ws := e.WebSocketURL(); ws != "" {
		return ws, false, nil
	}
	v, verr := Version(ctx, e)
	var nd *NotDevToolsError
	switch {
	case verr == nil:
		return v.WebSocketDebuggerURL, false, nil
	case errors.Is(ctx.Err(), context.Canceled):
		// The caller gave up (its client went away, an interrupt): that
		// says nothing about Chrome. (A deadline that passed does: it did
		// not answer in time.)
		return "", false, fmt.Errorf("cancelled before Chrome answered: %w", ctx.Err())
	case errors.As(verr, &nd) && !nd.Silent:
		// Something answered, and not as Chrome: waiting changes nothing.
		return "", false, nd
	case !autoLaunch || !e.Local():
		if nd != nil {
			return "", false, nd
		}
		return "", false, fmt.Errorf("no Chrome answers at %s (%v)", e, verr)
	}
	if err := portFree(e.Port); err != nil {
		// Something holds the port: an overloaded Chrome answers late, a
		// frozen one never. Never launch a second one beside it.
		ws, werr := awaitAnswer(ctx, e)
		if werr != nil && errors.Is(ctx.Err(), context.Canceled) {
			return "", false, fmt.Errorf("cancelled before Chrome answered: %w", ctx.Err())
		}
		if errors.As(werr, &nd) {
			return "", false, nd
		}
		if werr != nil {
			return "", false, err
		}
		return ws, false, nil
	}
	lockPath, err := state.Path("chrome-" + strconv.Itoa(e.Port) + ".lock")
	if err != nil {
		return "", false, err
	}
	lctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	unlock, err := state.Lock(lctx, lockPath)
	if err != nil {
		return "", false, fmt.Errorf("%w: %v", ErrLaunch, err)
	}
	defer unlock()
	// Another process may have launched it while we waited for the lock.
	if v, err := Version(ctx, e); err == nil {
		return v.WebSocketDebuggerURL, false, nil
	}
	if err := portFree(e.Port); err != nil {
		return "", false, err
	}
	noteCrash(e.Port)
	if _, err := Launch(ctx, e.Port, opts); err != nil {
		return "", false, err
	}
	v, err = Version(ctx, e)
	if err != nil {
		return "", true, fmt.Errorf("%w: launched but discovery failed: %v", ErrLaunch, err)
	}
	return v.WebSocketDebuggerURL, true, nil
}

// busyPatience is how long a command waits for a Chrome that holds its port
// but does not answer before calling it frozen.
const busyPatience = 15 * time.Second

// awaitAnswer polls the endpoint until it answers, busyPatience passes or
// ctx ends.
func awaitAnswer(ctx context.Context, e Endpoint) (string, error) {
	deadline := time.Now().Add(busyPatience)
	for {
		v, err := Version(ctx, e)
		if err == nil {
			return v.WebSocketDebuggerURL, nil
		}
		var nd *NotDevToolsError
		if time.Now().After(deadline) || ctx.Err() != nil || errors.As(err, &nd) && !nd.Silent {
			return "", err
		}
		select {
		case <-ctx.Done():
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// Launched returns the record of the Chrome cdp-skill launched on port, if
// that process still runs.
func Launched(port int) (*Process, bool) {
	p, err := pidFile(port)
	if err != nil {
		return nil, false
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, false
	}
	var proc Process
	if json.Unmarshal(data, &proc) != nil || proc.PID <= 0 {
		return nil, false
	}
	// The record must describe the Chrome of this port: a record naming
	// another port's Chrome (or profile) would have it stopped.
	if proc.Port != port || filepath.Clean(proc.UserDataDir) != ProfileDir(port) {
		return &proc, false
	}
	return &proc, isOurChrome(&proc)
}

// Stop ends the Chrome that cdp-skill launched on port, and only that one.
// It reports false when there was none.
func Stop(ctx context.Context, port int) (bool, error) {
	proc, alive := Launched(port)
	if proc == nil {
		return false, nil
	}
	p, _ := pidFile(port)
	if !alive {
		os.Remove(p)
		return false, nil
	}
	if err := terminate(ctx, proc.PID); err != nil {
		return false, fmt.Errorf("stop chrome pid %d: %w", proc.PID, err)
	}
	os.Remove(p)
	return true, nil
}
