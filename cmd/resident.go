package cmd

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/cdp-skill/cdp-skill/browser/chrome"
	"github.com/cdp-skill/cdp-skill/browser/state"
	"github.com/cdp-skill/cdp-skill/runtime"
)

// The resident session process keeps a Chrome connection, its attached tab
// sessions and the engine warm between commands, so a command pays neither
// the connect, the attach nor the domain enables. It is an optimisation
// only: the first command starts it (after answering), later commands with
// the same binary, endpoint and process-level settings send their command
// to it over a unix socket in the state dir, and a command that finds none
// (or one that refuses or dies before accepting) runs directly, as before.
// The settings a program reads (capture, output dir, strict…; see
// perRequestEnv) travel with each command, so one process serves them all.
const (
	// EnvResident set to 0 (or false/no/off) turns the resident process off.
	EnvResident = "CDP_SKILL_RESIDENT"
	// EnvResidentIdle is how long a resident process waits for a command
	// before it exits (a Go duration, default 15m).
	EnvResidentIdle = "CDP_SKILL_RESIDENT_IDLE"
	// defaultResidentIdle is the idle time before a resident process exits.
	defaultResidentIdle = 15 * time.Minute
	// maxSocketPath is the longest unix socket path we use (the kernel's
	// limit is 108 bytes on Linux, 104 on macOS).
	maxSocketPath = 100
)

// residentOff reports whether the resident process is turned off.
func residentOff() bool {
	switch strings.ToLower(os.Getenv(EnvResident)) {
	case "0", "false", "no", "off":
		return true
	}
	return false
}

// residentDir is the state dir's folder of resident sockets (mode 0700, so
// only this user can reach a socket in it).
func residentDir() (string, error) {
	dir := filepath.Join(state.Dir(), "resident")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("resident dir: %w", err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return "", fmt.Errorf("resident dir: %w", err)
	}
	return dir, nil
}

// residentSocket is the socket of the resident process that may run this
// invocation's commands: one per binary build, endpoint, headless flag and
// process-level environment (residentEnv), so a resident process never
// answers a command with settings other than the ones it was started with.
// (The working directory and the program's settings travel with each
// command; see residentServer.begin and residentRequest.Env.)
// ok is false when the resident process is off or the path would be too
// long for a unix socket.
func (a *app) residentSocket() (string, bool) {
	if residentOff() || a.debug {
		return "", false
	}
	exe, err := os.Executable()
	if err != nil {
		return "", false
	}
	st, err := os.Stat(exe)
	if err != nil {
		return "", false
	}
	h := sha256.New()
	// The full endpoint (a pool's token included: two tokens are two
	// sessions) goes into the hash only, never into the path.
	ep := a.served()
	fmt.Fprintf(h, "%s\x00%d\x00%d\x00%s\x00%s\x00%t\x00", exe, st.Size(), st.ModTime().UnixNano(), ep, ep.URL, a.headless)
	for _, kv := range residentEnv() {
		fmt.Fprintf(h, "%s\x00", kv)
	}
	dir, err := residentDir()
	if err != nil {
		return "", false
	}
	sock := filepath.Join(dir, hex.EncodeToString(h.Sum(nil)[:8])+".sock")
	return sock, len(sock) <= maxSocketPath
}

// residentEnv is the process environment a resident process's answers
// depend on, sorted: the CDP_SKILL_* variables read by the process (state
// dir, sites dir, downloads…) and those a Chrome it might launch reads.
// Not among them: the variables each request carries (perRequestEnv),
// CDP_SKILL_LOG (a resident process logs nowhere), CDP_SKILL_RESIDENT and
// CDP_SKILL_ENDPOINT (the socket's name covers the endpoint; a pool's
// token must not show in `chrome status`).
func residentEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "CDP_SKILL_") && name != EnvResident && name != EnvLog && name != EnvEndpoint && !perRequestEnv(name) ||
			name == "PATH" || name == "HOME" || name == "TMPDIR" || name == chrome.EnvChromePath {
			env = append(env, kv)
		}
	}
	slices.Sort(env)
	return env
}

// perRequestEnv reports whether a variable is one a resident process takes
// from each request rather than from its own environment: those of
// runtime.EnvironmentVars, except the memory limit, which the guard checks
// against the whole process's heap (commands with another limit get a
// process of their own).
func perRequestEnv(name string) bool {
	return name != runtime.EnvMaxMemory && slices.Contains(runtime.EnvironmentVars, name)
}

// spawnResident starts a detached resident process on sock. It never fails
// a command: without one, commands run directly.
func (a *app) spawnResident(sock string) {
	c, err := a.residentCmd(sock)
	if err != nil {
		return
	}
	if c.Start() == nil {
		c.Process.Release()
	}
}

// residentCmd is the command that starts a detached resident process on
// sock. The endpoint goes in its environment (CDP_SKILL_ENDPOINT), never
// on its command line, where `ps` would show a pool's token to every user.
func (a *app) residentCmd(sock string) (*exec.Cmd, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	ep := a.served()
	args := []string{"resident", "--socket", sock}
	if !ep.Remote() {
		args = append(args, "--port", strconv.Itoa(ep.Port)) // a pool's process names no local port
	}
	if a.headless {
		args = append(args, "--headless")
	}
	c := exec.Command(exe, args...)
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, EnvEndpoint+"=") })
	if ep.Remote() {
		env = append(env, EnvEndpoint+"="+ep.URL)
	}
	c.Env = env
	chrome.Detach(c)
	return c, nil
}

// residentCommand is the hidden resident process (started by commands).
func (a *app) residentCommand() *cobra.Command {
	var sock string
	c := &cobra.Command{
		Use:    "resident --socket PATH",
		Short:  "Keep a Chrome connection and tab sessions warm between commands (started by cdp-skill itself)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			idle := defaultResidentIdle
			if d, err := time.ParseDuration(os.Getenv(EnvResidentIdle)); err == nil && d > 0 {
				idle = d
			}
			return a.serveResident(cmd.Context(), sock, idle)
		},
	}
	c.Flags().StringVar(&sock, "socket", "", "unix socket path inside the state dir")
	c.MarkFlagRequired("socket")
	return c
}
