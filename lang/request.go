package lang

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// ErrorType is the top-level error class of a command (spec §16.1).
type ErrorType string

// The error types that exist before any step runs.
const (
	ErrParse      ErrorType = "PARSE"
	ErrValidation ErrorType = "VALIDATION"
)

// Error is a PARSE or VALIDATION error of a JSON command.
type Error struct {
	Type    ErrorType
	Message string
	// Step is the 1-based step the error is about, or 0.
	Step int
}

func (e *Error) Error() string {
	if e.Step > 0 {
		return fmt.Sprintf("step %d: %s", e.Step, e.Message)
	}
	return e.Message
}

func parseErr(format string, args ...any) *Error {
	return &Error{Type: ErrParse, Message: fmt.Sprintf(format, args...)}
}

func validationErr(step int, format string, args ...any) *Error {
	return &Error{Type: ErrValidation, Step: step, Message: fmt.Sprintf(format, args...)}
}

// Request is a parsed, validated JSON command.
type Request struct {
	// Tab is the alias or target id to work in ("" = none yet).
	Tab string
	// TimeoutMS is the default step timeout (0 = the runtime default).
	TimeoutMS int
	// Capture holds the post-command capture settings, as given: a preset
	// name or an object.
	Capture any
	// Strict turns off every automatic fallback of the actions (auto-force,
	// the JavaScript click, the value-setter fill).
	Strict bool
	// ContinueOnError is "stopOnError": false (spec §16.4): later steps
	// run after a failed one.
	ContinueOnError bool
	Steps           []*Step
	// OutputPath (top level) saves the last step's full output to a file;
	// it lowers to that step's output_path.
	OutputPath string
	// Warnings are notes about the command as written (a timeout above
	// the maximum, clamped) for the answer's warnings.
	Warnings []string
}

// Step is one validated step.
type Step struct {
	// Index is the 1-based position.
	Index  int
	Action *Action
	// Key is the action key as written (an alias stays an alias).
	Key string
	// Value is the action's value.
	Value any
	// Optional and TimeoutMS are the step modifiers.
	Optional  bool
	TimeoutMS int
	hasTimout bool
	// OutputPath names the file the step's full output is saved to.
	OutputPath string
}

