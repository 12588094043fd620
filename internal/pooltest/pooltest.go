//go:build unix

// Package pooltest runs a real browser pool for tests: browserless
// (@browserless.io/browserless on npm, the server of its Docker images),
// at the version pinned in testdata/browserless, on loopback, with the
// Chromium the other tests use.
//
// browserless looks for Chromium where playwright-core installs it and
// loads routes for Chrome, Edge, Firefox and WebKit, refusing to start
// when their browsers are missing. The supported configuration used here
// needs neither a wrapper nor extra browsers: ROUTES names a directory
// holding only its chromium and management routes, and
// PLAYWRIGHT_BROWSERS_PATH a directory where playwright-core's Chromium
// path is a link to the system Chromium (browserless adds --no-sandbox).
//
// It is installed once per lockfile with `npm ci` into
// $CDP_SKILL_POOL_CACHE, else os.UserCacheDir()/cdp-skill/browserless
// (about 580 MB; the first install takes a minute or two). Without npm or
// node the tests skip, or fail when CI=true.
package pooltest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
	"github.com/cdp-skill/cdp-skill/browser/chrome"
	"github.com/cdp-skill/cdp-skill/internal/npmcache"
)

// EnvCache names the directory browserless is installed under (one
// subdirectory per lockfile hash).
const EnvCache = "CDP_SKILL_POOL_CACHE"

// Options configure a pool: its limits, as browserless's environment.
type Options struct {
	// Concurrent is how many sessions run at once (CONCURRENT, default 4).
	Concurrent int
	// Queued is how many more wait (QUEUED, default 4); past it, 429.
	Queued int
	// NoQueue makes the pool answer 429 as soon as Concurrent sessions run.
	NoQueue bool
	// Timeout is a session's lifetime (TIMEOUT); 0 means 10 minutes.
	Timeout time.Duration
}

// Pool is a running browserless.
type Pool struct {
	// Port is its loopback port.
	Port int
	// Token is the credential every connection must carry.
	Token string
	opts  Options
	dir   string
	log   *os.File
	cmd   *exec.Cmd
	done  chan struct{}
	t     testing.TB
}

// URL is the endpoint an agent gives: ws://127.0.0.1:port?token=….
func (p *Pool) URL() string { return fmt.Sprintf("ws://127.0.0.1:%d?token=%s", p.Port, p.Token) }

var (
	installOnce sync.Once
	installDir  string
	installErr  error
)

// Start installs browserless (once), starts it with opts and stops it when
// the test ends.
func Start(t testing.TB, opts Options) *Pool {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the pool tests run browserless with POSIX paths")
	}
	browsertest.Require(t) // a Chromium exists (else skip or fail as browsertest says)
	installOnce.Do(func() { installDir, installErr = install() })
	if installErr != nil {
		if os.Getenv("CI") != "true" {
			t.Skipf("browserless unavailable (%v); CI=true makes this a failure", installErr)
		}
		t.Fatalf("browserless unavailable: %v", installErr)
	}
	if opts.Concurrent == 0 {
		opts.Concurrent = 4
	}
	if opts.Queued == 0 && !opts.NoQueue {
		opts.Queued = 4
	}
	if opts.Timeout == 0 {
		opts.Timeout = 10 * time.Minute
	}
	tok := make([]byte, 12)
	rand.Read(tok)
	dir, err := os.MkdirTemp("", "cdp-pool-")
	if err != nil {
		t.Fatal(err)
	}
	p := &Pool{Token: "tok" + hex.EncodeToString(tok), opts: opts, dir: dir, t: t}
	t.Cleanup(func() {
		p.Stop()
		os.RemoveAll(dir)
	})
	if err := p.layout(); err != nil {
		t.Fatal(err)
	}
	if err := p.start(); err != nil {
		t.Fatal(err)
	}
	return p
}

