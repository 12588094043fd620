package cmd

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/cdp-skill/cdp-skill/runtime"
)

// On a browser pool (a remote endpoint such as browserless) every
// WebSocket connection is a session with a browser of its own, which the
// pool ends when the connection closes: a command that connected and
// closed would lose its tabs, aliases and refs with its connection. So a
// command on a remote endpoint always runs in the resident process, which
// holds the connection (the pool session) from the first command until it
// has been idle for CDP_SKILL_RESIDENT_IDLE, the pool ends the session
// (its own timeout), or `cdp-skill chrome stop --endpoint …` ends it. The
// first command starts the process and waits until it holds the session
// (or says why it could not: the pool is full, the token is refused).

// poolSessionWait bounds the wait for a new resident process to open the
// pool session: a pool queues a connection while its sessions are busy.
const poolSessionWait = 60 * time.Second

// residentReady is the line a resident process writes on its standard
// output once it serves its socket, or could not.
type residentReady struct {
	Ready bool   `json:"ready"`
	Error string `json:"error,omitempty"`
}

// errPoolSession is a pool session that could not be opened; its message
// is the answer's.
type errPoolSession struct{ msg string }

func (e *errPoolSession) Error() string { return e.msg }

// startResidentWait starts a resident process on sock and waits until it
// holds its connection, returning why it could not.
func (a *app) startResidentWait(ctx context.Context, sock string) error {
	c, err := a.residentCmd(sock)
	if err != nil {
		return fmt.Errorf("start the resident cdp-skill process: %w", err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("start the resident cdp-skill process: %w", err)
	}
	defer r.Close()
	c.Stdout = w
	err = c.Start()
	w.Close()
	if err != nil {
		return fmt.Errorf("start the resident cdp-skill process: %w", err)
	}
	go c.Wait() // reap it should it end while this process runs
	got := make(chan residentReady, 1)
	go func() {
		var st residentReady
		line, err := bufio.NewReader(r).ReadBytes('\n')
		if err != nil || json.Unmarshal(line, &st) != nil {
			st = residentReady{Error: "the resident cdp-skill process ended before it opened the session"}
		}
		got <- st
	}()
	wait := time.NewTimer(poolSessionWait)
	defer wait.Stop()
	select {
	case st := <-got:
		if !st.Ready {
			return &errPoolSession{msg: st.Error}
		}
		return nil
	case <-wait.C:
		return &errPoolSession{msg: fmt.Sprintf("the browser pool at %s did not open a session within %s (its queue may be long): retry later", a.endpointOption(), poolSessionWait)}
	case <-ctx.Done():
		return &errPoolSession{msg: "cancelled while the browser pool opened a session"}
	}
}

// reportReady writes the resident's readiness line on its standard output
// (a pipe to the command that started it, or nothing) and closes it.
func reportReady(err error) {
	st := residentReady{Ready: err == nil}
	if err != nil {
		st.Error = err.Error()
	}
	writeLine(os.Stdout, st)
	os.Stdout.Close()
}

// notePoolDirect warns, in the answer of a command on a remote endpoint
// that ran without the resident process (CDP_SKILL_RESIDENT=0, --debug, a
// state dir path too long for a socket), that on a pool its session, and
// so its tabs, ended with the command.
func (a *app) notePoolDirect(out *runtime.Output) {
	if out == nil || !a.served().Remote() {
		return
	}
	out.Warnings = append(out.Warnings, "this command ran on a connection of its own, not in the resident process (CDP_SKILL_RESIDENT=0, --debug, a state dir path too long for a socket, or the process was busy in another working directory), and the connection ended with it: on a browser pool that ends its session, so tabs it opened are gone; keep the resident process on (and run an agent's commands from one directory) to keep a pool session across commands")
}