// isTabRef reports whether s has the shape of a tab alias (t1) or a target
// id: 1 to 128 letters, digits, - and _, starting with a letter or digit
// (the browser's state package checks the same before any file use). It is
// written out rather than a regexp: compiling `{0,127}` at start-up costs
// every process a third of a millisecond.
func isTabRef(s string) bool {
	if s == "" || len(s) > 128 || s[0] == '-' || s[0] == '_' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

var topLevelKeys = []string{"tab", "timeout", "stopOnError", "steps", "capture", "strict", "outputPath"}

// ParseRequest parses and validates a JSON command. Errors are *Error.
func ParseRequest(data []byte) (*Request, error) {
	if strings.TrimSpace(string(data)) == "" {
		return nil, parseErr(`empty input: pass a JSON command such as '{"steps":[{"goto":"https://example.com"}]}' as the argument or on stdin`)
	}
	v, err := decodeJSONLimit(data, MaxCommandNesting)
	if err != nil {
		return nil, parseErr("invalid JSON: %v. If you passed it on a shell command line, wrap it in single quotes", err)
	}
	obj, ok := v.(*Object)
	if !ok {
		return nil, parseErr("the command must be a JSON object with a steps array, not a %s", jsonType(v))
	}
	req := &Request{}
	if _, ok := obj.Get("config"); ok {
		return nil, validationErr(0, `the "config" object is no longer supported: put host/port/headless in the openTab step ({"steps":[{"openTab":{"url":"…","port":9333,"headless":true}}]}) and use top-level "tab" and "timeout"`)
	}
	for _, k := range obj.Keys {
		if !contains(topLevelKeys, k) {
			msg := fmt.Sprintf("unknown top-level field %q; valid fields: %s", k, strings.Join(topLevelKeys, ", "))
			if _, isAction := LookupAction(k); isAction {
				msg += fmt.Sprintf(`. Actions go inside steps: {"steps":[{%q: …}]}`, k)
			}
			return nil, validationErr(0, "%s", msg)
		}
	}
	if t, ok := obj.Get("tab"); ok {
		s, ok := t.(string)
		if !ok || s == "" {
			return nil, validationErr(0, `"tab" must be a tab alias such as "t1" or a target id`)
		}
		if !isTabRef(s) {
			return nil, validationErr(0, `"tab" %q is not a tab alias such as "t1" or a target id (letters, digits, - and _): run {"steps":[{"listTabs":true}]} to see the open tabs`, clipText(s, 80))
		}
		req.Tab = s
	}
	if t, ok := obj.Get("timeout"); ok {
		ms, err := positiveMS(t)
		if err != nil {
			return nil, validationErr(0, `"timeout": %v`, err)
		}
		if ms > MaxTimeoutMS {
			req.Warnings = append(req.Warnings, ClampedTimeoutNote(fmt.Sprintf("%d ms", ms)))
			ms = MaxTimeoutMS
		}
		req.TimeoutMS = ms
	}
	if v, ok := obj.Get("strict"); ok {
		b, isBool := v.(bool)
		if !isBool {
			return nil, validationErr(0, `"strict" must be true or false, not a %s`, jsonType(v))
		}
		req.Strict = b
	}
	if v, ok := obj.Get("stopOnError"); ok {
		b, ok := v.(bool)
		if !ok {
			return nil, validationErr(0, `"stopOnError" must be true (the default: stop at the first failed step) or false (run every step and report each one's status), not a %s`, jsonType(v))
		}
		req.ContinueOnError = !b
	}
	if v, ok := obj.Get("outputPath"); ok {
		s, isStr := v.(string)
		if !isStr || strings.TrimSpace(s) == "" {
			return nil, validationErr(0, `"outputPath" must be a file name such as "rows.json" (under the output dir), not a %s`, jsonType(v))
		}
		req.OutputPath = s
	}
	if c, ok := obj.Get("capture"); ok {
		if err := validateCapture(c); err != nil {
			return nil, err
		}
		req.Capture = c
	}
	rawSteps, ok := obj.Get("steps")
	if !ok {
		return nil, validationErr(0, `missing "steps": give an array of steps, e.g. {"steps":[{"goto":"https://example.com"}]}`)
	}
	list, ok := rawSteps.([]any)
	if !ok {
		return nil, validationErr(0, `"steps" must be an array, not a %s`, jsonType(rawSteps))
	}
	if len(list) == 0 {
		return nil, validationErr(0, `"steps" is empty: give at least one step, e.g. [{"snapshot": true}]`)
	}
	for i, raw := range list {
		st, err := parseStep(i+1, raw)
		if err != nil {
			return nil, err
		}
		req.Steps = append(req.Steps, st)
	}
	return req, nil
}

func parseStep(index int, raw any) (*Step, error) {
	obj, ok := raw.(*Object)
	if !ok {
		return nil, validationErr(index, `a step must be an object with one action key, e.g. {"click": "#submit"}, not a %s`, jsonType(raw))
	}
	st := &Step{Index: index}
	var actionKeys, unknown []string
	for _, k := range obj.Keys {
		switch {
		case contains(StepModifiers, k):
		case isActionKey(k):
			actionKeys = append(actionKeys, k)
		default:
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		k := unknown[0]
		msg := fmt.Sprintf("unknown action %q", k)
		if c := closest(k, ActionNames()); c != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", c)
		} else if a := paramOwner(k); a != "" && len(actionKeys) == 1 {
			msg += fmt.Sprintf("; %q is a parameter: put it inside the action's object, e.g. {%q: {…, %q: …}}", k, actionKeys[0], k)
		}
		msg += "; valid actions: " + strings.Join(ActionNames(), ", ")
		return nil, validationErr(index, "%s", msg)
	}
	switch len(actionKeys) {
	case 0:
		return nil, validationErr(index, "the step has no action; valid actions: %s", strings.Join(ActionNames(), ", "))
	case 1:
	default:
		return nil, validationErr(index, "the step has several actions (%s): put each action in its own step", strings.Join(actionKeys, ", "))
	}
	st.Key = actionKeys[0]
	st.Action, _ = LookupAction(st.Key)
	st.Value = obj.Values[st.Key]
	if v, ok := obj.Get("optional"); ok {
		b, ok := v.(bool)
		if !ok {
			return nil, validationErr(index, `"optional" must be true or false`)
		}
		st.Optional = b
	}
	if v, ok := obj.Get("timeout"); ok {
		ms, err := positiveMS(v)
		if err != nil {
			return nil, validationErr(index, `"timeout": %v`, err)
		}
		st.TimeoutMS, st.hasTimout = ms, true
	}
	if v, ok := obj.Get("outputPath"); ok {
		s, isStr := v.(string)
		if !isStr || strings.TrimSpace(s) == "" {
			return nil, validationErr(index, `"outputPath" must be a file name such as "rows.json" (under the output dir), not a %s`, jsonType(v))
		}
		st.OutputPath = s
	}
	if err := validateValue(st); err != nil {
		return nil, err
	}
	return st, nil
}

func isActionKey(k string) bool {
	_, ok := LookupAction(k)
	return ok
}

// paramOwner returns an action that has a parameter called k.
func paramOwner(k string) string {
	for _, a := range Actions() {
		if _, ok := a.Param(k); ok {
			return a.Name
		}
	}
	return ""
}

// validateValue checks the action's value against its positional type and
// parameters.
func validateValue(st *Step) error {
	a := st.Action
	switch v := st.Value.(type) {
	case bool:
		if v {
			return nil
		}
		return validationErr(st.Index, "%s: false is not a valid value; remove the step or give %s", st.Key, usage(a))
	case *Object:
		if kw, unknown := splitKeywords(a, v); unknown == "" {
			for _, k := range kw {
				p, _ := a.Param(k)
				if k == "timeout" {
					// Milliseconds or a duration string, lowered as
					// whole milliseconds (the builtin clamps).
					ms, err := positiveMS(v.Values[k])
					if err != nil {
						return validationErr(st.Index, "%s.timeout: %v", st.Key, err)
					}
					v.Values[k] = json.Number(strconv.Itoa(ms))
					continue
				}
				if !typeAccepts(p.Type, v.Values[k]) {
					return validationErr(st.Index, "%s.%s must be %s, not %s", st.Key, k, withArticle(describeType(p.Type)), withArticle(jsonType(v.Values[k])))
				}
			}
			if err := a.checkJSONOptions(st.Key, v); err != nil {
				return validationErr(st.Index, "%v", err)
			}
			return nil
		} else if !a.MapForm {
			msg := fmt.Sprintf("%s has no parameter %q", st.Key, unknown)
			if c := closest(unknown, paramNames(a)); c != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", c)
			}
			return validationErr(st.Index, "%s; valid parameters: %s (types and defaults: cdp-skill help %s)", msg, strings.Join(paramNames(a), ", "), a.Name)
		}
		if err := a.checkJSONPositional(st.Key, v); err != nil {
			return validationErr(st.Index, "%v", err)
		}
		return nil
	}
	if !typeAccepts(a.Positional, st.Value) {
		return validationErr(st.Index, "%s does not take a %s; give %s", st.Key, jsonType(st.Value), usage(a))
	}
	if err := a.checkJSONPositional(st.Key, st.Value); err != nil {
		return validationErr(st.Index, "%v", err)
	}
	if n, isNum := st.Value.(json.Number); isNum && a.PositionalMS {
		f, _ := n.Float64()
		if _, err := DurationFromMS(f); err != nil {
			return validationErr(st.Index, "%s: %v", st.Key, err)
		}
	}
	return nil
}

