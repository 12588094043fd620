package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/state"
	"github.com/cdp-skill/cdp-skill/lang"
	"github.com/cdp-skill/cdp-skill/runtime"
)

// tools are the server's tools. Each lowers to the same JSON command or
// program the command line runs: one implementation per action.
func (s *mcpServer) tools() []*mcpTool {
	return []*mcpTool{{
		Name:        "steps",
		Title:       "Run steps",
		Description: `Run a cdp-skill JSON command in Chrome: {"tab":"t1","steps":[{"click":"s1e4"}],"capture":"compact"}. Without a tab, start with {"openTab":"<url>"}. Answers the command's JSON (status, steps[], context, changes, viewportSnapshot, errors with hints); a screenshot the capture took comes as an image too.`,
		InputSchema: lang.CommandSchema(),
		Annotations: &toolAnnotations{OpenWorldHint: ptrTo(true)},
		call:        s.steps,
	}, {
		Name:        "run_recipe",
		Title:       "Run a Starlark recipe",
		Description: `Run a Starlark recipe (the builtins are the steps in snake_case: click(ref = "s1e4"), fill(label = "Email", value = args["email"]), loops, functions, load("@stdlib/…")): inline source, a .star file, or a site profile's recipe by site and name. args become the dict args; the global result is reported as result.`,
		InputSchema: recipeSchema(),
		Annotations: &toolAnnotations{OpenWorldHint: ptrTo(true)},
		call:        s.runRecipe,
	}, {
		Name:        "snapshot",
		Title:       "Snapshot the page",
		Description: `The ARIA snapshot of a tab, with refs (s1e4) to act on in steps. Options as the snapshot step's, e.g. {"tab":"t1","detail":"interactive"} or {"tab":"t1","since":"s3"}.`,
		InputSchema: snapshotSchema(),
		Annotations: &toolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptrTo(true)},
		call:        s.snapshot,
	}, {
		Name:        "tabs",
		Title:       "List, open or close tabs",
		Description: `Tabs of the browser: {"action":"list"}, {"action":"open","url":"https://…"} (launches Chrome when none runs; the answer names the new tab, e.g. "t1"), {"action":"close","tab":"t1"}. Aliases are shared with the cdp-skill command line.`,
		InputSchema: tabsSchema(),
		Annotations: &toolAnnotations{OpenWorldHint: ptrTo(true)},
		call:        s.tabs,
	}, {
		Name:        "compile",
		Title:       "Compile steps to Starlark",
		Description: `Print the Starlark recipe a JSON command lowers to (nothing runs), to grow a working step list into a recipe for run_recipe.`,
		InputSchema: lang.CommandSchema(),
		Annotations: &toolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptrTo(false)},
		call:        s.compile,
	}}
}

func ptrTo[T any](v T) *T { return &v }

// steps runs a JSON command, as `cdp-skill '<json>'` does.
func (s *mcpServer) steps(ctx context.Context, args json.RawMessage) *toolResult {
	return s.runJSON(ctx, args)
}

// runJSON runs a JSON command and answers its output.
func (s *mcpServer) runJSON(ctx context.Context, input []byte) *toolResult {
	start := time.Now()
	parsed, out := runtime.RunJSON(ctx, input, s.options())
	s.app.afterCommand(input, parsed, out, start)
	return commandResult(out)
}

// snapshot runs {"tab": …, "steps": [{"snapshot": {options}}]}.
func (s *mcpServer) snapshot(ctx context.Context, raw json.RawMessage) *toolResult {
	args, errRes := objectArgs(raw)
	if errRes != nil {
		return errRes
	}
	tab := args["tab"]
	delete(args, "tab")
	cmd := map[string]any{"steps": []any{map[string]any{"snapshot": stepValue(args)}}}
	if tab != nil {
		cmd["tab"] = tab
	}
	return s.runJSON(ctx, mustJSON(cmd))
}

