// Package browsertest runs the test suite's real headless Chromium: one per
// test binary, on a free loopback port, with its own state dir, plus
// loopback HTTP servers for fixture pages. When CI=true and no Chromium is
// installed, tests fail: they never skip in CI.
package browsertest

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/chrome"
	"github.com/cdp-skill/cdp-skill/browser/state"
)

// Chrome is the test binary's browser.
type Chrome struct {
	Port     int
	StateDir string
	Endpoint chrome.Endpoint
	err      error
}

var shared *Chrome

// Main wraps testing.M: it gives the binary its own state dir, launches
// Chromium, runs the tests and stops Chromium.
func Main(m *testing.M) {
	dir, err := os.MkdirTemp("", "cdp-skill-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	// In this process through state; the cdp-skill processes tests start
	// inherit the variable.
	reapAfter(dir)
	state.SetDir(dir)
	os.Setenv(state.EnvDir, dir)
	// Site profiles too: a test's profile in the user's ~/.cdp-skill/sites
	// would change every later run on the machine (any site's recipes
	// make each step look up its page's site hooks).
	sites := filepath.Join(dir, "sites")
	state.SetSitesDir(sites)
	os.Setenv(state.EnvSitesDir, sites)
	shared = &Chrome{StateDir: dir}
	shared.err = shared.start()
	code := m.Run()
	if shared.Port != 0 {
		chrome.Stop(context.Background(), shared.Port)
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

func (c *Chrome) start() error {
	host := chrome.Host{Path: os.Getenv(chrome.EnvChromePath)}
	if _, _, err := chrome.Find(host); err != nil {
		return err
	}
	port, err := FreePort()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := chrome.Launch(ctx, port, chrome.LaunchOptions{Headless: true, Timeout: 25 * time.Second, Host: host}); err != nil {
		return err
	}
	c.Port = port
	c.Endpoint = chrome.Endpoint{Port: port}.Normalize()
	return nil
}

// Require returns the shared Chrome, failing the test when it could not
// start. Outside CI a missing Chromium skips instead.
func Require(t testing.TB) *Chrome {
	t.Helper()
	if shared == nil {
		t.Fatal("browsertest.Main must wrap TestMain")
	}
	if shared.err != nil {
		if errors.Is(shared.err, chrome.ErrNotInstalled) && os.Getenv("CI") != "true" {
			t.Skipf("no Chromium here (%v); CI=true makes this a failure", shared.err)
		}
		t.Fatalf("test Chromium unavailable: %v", shared.err)
	}
	return shared
}

// FreePort returns a free loopback TCP port.
func FreePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// Serve serves fsys on loopback for the test's duration; the returned URL
// ends in a slash.
func Serve(t testing.TB, fsys fs.FS) string {
	t.Helper()
	srv := httptest.NewServer(http.FileServerFS(fsys))
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

// ServeHandler serves h on loopback for the test's duration.
func ServeHandler(t testing.TB, h http.Handler) string {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

// ServeOn serves h on a loopback host (e.g. 127.0.0.2, another site than
// 127.0.0.1, so its pages framed in a 127.0.0.1 page run out of process)
// for the test's duration; the returned URL ends in a slash.
func ServeOn(t testing.TB, host string, h http.Handler) string {
	t.Helper()
	srv := httptest.NewUnstartedServer(h)
	ln, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		t.Fatalf("listen on %s: %v", host, err)
	}
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

// CloseTab closes target id through Chrome's own endpoint, as a person
// closing the tab would, and waits until Chrome no longer lists it (it
// closes tabs asynchronously).
func (c *Chrome) CloseTab(t testing.TB, id string) {
	t.Helper()
	ctx := context.Background()
	if err := chrome.Close(ctx, c.Endpoint, id); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		list, err := chrome.List(ctx, c.Endpoint)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(list, func(x chrome.TargetInfo) bool { return x.ID == id }) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("tab %s did not close", id)
		}
	}
}