// splitKeywords returns the keys of o when all are parameters of a, or the
// first key that is not.
func splitKeywords(a *Action, o *Object) (keys []string, unknown string) {
	for _, k := range o.Keys {
		if _, ok := a.Param(k); !ok || strings.Contains(k, "_") {
			return nil, k
		}
	}
	return o.Keys, ""
}

func paramNames(a *Action) []string {
	var out []string
	for _, p := range a.AllParams() {
		out = append(out, p.Name)
	}
	return out
}

// usage describes the accepted forms of an action for error messages.
func usage(a *Action) string {
	var forms []string
	if a.Positional != "" {
		forms = append(forms, "a "+describeType(a.Positional))
	}
	forms = append(forms, "true", fmt.Sprintf("an object with %s", strings.Join(paramNames(a)[:min(len(a.Params), 6)], ", ")))
	if len(a.Params) == 0 {
		forms = forms[:len(forms)-1]
	}
	return strings.Join(forms, ", or ")
}

// MaxTimeoutMS is the longest step timeout, in milliseconds (5 minutes):
// a longer one is clamped to it, with a warning (spec §18.3).
const MaxTimeoutMS = 300_000

// ClampedTimeoutNote is the warning for a timeout above MaxTimeoutMS,
// written as given ("600000 ms", "10m0s").
func ClampedTimeoutNote(given string) string {
	return fmt.Sprintf("timeout %s is above the maximum of %d ms (5 minutes), so %d ms was used; split longer work into several steps", given, MaxTimeoutMS, MaxTimeoutMS)
}