// tabsInput is the tabs tool's argument.
type tabsInput struct {
	Action string `json:"action"`
	URL    string `json:"url,omitempty"`
	Tab    string `json:"tab,omitempty"`
}

// tabs lowers list/open/close to the listTabs, openTab and closeTab steps.
func (s *mcpServer) tabs(ctx context.Context, args json.RawMessage) *toolResult {
	var in tabsInput
	if errRes := decodeArgs(args, &in); errRes != nil {
		return errRes
	}
	var step map[string]any
	switch in.Action {
	case "list":
		step = map[string]any{"listTabs": true}
	case "open":
		step = map[string]any{"openTab": true}
		if in.URL != "" {
			step["openTab"] = in.URL
		}
	case "close":
		if in.Tab == "" {
			return errorResult(runtime.TypeValidation, `tabs close needs "tab": the alias ("t1") or target id of the tab to close; {"action":"list"} shows them`)
		}
		step = map[string]any{"closeTab": in.Tab}
	default:
		return errorResult(runtime.TypeValidation, fmt.Sprintf(`tabs "action" must be list, open or close, not %q`, in.Action))
	}
	return s.runJSON(ctx, mustJSON(map[string]any{"steps": []any{step}}))
}

// compile answers the Starlark a JSON command lowers to.
func (s *mcpServer) compile(_ context.Context, args json.RawMessage) *toolResult {
	parsed, err := lang.ParseRequest(args)
	if err != nil {
		return commandResult(runtime.LangErrorOutput(err))
	}
	src, err := lang.Lower(parsed)
	if err != nil {
		return commandResult(runtime.LangErrorOutput(err))
	}
	return &toolResult{Content: []any{newText(src)}}
}

// recipeInput is the run_recipe tool's argument: exactly one of source,
// path, or site and name.
type recipeInput struct {
	Source  string         `json:"source,omitempty"`
	Path    string         `json:"path,omitempty"`
	Site    string         `json:"site,omitempty"`
	Name    string         `json:"name,omitempty"`
	Args    map[string]any `json:"args,omitempty"`
	Tab     string         `json:"tab,omitempty"`
	Timeout float64        `json:"timeout,omitempty"`
}

// runRecipe runs a recipe as `cdp-skill run` or `cdp-skill recipe` does.
func (s *mcpServer) runRecipe(ctx context.Context, args json.RawMessage) *toolResult {
	start := time.Now()
	var in recipeInput
	if errRes := decodeArgs(args, &in); errRes != nil {
		return errRes
	}
	prog, err := in.program()
	if err != nil {
		return errorResult(runtime.TypeValidation, err.Error())
	}
	out := runtime.Run(ctx, prog, s.options())
	s.app.afterCommand(prog.Source, nil, out, start)
	return commandResult(out)
}

// program builds the program the input names.
func (in recipeInput) program() (runtime.Program, error) {
	args, err := recipeArgs(in.Args)
	if err != nil {
		return runtime.Program{}, err
	}
	prog := runtime.Program{Tab: in.Tab, Args: args, Timeout: 5 * time.Minute}
	if in.Timeout < 0 {
		return prog, fmt.Errorf(`"timeout" must be a positive number of milliseconds, not %v`, in.Timeout)
	}
	if in.Timeout > 0 {
		prog.Timeout = time.Duration(in.Timeout * float64(time.Millisecond))
	}
	given := 0
	for _, v := range []string{in.Source, in.Path, in.Site + in.Name} {
		if v != "" {
			given++
		}
	}
	if given != 1 {
		return prog, fmt.Errorf(`run_recipe needs exactly one of "source" (Starlark text), "path" (a .star file) or "site" and "name" (a site profile's recipe)`)
	}
	switch {
	case in.Source != "":
		prog.Name, prog.Source = "recipe.star", []byte(in.Source)
		if wd, err := os.Getwd(); err == nil {
			prog.Dir = wd
		}
	case in.Path != "":
		src, err := os.ReadFile(in.Path)
		if err != nil {
			return prog, fmt.Errorf("cannot read recipe: %v", err)
		}
		prog.Name, prog.Source = in.Path, src
		prog.Dir, _ = filepath.Abs(filepath.Dir(in.Path))
	default:
		if in.Site == "" || in.Name == "" {
			return prog, fmt.Errorf(`a site profile's recipe needs both "site" (its domain) and "name"`)
		}
		domain, err := state.NormalizeDomain(in.Site)
		if err != nil {
			return prog, err
		}
		prog.Name = "recipe " + domain + "/" + in.Name
		prog.Source = []byte(recipeProgram(domain, in.Name, args))
		prog.Args = nil
	}
	return prog, nil
}