// layout makes the routes and browsers directories of the configuration.
func (p *Pool) layout() error {
	pkg := filepath.Join(installDir, "node_modules", "@browserless.io", "browserless")
	routes := filepath.Join(p.dir, "routes")
	for _, d := range []string{routes, filepath.Join(p.dir, "data"), filepath.Join(p.dir, "downloads")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	for _, r := range []string{"chromium", "management"} {
		if err := os.Symlink(filepath.Join(pkg, "build", "routes", r), filepath.Join(routes, r)); err != nil {
			return err
		}
	}
	exe, _, err := chrome.Find(chrome.Host{Path: os.Getenv(chrome.EnvChromePath)})
	if err != nil {
		return err
	}
	// Where playwright-core (browserless's copy) expects its Chromium.
	q := exec.Command("node", "-e", "console.log(require('playwright-core').chromium.executablePath())")
	q.Dir = pkg
	q.Env = append(os.Environ(), "PLAYWRIGHT_BROWSERS_PATH="+filepath.Join(p.dir, "browsers"))
	out, err := q.Output()
	if err != nil {
		return fmt.Errorf("ask playwright-core for its Chromium path: %w", err)
	}
	link := strings.TrimSpace(string(out))
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		return err
	}
	return os.Symlink(exe, link)
}

// start runs browserless on a free port and waits until it answers.
func (p *Pool) start() error {
	if p.Port == 0 {
		port, err := browsertest.FreePort()
		if err != nil {
			return err
		}
		p.Port = port
	}
	log, err := os.OpenFile(filepath.Join(p.dir, "browserless.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	pkg := filepath.Join(installDir, "node_modules", "@browserless.io", "browserless")
	c := exec.Command("node", filepath.Join(pkg, "build", "index.js"))
	c.Dir = installDir // it reads node_modules/playwright-core/browsers.json from here
	c.Env = append(os.Environ(),
		"HOST=127.0.0.1",
		"PORT="+strconv.Itoa(p.Port),
		"TOKEN="+p.Token,
		"CONCURRENT="+strconv.Itoa(p.opts.Concurrent),
		"QUEUED="+strconv.Itoa(p.opts.Queued),
		"TIMEOUT="+strconv.FormatInt(p.opts.Timeout.Milliseconds(), 10),
		"ROUTES="+filepath.Join(p.dir, "routes"),
		"PLAYWRIGHT_BROWSERS_PATH="+filepath.Join(p.dir, "browsers"),
		"DATA_DIR="+filepath.Join(p.dir, "data"),
		"DOWNLOAD_DIR="+filepath.Join(p.dir, "downloads"),
		"METRICS_JSON_PATH="+filepath.Join(p.dir, "metrics.json"),
		"DEBUG=browserless*,-**:trace",
	)
	c.Stdout, c.Stderr = log, log
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // its Chromes go with it
	if err := c.Start(); err != nil {
		log.Close()
		return fmt.Errorf("start browserless: %w", err)
	}
	p.cmd, p.log, p.done = c, log, make(chan struct{})
	go func() { c.Wait(); close(p.done) }()
	deadline := time.Now().Add(60 * time.Second)
	for {
		select {
		case <-p.done:
			return fmt.Errorf("browserless exited at start; its log:\n%s", p.Log())
		default:
		}
		if p.answers() {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("browserless did not answer within 60 s; its log:\n%s", p.Log())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Answers reports whether the pool's HTTP API answers.
func (p *Pool) Answers() bool { return p.answers() }

// answers reports whether the pool's HTTP API answers (/active launches no
// browser).
func (p *Pool) answers() bool {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("http://127.0.0.1:%d/active?token=%s", p.Port, p.Token), nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode < 500
}

// Stop ends browserless and the browsers it runs.
func (p *Pool) Stop() {
	if p.cmd == nil {
		return
	}
	syscall.Kill(-p.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		<-p.done
	}
	p.log.Close()
	p.cmd = nil
}

// Restart stops browserless and starts it again on the same port: every
// session, and so every tab, is gone.
func (p *Pool) Restart() {
	p.t.Helper()
	p.Stop()
	if err := p.start(); err != nil {
		p.t.Fatal(err)
	}
}

// Log is browserless's output so far.
func (p *Pool) Log() string {
	data, _ := os.ReadFile(filepath.Join(p.dir, "browserless.log"))
	return string(data)
}

// install installs testdata/browserless's lockfile with `npm ci` into
// <cache>/<hash>, unless an earlier run did.
func install() (string, error) {
	_, file, _, _ := runtime.Caller(0)
	if _, err := exec.LookPath("node"); err != nil {
		return "", fmt.Errorf("node is not installed (install Node.js and npm): %w", err)
	}
	root, err := npmcache.CacheRoot(EnvCache, "browserless")
	if err != nil {
		return "", err
	}
	return npmcache.Install(npmcache.Set{What: "pool", Dir: filepath.Join(filepath.Dir(file), "testdata", "browserless"), Root: root,
		Probe: filepath.Join("node_modules", "@browserless.io", "browserless", "build", "index.js")})
}
