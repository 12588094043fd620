package cmd

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/cdp-skill/cdp-skill/runtime"
)

// The resident protocol, one command per connection:
//
//	client → residentRequest as one JSON line
//	server → residentAck as one JSON line (the command is accepted: from
//	         here on it runs, and the client must not run it again)
//	server → empty lines, one a second, while the command runs (so a
//	         client can tell a process that stopped answering)
//	server → residentReply as one JSON line, then Len bytes of the answer
//
// A client that wants the command cancelled closes its writing side; the
// server then cancels the run and still sends the (interrupted) answer.

// Kinds of resident requests.
const (
	residentJSON   = "json"   // a JSON command
	residentRecipe = "recipe" // a Starlark recipe (cdp-skill run)
	residentPing   = "ping"   // report the process's state
	residentStop   = "stop"   // exit after answering
)

// residentRequest is what the client sends.
type residentRequest struct {
	Kind string `json:"kind"`
	// Cwd is the client's working directory: relative paths in the
	// command resolve against it.
	Cwd string `json:"cwd,omitempty"`
	// Input is the JSON command (kind json).
	Input []byte `json:"input,omitempty"`
	// Recipe is the program to run (kind recipe).
	Recipe *residentRecipeRun `json:"recipe,omitempty"`
	// Env is what the client's environment configures for the program
	// (read in the client, in Cwd); required with kinds json and recipe.
	Env *runtime.Environment `json:"env,omitempty"`
	// Port and Endpoint are the client's default endpoint (--port,
	// --endpoint), where tabs the command opens without naming one go.
	Port     int    `json:"port,omitempty"`
	Endpoint string `json:"endpoint,omitempty"`
}

// residentRecipeRun is a `cdp-skill run` invocation.
type residentRecipeRun struct {
	Name     string            `json:"name"`
	Source   []byte            `json:"source"`
	Dir      string            `json:"dir"`
	Tab      string            `json:"tab,omitempty"`
	Args     map[string]string `json:"args,omitempty"`
	Timeout  time.Duration     `json:"timeout,omitempty"`
	MaxSteps uint64            `json:"maxSteps,omitempty"`
}

// residentAck accepts a request.
type residentAck struct {
	Accepted bool `json:"accepted"`
	PID      int  `json:"pid"`
}

// residentReply heads the answer.
type residentReply struct {
	// Retry says nothing ran (Chrome went away before the command could
	// attach): the client runs the command directly, which relaunches it.
	Retry bool `json:"retry,omitempty"`
	OK    bool `json:"ok"`
	Steps int  `json:"steps"`
	Len   int  `json:"len"`
	// Status is set for ping and stop.
	Status *residentStatus `json:"status,omitempty"`
}

// residentStatus describes a resident process (chrome status lists them).
type residentStatus struct {
	PID            int    `json:"pid"`
	Socket         string `json:"socket"`
	Endpoint       string `json:"endpoint"`
	Dir            string `json:"dir"`
	Started        string `json:"started"`
	Commands       int    `json:"commands"`
	Running        int    `json:"running"`
	IdleFor        string `json:"idleFor"`
	ExitsAfterIdle string `json:"exitsAfterIdle"`
	// Settings are the CDP_SKILL_* variables it was started with.
	Settings []string `json:"settings,omitempty"`
}

// writeLine writes v as one JSON line.
func writeLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// maxRequestLine bounds the request line the resident reads: the largest
// command (maxInput, base64 in the line) and its settings fit well; a
// client sending more is refused before it can grow the shared process.
const maxRequestLine = 32 << 20

// errLineTooLong is readLineMax's error for a line over its bound.
var errLineTooLong = fmt.Errorf("resident protocol: the request line is longer than %d MiB", maxRequestLine>>20)

// readLine reads one JSON line into v.
func readLine(r *bufio.Reader, v any) error {
	return readLineMax(r, v, 0)
}

// readLineMax reads one JSON line of at most max bytes (0: no bound) into
// v; a longer line fails with errLineTooLong once max bytes were read.
func readLineMax(r *bufio.Reader, v any, max int) error {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if max > 0 && len(line)+len(chunk) > max {
			return errLineTooLong
		}
		line = append(line, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			return err
		}
		break
	}
	if err := json.Unmarshal(line, v); err != nil {
		return fmt.Errorf("resident protocol: %w", err)
	}
	return nil
}
