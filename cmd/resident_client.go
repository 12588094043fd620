package cmd

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/state"
	"github.com/cdp-skill/cdp-skill/runtime"
)

// Timing of the resident client.
const (
	// residentDialWait bounds connecting to a resident process.
	residentDialWait = 300 * time.Millisecond
	// residentAckWait bounds the wait for the resident process to accept a
	// command; past it the command runs directly.
	residentAckWait = 3 * time.Second
	// residentSilence is how long a running command's resident process may
	// stay silent (it sends a line a second) before the client gives up.
	residentSilence = 10 * time.Second
)

// residentResult is a command's answer from a resident process.
type residentResult struct {
	answer []byte
	ok     bool
	steps  int
}

// residentDied is the answer when the resident process ended after it had
// accepted the command: the steps may have run, so running them again
// directly could act twice.
const residentDied = "the resident cdp-skill process ended or stopped answering during this command, so its steps may have partly run; take a snapshot to see the page before repeating any step (the next command connects directly)"

// viaResident runs req in the resident process when one answers on sock.
// handled is false when none accepted the command: the caller runs it
// directly (and starts one afterwards when spawn is true).
func (a *app) viaResident(ctx context.Context, sock string, req residentRequest) (res residentResult, handled, spawn bool) {
	cwd, err := os.Getwd()
	if err != nil {
		return res, false, false
	}
	req.Cwd = cwd
	env := runtime.ReadEnvironment()
	req.Env = &env
	conn, err := net.DialTimeout("unix", sock, residentDialWait)
	if err != nil {
		return res, false, true
	}
	defer conn.Close()
	if checkPeer(conn.(*net.UnixConn)) != nil {
		return res, false, false // not this user's process: never hand it a command
	}
	if pid := peerPID(conn.(*net.UnixConn)); pid > 0 && state.ProcessStopped(pid) {
		// A stopped process accepts nothing until resumed: run directly
		// (the tab lock then says who holds the tab) rather than wait.
		return res, false, false
	}
	if err := writeLine(conn, req); err != nil {
		return res, false, false
	}
	r := bufio.NewReader(conn)
	conn.SetReadDeadline(time.Now().Add(a.ackWait()))
	var ack residentAck
	if err := readLine(r, &ack); err != nil || !ack.Accepted {
		return res, false, false
	}
	stop := context.AfterFunc(ctx, func() {
		// Ask the resident process to cancel; its answer still comes.
		if uc, ok := conn.(*net.UnixConn); ok {
			uc.CloseWrite()
		}
	})
	defer stop()
	var head residentReply
	if err := readReply(conn, r, &head); err != nil {
		return died(), true, false
	}
	if head.Retry {
		return res, false, false // nothing ran: run it directly
	}
	answer := make([]byte, head.Len)
	if _, err := io.ReadFull(r, answer); err != nil {
		return died(), true, false
	}
	return residentResult{answer: answer, ok: head.OK, steps: head.Steps}, true, false
}

// runResident hands req to the resident process when one serves this
// invocation's settings, printing its answer (handled). Otherwise the caller
// runs the command directly and then calls after, which starts a resident
// process when none was there.
func (a *app) runResident(ctx context.Context, req residentRequest, input []byte, start time.Time) (handled bool, after func()) {
	after = func() {}
	// The request carries this invocation's default endpoint: the
	// process may serve another (the tab's, see routeFor).
	req.Port, req.Endpoint = a.port, a.endpoint
	sock, ok := a.residentSocket()
	if !ok {
		return false, after
	}
	res, handled, spawn := a.viaResident(ctx, sock, req)
	if !handled && spawn && a.served().Remote() {
		// A pool session must outlive this command: the resident process
		// opens it first, then runs the command.
		if err := a.startResidentWait(ctx, sock); err != nil {
			res = residentResult{answer: runtime.ErrorOutput(runtime.TypeConnection, err.Error()).JSON()}
			handled, spawn = true, false
		} else {
			res, handled, spawn = a.viaResident(ctx, sock, req)
		}
	}
	if handled {
		a.printResident(res)
		a.writeMetrics(input, res.answer, res.steps, start)
		return true, after
	}
	if spawn {
		after = func() { a.spawnResident(sock) }
	}
	return false, after
}

// readReply reads the reply head, skipping the heartbeat lines; a process
// silent for residentSilence (stopped, or wedged) counts as gone.
func readReply(conn net.Conn, r *bufio.Reader, head *residentReply) error {
	for {
		conn.SetReadDeadline(time.Now().Add(residentSilence))
		line, err := r.ReadBytes('\n')
		if err != nil {
			return err
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		conn.SetReadDeadline(time.Now().Add(residentSilence))
		return json.Unmarshal(line, head)
	}
}

// died is the answer of a command whose resident process ended mid-way.
func died() residentResult {
	return residentResult{answer: runtime.ErrorOutput(runtime.TypeConnection, residentDied).JSON()}
}

// printResident writes a resident answer and sets the exit code.
func (a *app) printResident(res residentResult) {
	a.stdout.Write(res.answer)
	if !res.ok {
		a.exitCode = 1
	}
}

// residents asks every resident process of the state dir for its state;
// with stop, it also ends those serving endpoint. The files of processes
// that ended without removing them (killed) are removed.
func residents(endpoint string, stop bool) []residentStatus {
	dir, err := residentDir()
	if err != nil {
		return nil
	}
	socks, _ := filepath.Glob(filepath.Join(dir, "*.sock"))
	locks, _ := filepath.Glob(filepath.Join(dir, "*.sock.lock"))
	for _, l := range locks {
		if s := strings.TrimSuffix(l, ".lock"); !slices.Contains(socks, s) {
			removeStale(s)
		}
	}
	var list []residentStatus
	for _, sock := range socks {
		st, ok := pingResident(sock, residentPing)
		if !ok {
			removeStale(sock)
			continue
		}
		if stop && st.Endpoint == endpoint {
			if st, ok = pingResident(sock, residentStop); !ok {
				continue
			}
		}
		list = append(list, st)
	}
	return list
}

// pingResident sends a ping or stop request to the process on sock.
func pingResident(sock, kind string) (residentStatus, bool) {
	conn, err := net.DialTimeout("unix", sock, residentDialWait)
	if err != nil {
		return residentStatus{}, false
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(residentAckWait))
	if writeLine(conn, residentRequest{Kind: kind}) != nil {
		return residentStatus{}, false
	}
	r := bufio.NewReader(conn)
	var ack residentAck
	var head residentReply
	if readLine(r, &ack) != nil || readLine(r, &head) != nil || head.Status == nil {
		return residentStatus{}, false
	}
	return *head.Status, true
}

// ackWait bounds the wait for the resident process to accept this
// command: residentAckWait, or half the command's own timeout when that is
// shorter (the command must answer within its timeout even when the
// process is wedged).
func (a *app) ackWait() time.Duration {
	if a.cmdTimeout > 0 && a.cmdTimeout/2 < residentAckWait {
		return max(a.cmdTimeout/2, 100*time.Millisecond)
	}
	return residentAckWait
}
