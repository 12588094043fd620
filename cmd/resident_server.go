package cmd

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/chrome"
	"github.com/cdp-skill/cdp-skill/runtime"
)

// Timing of the resident process.
const (
	// residentTick is how often it checks whether to exit.
	residentTick = time.Second
	// residentRequestWait bounds reading a request after a connect.
	residentRequestWait = 5 * time.Second
	// residentKeeperEvery spaces the checks that the dialog keeper runs.
	residentKeeperEvery = 2 * time.Second
	// residentBeat is how often a running command says it is alive.
	residentBeat = time.Second
)

// residentServer runs commands on one kept pool of connections and tab
// sessions.
type residentServer struct {
	app     *app
	sock    string
	idle    time.Duration
	pool    *runtime.Pool
	ln      net.Listener
	sockID  os.FileInfo
	started time.Time
	wg      sync.WaitGroup

	mu         sync.Mutex
	running    int
	commands   int
	last       time.Time
	lastKeeper time.Time
	closing    bool
	// cwd is the working directory of the running commands.
	cwd string
}

// serveResident is the resident process: it takes the socket's lock
// (exiting at once when another process has it), listens on sock and runs
// commands until it has been idle for idle, Chrome went away, its socket
// was removed, or a stop request came.
func (a *app) serveResident(ctx context.Context, sock string, idle time.Duration) error {
	dir, err := residentDir()
	if err != nil {
		return err
	}
	if filepath.Dir(sock) != dir {
		return fmt.Errorf("resident socket %s is not in %s", sock, dir)
	}
	lock, ok := lockSocket(sock)
	if !ok {
		reportReady(nil) // another resident process serves this socket
		return nil
	}
	defer lock.release()
	os.Remove(sock)
	ln, err := net.Listen("unix", sock)
	if err != nil {
		reportReady(err)
		return fmt.Errorf("resident: %w", err)
	}
	if err := os.Chmod(sock, 0o600); err != nil {
		ln.Close()
		reportReady(err)
		return fmt.Errorf("resident: %w", err)
	}
	id, err := os.Stat(sock)
	if err != nil {
		ln.Close()
		reportReady(err)
		return fmt.Errorf("resident: %w", err)
	}
	now := time.Now()
	s := &residentServer{app: a, sock: sock, idle: idle, pool: runtime.NewPool(), ln: ln, sockID: id, started: now, last: now, lastKeeper: now}
	defer s.pool.Close()
	ep := a.endpointOption()
	warm := residentRequestWait
	if ep.Remote() {
		warm = poolSessionWait // a pool queues the connection while it is full
	}
	wctx, cancel := context.WithTimeout(ctx, warm)
	err = s.pool.Warm(wctx, ep)
	cancel()
	if err != nil {
		ln.Close()
		reportReady(err)
		return nil // no Chrome to keep warm: commands run directly
	}
	reportReady(nil)
	go s.watch(ctx)
	for {
		conn, err := ln.Accept()
		if err != nil {
			break
		}
		s.wg.Add(1)
		go s.handle(conn.(*net.UnixConn))
	}
	s.wg.Wait()
	return nil
}

// watch closes the listener when the process should end.
func (s *residentServer) watch(ctx context.Context) {
	t := time.NewTicker(residentTick)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			s.close()
			return
		case <-t.C:
		}
		if why := s.exitReason(); why != "" {
			s.close()
			return
		}
	}
}

// exitReason says why the process should end now, or "".
func (s *residentServer) exitReason() string {
	s.mu.Lock()
	running, last := s.running, s.last
	s.mu.Unlock()
	if running > 0 {
		return ""
	}
	if time.Since(last) > s.idle {
		return "idle"
	}
	if s.pool.Gone() {
		return "chrome went away"
	}
	if st, err := os.Stat(s.sock); err != nil || !os.SameFile(st, s.sockID) {
		return "socket removed"
	}
	return ""
}

// close stops accepting connections; running commands finish.
func (s *residentServer) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closing {
		s.closing = true
		s.ln.Close()
	}
}