// maxTimeoutGiven bounds the milliseconds a timeout may be written with,
// so a huge one (1e300) is clamped rather than overflowing a duration.
const maxTimeoutGiven = 1 << 40

// positiveMS reads a timeout: whole milliseconds from 1 up, or a duration
// string ("5s", "1m30s"). Values above MaxTimeoutMS are returned as given
// (up to maxTimeoutGiven): the caller clamps them and says so.
func positiveMS(v any) (int, error) {
	var f float64
	switch x := v.(type) {
	case json.Number:
		var err error
		if f, err = x.Float64(); err != nil || math.IsNaN(f) {
			return 0, fmt.Errorf("must be a positive number of milliseconds, not %s", x)
		}
	case string:
		d, err := time.ParseDuration(strings.TrimSpace(x))
		if err != nil {
			return 0, fmt.Errorf("%q is neither milliseconds nor a duration such as \"5s\" or \"1m30s\"", clipText(x, 40))
		}
		f = float64(d) / float64(time.Millisecond)
	default:
		return 0, fmt.Errorf("must be a number of milliseconds or a duration such as \"5s\", not a %s", jsonType(v))
	}
	switch {
	case f < 0:
		return 0, fmt.Errorf("must be a positive number of milliseconds, not %v", v)
	case f < 1:
		return 0, fmt.Errorf("%v is below 1 ms, so every step would fail at once: give at least 1, or leave timeout out for the default (30000)", v)
	case f > maxTimeoutGiven:
		return maxTimeoutGiven, nil
	case f != math.Trunc(f):
		return 0, fmt.Errorf("%v is not a whole number of milliseconds", v)
	}
	return int(f), nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// CapturePresets and CaptureSettings are the accepted values of the
// top-level "capture" field.
var (
	CapturePresets  = []string{"full", "compact", "minimal", "none"}
	CaptureSettings = []string{"screenshot", "viewportSnapshot", "fullSnapshot", "diff", "console", "preset"}
)

func validateCapture(v any) error {
	switch c := v.(type) {
	case string:
		if contains(CapturePresets, c) {
			return nil
		}
		return validationErr(0, `"capture" preset %q is not one of %s`, c, strings.Join(CapturePresets, ", "))
	case *Object:
		for _, k := range c.Keys {
			if !contains(CaptureSettings, k) {
				return validationErr(0, `"capture" has no setting %q; settings: %s`, k, strings.Join(CaptureSettings, ", "))
			}
			if _, ok := c.Values[k].(bool); !ok && k != "preset" {
				return validationErr(0, `"capture.%s" must be true or false`, k)
			}
		}
		return nil
	}
	return validationErr(0, `"capture" must be a preset (%s) or an object such as {"screenshot": false}`, strings.Join(CapturePresets, ", "))
}
