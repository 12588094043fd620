// Package runtime is the interpreter host of cdp-skill: it builds the
// sandboxed Starlark thread, wraps every action builtin in the step lifecycle
// (ready_when → action → settled_when → observe, optional, timeouts), keeps
// the step log, runs the post-command capture and assembles the output JSON.
package runtime

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/browser/state"
	"github.com/cdp-skill/cdp-skill/builtins"
)

// Error types of the output (spec §16.1).
const (
	TypeParse      = "PARSE"
	TypeValidation = "VALIDATION"
	TypeConnection = "CONNECTION"
	TypeExecution  = "EXECUTION"
)

// Output is the one JSON object a command prints (spec §3). Field order is
// the print order; empty fields are omitted.
type Output struct {
	Status      string                `json:"status"`
	Tab         string                `json:"tab,omitempty"`
	Error       *TopError             `json:"error,omitempty"`
	SiteProfile *builtins.ProfileView `json:"siteProfile,omitempty"`
	// ActionRequired asks the agent to create the profile of a site it
	// reached for the first time in this tab (spec §15.3).
	ActionRequired *ActionRequired    `json:"actionRequired,omitempty"`
	Navigated      bool               `json:"navigated,omitempty"`
	Context        *PageContext       `json:"context,omitempty"`
	Steps          []*StepResult      `json:"steps,omitempty"`
	Errors         []ErrorEntry       `json:"errors,omitempty"`
	NextActions    []NextAction       `json:"nextActions,omitempty"`
	Result         any                `json:"result,omitempty"`
	Log            []string           `json:"log,omitempty"`
	Warnings       []string           `json:"warnings,omitempty"`
	Downloads      []browser.Download `json:"downloads,omitempty"`
	Console        *ConsoleReport     `json:"console,omitempty"`
	FailedReqs     []FailedRequest    `json:"failedRequests,omitempty"`
	Screenshot     string             `json:"screenshot,omitempty"`
	FullSnapshot   string             `json:"fullSnapshot,omitempty"`
	Changes        *Changes           `json:"changes,omitempty"`
	Truncated      bool               `json:"truncated,omitempty"`
	ViewportSnap   string             `json:"viewportSnapshot,omitempty"`
	Extra          json.RawMessage    `json:"-"`
	// finish runs the work deferred past the answer (see Finish).
	finish func()
}

// Finish lets the work a program deferred until its answer was delivered
// (Options.DeferScreenshot) run now: the screenshot the answer names, then
// releasing the tab. Only a host that deferred must call it; it returns at
// once, and is safe to call twice or on any output.
func (o *Output) Finish() {
	if o != nil && o.finish != nil {
		o.finish()
	}
}

// TopError is the error of a command that failed as a whole.
type TopError struct {
	Type string `json:"type"`
	// ErrorType is a subtype agents branch on (e.g. BrowserCrashedError).
	ErrorType string `json:"errorType,omitempty"`
	Message   string `json:"message"`
	Location  string `json:"location,omitempty"`
	Backtrace string `json:"backtrace,omitempty"`
}

// PageContext is the page state after the command (spec §14.4).
type PageContext struct {
	URL           string `json:"url,omitempty"`
	Title         string `json:"title,omitempty"`
	Scroll        any    `json:"scroll,omitempty"`
	Viewport      any    `json:"viewport,omitempty"`
	ActiveElement any    `json:"activeElement,omitempty"`
	Modal         any    `json:"modal,omitempty"`
}

// StepResult is one executed step (spec §10.5).
type StepResult struct {
	Action      string   `json:"action"`
	Status      string   `json:"status"`
	At          string   `json:"at,omitempty"`
	Params      any      `json:"params,omitempty"`
	Output      any      `json:"output,omitempty"`
	Observation any      `json:"observation,omitempty"`
	Dialogs     any      `json:"dialogs,omitempty"`
	Warning     []string `json:"warning,omitempty"`
	Error       string   `json:"error,omitempty"`
	ErrorType   string   `json:"errorType,omitempty"`
	Context     any      `json:"context,omitempty"`
	Download    any      `json:"download,omitempty"`
	// typed are the params before their typed text was masked (a failed
	// fill or type): a suggestion that repeats the step on another field
	// needs the text, unless the field is one for secrets.
	typed any
}

// Step statuses.
const (
	StatusOK      = "ok"
	StatusError   = "error"
	StatusSkipped = "skipped"
)

// ErrorEntry summarizes a failed step, or a program failure that is not a
// step's.
type ErrorEntry struct {
	Step      int    `json:"step,omitempty"`
	Action    string `json:"action,omitempty"`
	Type      string `json:"type"`
	ErrorType string `json:"errorType,omitempty"`
	Error     string `json:"error"`
	Location  string `json:"location,omitempty"`
	Backtrace string `json:"backtrace,omitempty"`
}

// OK reports whether the command succeeded.
func (o *Output) OK() bool { return o.Status == StatusOK }

// MaxInlineOutput bounds the answer printed inline; past it, the largest
// values (the result, step outputs) go to files under the state dir and
// the answer keeps a preview and the path.
const MaxInlineOutput = 512 << 10

// maxInlineValue is the size past which a value is spilled once the
// answer is too large.
const maxInlineValue = 16 << 10

// JSON encodes the output compactly, without HTML escaping, spilling
// large values when the whole is larger than MaxInlineOutput.
func (o *Output) JSON() []byte {
	b, err := encodeJSON(o)
	if err != nil {
		return []byte(`{"status":"error","error":{"type":"EXECUTION","message":"cannot encode output: ` + err.Error() + `"}}` + "\n")
	}
	if len(b) <= MaxInlineOutput {
		return b
	}
	small := *o
	small.Steps = make([]*StepResult, len(o.Steps))
	for i, st := range o.Steps {
		c := *st
		c.Output = spillValue(c.Output, fmt.Sprintf("step%d", i+1))
		small.Steps[i] = &c
	}
	small.Result = spillValue(o.Result, "result")
	small.Warnings = append(append([]string(nil), o.Warnings...), fmt.Sprintf("the answer was %d bytes; values over %d bytes were written to files (see their file fields)", len(b), maxInlineValue))
	if out, err := encodeJSON(&small); err == nil {
		return out
	}
	return b
}

func encodeJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return maskSecretParams(b.Bytes()), nil
}

// SpilledValue stands in the answer for a value written to a file.
type SpilledValue struct {
	Truncated bool   `json:"truncated"`
	File      string `json:"file"`
	Bytes     int    `json:"bytes"`
	Preview   string `json:"preview"`
	// Cut says the file keeps only the first part of the value.
	Cut string `json:"cut,omitempty"`
}

// spillValue writes v to outputs/<time>-<name>.json under the state dir
// when its JSON is larger than maxInlineValue.
func spillValue(v any, name string) any {
	if v == nil {
		return nil
	}
	data, err := encodeJSON(v)
	if err != nil || len(data) <= maxInlineValue {
		return v
	}
	kept, cut := capSpill(data)
	path, err := state.WriteFile(kept, "outputs", time.Now().Format("20060102-150405.000000")+"-"+name+".json")
	if err != nil {
		return v
	}
	preview := data[:1024]
	for len(preview) > 0 && !utf8.Valid(preview) {
		preview = preview[:len(preview)-1]
	}
	return &SpilledValue{Truncated: true, File: path, Bytes: len(data), Preview: string(preview), Cut: cut}
}

// ErrorOutput builds the output of a command that failed before running.
func ErrorOutput(typ, msg string) *Output {
	return &Output{Status: StatusError, Error: &TopError{Type: typ, Message: msg}}
}
