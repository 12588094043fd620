// Package suggest holds the steps a hint tells the agent to run, typed, so
// that each frontend writes them in its own syntax: a JSON step for a JSON
// command ({"reload":true}), a builtin call for a Starlark recipe
// (reload()), the tool and its arguments for an MCP client.
package suggest

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Step is one step a hint suggests: the step's name (as the JSON command
// and the catalog spell it) and its value, which is what follows the name
// in a JSON step: true for the step's default form, a string or number for
// its positional form, or Args.
type Step struct {
	Name  string
	Value any
}

// Args are a step's named arguments, in the order they are written.
type Args []Arg

// Arg is one named argument of a step.
type Arg struct {
	Key   string
	Value any
}

// MarshalJSON writes the arguments as a JSON object in their order.
func (a Args) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, arg := range a {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(arg.Key)
		if err != nil {
			return nil, err
		}
		v, err := marshal(arg.Value)
		if err != nil {
			return nil, fmt.Errorf("argument %s: %w", arg.Key, err)
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshal encodes v without escaping <, > and & (a hint is read, not
// embedded in HTML).
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// JSON is the step as a JSON command writes it: {"reload":true}.
func (s Step) JSON() string {
	v, err := marshal(Args{{s.Name, s.Value}})
	if err != nil {
		// Only a value no JSON can hold gets here: say the name.
		return s.Name
	}
	return string(v)
}

// Syntax writes a step in a frontend's syntax.
type Syntax func(Step) string

// JSON writes steps as a JSON command does.
func JSON(s Step) string { return s.JSON() }

// Hint is advice for the agent that names steps to run: Format holds one
// %s for each step, in order.
type Hint struct {
	Format string
	Steps  []Step
}

// New is the hint format with steps for its %s verbs.
func New(format string, steps ...Step) *Hint {
	return &Hint{Format: format, Steps: steps}
}

// Render writes the hint with its steps in syntax (JSON when nil).
func (h *Hint) Render(syntax Syntax) string {
	if h == nil {
		return ""
	}
	if syntax == nil {
		syntax = JSON
	}
	args := make([]any, len(h.Steps))
	for i, s := range h.Steps {
		args[i] = syntax(s)
	}
	return fmt.Sprintf(h.Format, args...)
}

// String is the hint in JSON syntax.
func (h *Hint) String() string { return h.Render(JSON) }

// After is the hint with text (and the steps of its %s verbs) written
// before it.
func (h *Hint) After(format string, steps ...Step) *Hint {
	return &Hint{Format: format + h.Format, Steps: append(append([]Step(nil), steps...), h.Steps...)}
}