// handle serves one connection: one request.
func (s *residentServer) handle(conn *net.UnixConn) {
	defer s.wg.Done()
	defer conn.Close()
	if checkPeer(conn) != nil {
		return
	}
	r := bufio.NewReader(conn)
	conn.SetReadDeadline(time.Now().Add(residentRequestWait))
	var req residentRequest
	if readLineMax(r, &req, maxRequestLine) != nil {
		// Too long (errLineTooLong), cut short or not JSON: the client
		// hears no acceptance and runs the command itself, where its
		// input has its own bound (maxInput).
		return
	}
	conn.SetReadDeadline(time.Time{})
	switch req.Kind {
	case residentPing, residentStop:
		writeLine(conn, residentAck{Accepted: true, PID: os.Getpid()})
		writeLine(conn, residentReply{OK: true, Status: s.status()})
		if req.Kind == residentStop {
			s.close()
		}
	case residentJSON, residentRecipe:
		if req.Env == nil || !s.begin(req.Cwd) {
			return // closing, busy elsewhere or no settings: the client runs the command directly
		}
		end := sync.OnceFunc(s.end)
		defer end()
		if writeLine(conn, residentAck{Accepted: true, PID: os.Getpid()}) != nil {
			return
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go func() {
			io.Copy(io.Discard, r) // the client closed its side: cancel
			cancel()
		}()
		beat := s.heartbeat(conn)
		out, steps := s.run(ctx, req)
		beat()
		if out.Error != nil && out.Error.Type == runtime.TypeConnection && len(out.Steps) == 0 && s.pool.Gone() {
			// Chrome went away before anything ran: the client relaunches
			// it with a direct run, and this process ends.
			writeLine(conn, residentReply{Retry: true})
			conn.Close()
			out.Finish()
			s.close()
			return
		}
		answer := out.JSON()
		// The command is done with the working directory: counted out
		// before its answer goes, the client's next command (from any
		// directory) finds the process free.
		end()
		if writeLine(conn, residentReply{OK: out.OK(), Steps: steps, Len: len(answer)}) == nil {
			conn.Write(answer)
		}
		conn.Close()
		out.Finish() // the deferred screenshot, then the tab's release
	}
}

// heartbeat writes an empty line every residentBeat while a command runs;
// the returned func stops it (before the reply is written).
func (s *residentServer) heartbeat(conn net.Conn) (stop func()) {
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(residentBeat)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				conn.Write([]byte("\n"))
			}
		}
	}()
	return func() {
		close(done)
		<-stopped
	}
}

// begin counts a command in and moves to its working directory, unless the
// process is closing or runs commands of another directory (the process
// has one working directory; that client runs its command directly).
func (s *residentServer) begin(cwd string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing || cwd == "" || s.pool.Gone() {
		return false // Chrome went away: the client relaunches it directly
	}
	if s.running > 0 {
		// Commands run in s.cwd: this one may join them only if its
		// directory is that very directory (not one deleted and made
		// again, or a symbolic link pointed elsewhere since).
		if cwd != s.cwd || !sameDir(cwd, ".") {
			return false
		}
	} else {
		if os.Chdir(cwd) != nil {
			return false
		}
		s.cwd = cwd
	}
	s.running++
	s.commands++
	s.last = time.Now()
	if time.Since(s.lastKeeper) > residentKeeperEvery {
		s.lastKeeper = time.Now()
		go s.app.ensureKeeper()
	}
	return true
}

// sameDir reports whether paths a and b name the same existing directory.
func sameDir(a, b string) bool {
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	return err == nil && os.SameFile(sa, sb)
}

// end counts a command out.
func (s *residentServer) end() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.running--
	s.last = time.Now()
}

// run runs one command on the kept pool, the screenshot deferred until
// the answer is delivered (see runtime.Options.DeferScreenshot). A panic
// answers as an error and ends the process (its state may be damaged).
func (s *residentServer) run(ctx context.Context, req residentRequest) (out *runtime.Output, steps int) {
	defer func() {
		if p := recover(); p != nil {
			s.close()
			out = runtime.ErrorOutput(runtime.TypeExecution, fmt.Sprintf("internal error in the resident cdp-skill process: %v", p))
			steps = 0
		}
	}()
	opts := s.app.runtimeOptions()
	if req.Endpoint != "" {
		opts.Endpoint = chrome.Endpoint{URL: req.Endpoint}
	} else if req.Port != 0 {
		opts.Endpoint = chrome.Endpoint{Port: req.Port}.Normalize()
	}
	opts.Pool = s.pool
	opts.DeferScreenshot = true
	if req.Env != nil {
		env := *req.Env
		env.UseOwnProcess()
		opts.Environment = &env
	}
	switch req.Kind {
	case residentJSON:
		parsed, out := runtime.RunJSON(ctx, req.Input, opts)
		return out, stepCount(parsed, out)
	default:
		if req.Recipe == nil {
			return runtime.ErrorOutput(runtime.TypeParse, "resident: a recipe request without a recipe"), 0
		}
		rc := req.Recipe
		prog := runtime.Program{Name: rc.Name, Source: rc.Source, Dir: rc.Dir, Tab: rc.Tab, Args: rc.Args, Timeout: rc.Timeout, MaxSteps: rc.MaxSteps}
		out := runtime.Run(ctx, prog, opts)
		return out, len(out.Steps)
	}
}

// status describes the process.
func (s *residentServer) status() *residentStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	cwd, _ := os.Getwd()
	idle := time.Duration(0)
	if s.running == 0 {
		idle = time.Since(s.last).Round(time.Second)
	}
	return &residentStatus{
		PID: os.Getpid(), Socket: s.sock, Endpoint: s.app.endpointOption().String(), Dir: cwd,
		Started: s.started.UTC().Format(time.RFC3339), Commands: s.commands, Running: s.running,
		IdleFor: idle.String(), ExitsAfterIdle: s.idle.String(), Settings: residentEnvSettings(),
	}
}

// residentEnvSettings are the CDP_SKILL_* variables of this process.
func residentEnvSettings() []string {
	var list []string
	for _, kv := range residentEnv() {
		if strings.HasPrefix(kv, "CDP_SKILL_") {
			list = append(list, kv)
		}
	}
	return list
}