// recipeArgs turns the args object into the recipe's string arguments;
// numbers and booleans are passed as their JSON text.
func recipeArgs(in map[string]any) (map[string]string, error) {
	out := map[string]string{}
	for k, v := range in {
		switch x := v.(type) {
		case string:
			out[k] = x
		case float64, bool:
			out[k] = fmt.Sprint(x)
		default:
			return nil, fmt.Errorf(`args[%q] must be a string, number or boolean (recipes read args as strings), not %s`, k, jsonKind(v))
		}
	}
	return out, nil
}

// decodeArgs decodes a tool's arguments strictly into v.
func decodeArgs(raw json.RawMessage, v any) *toolResult {
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return errorResult(runtime.TypeValidation, "invalid arguments: "+strings.TrimPrefix(err.Error(), "json: "))
	}
	return nil
}

// objectArgs decodes a tool's arguments as a JSON object.
func objectArgs(raw json.RawMessage) (map[string]any, *toolResult) {
	m := map[string]any{}
	if errRes := decodeArgs(raw, &m); errRes != nil {
		return nil, errRes
	}
	return m, nil
}

// stepValue is an action's value: true without options.
func stepValue(opts map[string]any) any {
	if len(opts) == 0 {
		return true
	}
	return opts
}

func mustJSON(v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("mcp: encode a command: %v", err)) // only maps of JSON values
	}
	return data
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// recipeSchema is run_recipe's input schema.
func recipeSchema() map[string]any {
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"source":  map[string]any{"type": "string", "description": "Starlark source of the recipe"},
			"path":    map[string]any{"type": "string", "description": "a .star file to run (load() reads files next to it)"},
			"site":    map[string]any{"type": "string", "description": "with name: the domain whose site profile holds the recipe"},
			"name":    map[string]any{"type": "string", "description": "with site: the recipe's name"},
			"args":    map[string]any{"type": "object", "additionalProperties": map[string]any{"type": []string{"string", "number", "boolean"}}, "description": `recipe arguments, read as strings: args["email"]`},
			"tab":     map[string]any{"type": "string", "description": `tab alias ("t1") or target id to run in`},
			"timeout": map[string]any{"type": "number", "minimum": 0, "description": "wall-clock limit in ms (default 5 minutes)"},
		},
		"additionalProperties": false,
	}
}

// snapshotSchema is the snapshot tool's input schema: the snapshot step's
// parameters and the tab.
func snapshotSchema() map[string]any {
	a, _ := lang.LookupAction("snapshot")
	s := lang.ParamsSchema(a)
	props := s["properties"].(map[string]any)
	props["tab"] = map[string]any{"type": "string", "description": `tab alias ("t1") or target id`}
	s["required"] = []string{"tab"}
	return s
}

// tabsSchema is the tabs tool's input schema.
func tabsSchema() map[string]any {
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"action": map[string]any{"enum": []string{"list", "open", "close"}},
			"url":    map[string]any{"type": "string", "description": "open: the page to load (default about:blank)"},
			"tab":    map[string]any{"type": "string", "description": `close: the tab's alias ("t1") or target id`},
		},
		"required":             []string{"action"},
		"additionalProperties": false,
	}
}
