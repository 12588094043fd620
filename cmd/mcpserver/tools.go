package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cdp-skill/cdp-skill/lang"
	"github.com/cdp-skill/cdp-skill/runtime"
)

// toolDef is a tool and its handler.
type toolDef struct {
	tool    *mcp.Tool
	handler mcp.ToolHandler
}

func ptr[T any](v T) *T { return &v }

// tools are the server's tools, shaped by permission.
func (s *server) tools() []toolDef {
	var out []toolDef
	for _, t := range stepTools {
		out = append(out, toolDef{&mcp.Tool{
			Name: t.name, Description: t.doc,
			InputSchema:  t.schema(),
			OutputSchema: outputSchema(),
			Annotations:  &mcp.ToolAnnotations{Title: t.title, ReadOnlyHint: t.readOnly, DestructiveHint: ptr(t.destructive), OpenWorldHint: ptr(true)},
		}, s.call(t.name, s.stepsHandler(t))})
	}
	out = append(out, toolDef{&mcp.Tool{
		Name:         "tabs",
		Description:  `Tabs of the browser: {"action":"list"}; {"action":"open","url":"https://…"} (launches Chrome when none runs; answers the tab's alias, e.g. "t1", and its snapshot); {"action":"close","tab":"t1"}. Tabs a session opened close when it ends, unless opened with "keep":true. Aliases are shared with the command line.`,
		InputSchema:  tabsSchema(),
		OutputSchema: outputSchema(),
		Annotations:  &mcp.ToolAnnotations{Title: "List, open or close tabs", DestructiveHint: ptr(true), OpenWorldHint: ptr(true)},
	}, s.call("tabs", s.tabsTool)})
	out = append(out, toolDef{&mcp.Tool{
		Name:         "run_recipe",
		Description:  `Run a Starlark recipe: the builtins are every step, in snake_case (click(ref = "s1e4"), fill(label = "Email", value = args["email"])), with loops, functions and load("@stdlib/…"). Exactly one of: {"source":"…"}, {"path":"flow.star"}, {"site":"example.com","name":"login"}. args become the dict args; the global result is the answer's result. A recipe can do what every other tool does.`,
		InputSchema:  recipeSchema(),
		OutputSchema: outputSchema(),
		Annotations:  &mcp.ToolAnnotations{Title: "Run a Starlark recipe", DestructiveHint: ptr(true), OpenWorldHint: ptr(true)},
	}, s.call("run_recipe", s.runRecipe)})
	out = append(out, toolDef{&mcp.Tool{
		Name:         "compile",
		Description:  `The Starlark recipe steps lower to (nothing runs), to grow them into a recipe: {"steps":[{"click":"#go"}]} answers "recipe".`,
		InputSchema:  compileSchema(),
		OutputSchema: outputSchema(),
		Annotations:  &mcp.ToolAnnotations{Title: "Compile steps to Starlark", ReadOnlyHint: true, IdempotentHint: true, DestructiveHint: ptr(false), OpenWorldHint: ptr(false)},
	}, s.call("compile", s.compile)})
	return out
}

// handlerFunc runs one call on its decoded arguments.
type handlerFunc func(ctx context.Context, c *callInfo, args map[string]any) *runtime.Output

// callInfo is what a handler knows of its call.
type callInfo struct {
	tool    string
	session string
	// recipe is compile's answer (a tool answering text, not a command).
	recipe string
}

// call wraps a handler: arguments as an object, the call's turn among the
// calls on its tab, progress while it runs, and the answer.
func (s *server) call(tool string, h handlerFunc) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		seq, ok := ticket(req.Params.Meta)
		if !ok { // not stamped by our connection (Streamable HTTP): in order from here
			seq = s.seq.arrive(tabKey(req.Params.Arguments))
		}
		defer s.seq.done(seq)
		if err := s.seq.turn(ctx, seq); err != nil {
			return nil, err
		}
		stop := s.progress(ctx, req)
		defer stop()
		c := &callInfo{tool: tool, session: req.Session.ID()}
		args, err := objectArgs(tool, req.Params.Arguments)
		var out *runtime.Output
		if err != nil {
			out = runtime.ErrorOutput(runtime.TypeValidation, err.Error())
		} else {
			out = h(ctx, c, args)
		}
		if ctx.Err() != nil {
			return nil, ctx.Err() // cancelled: the connection sends no answer
		}
		if c.recipe != "" {
			return recipeResult(c.recipe), nil
		}
		return commandResult(out), nil
	}
}

// ticket reads the arrival ticket the connection stamped on the call.
func ticket(meta mcp.Meta) (uint64, bool) {
	f, ok := meta[metaSeq].(float64)
	return uint64(f), ok && f > 0
}

// progress sends a progress notification every second while the call runs,
// when the client gave a progressToken: a long wait keeps the client's
// timeout alive. The returned func stops it.
func (s *server) progress(ctx context.Context, req *mcp.CallToolRequest) func() {
	token := req.Params.GetProgressToken()
	if token == nil {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		start := time.Now()
		tick := time.NewTicker(progressInterval)
		defer tick.Stop()
		for n := 1; ; n++ {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
				req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: float64(n),
					Message: fmt.Sprintf("%s running for %s", req.Params.Name, time.Since(start).Round(time.Second))})
			}
		}
	}()
	return func() { close(done) }
}

// progressInterval is how often a running call reports progress.
const progressInterval = time.Second

// stepsHandler runs a step tool's command after checking that every step
// is the tool's own.
func (s *server) stepsHandler(t *stepTool) handlerFunc {
	return func(ctx context.Context, c *callInfo, args map[string]any) *runtime.Output {
		for k := range args {
			if !slices.Contains(commandKeys, k) {
				return validation(fmt.Sprintf("%s takes %s; not %q", t.name, strings.Join(commandKeys, ", "), k))
			}
		}
		if _, ok := args["capture"]; !ok {
			args["capture"] = "compact"
		}
		input := mustJSON(args)
		req, err := lang.ParseRequest(input)
		if err != nil {
			return runtime.LangErrorOutput(err)
		}
		if msg := t.refuse(req); msg != "" {
			return validation(msg)
		}
		return s.run(ctx, c, input, false)
	}
}

// commandKeys are the fields a step tool takes.
var commandKeys = []string{"tab", "steps", "capture", "timeout", "stopOnError", "strict"}

// refuse names the first step the tool does not take, and the tool that
// does.
func (t *stepTool) refuse(req *lang.Request) string {
	for _, st := range req.Steps {
		if !slices.Contains(t.actions, st.Action.Name) {
			return fmt.Sprintf("step %d: %s is not an %s step: call the %s tool with it", st.Index, st.Action.Name, t.name, toolOf(st.Action.Name))
		}
		if t.hooks {
			continue
		}
		if obj, ok := st.Value.(*lang.Object); ok {
			for _, h := range lang.HookParams {
				if _, has := obj.Get(h); has {
					return fmt.Sprintf("step %d: %s runs page JavaScript: call the evaluate tool for a step with it, or wait declaratively (a wait step: selector, text, url)", st.Index, h)
				}
			}
		}
	}
	return ""
}

// run runs a JSON command and records the tabs it opened for the session.
func (s *server) run(ctx context.Context, c *callInfo, input []byte, keep bool) *runtime.Output {
	start := time.Now()
	opts := s.host.Options(s.pool)
	var cmd struct {
		Tab string `json:"tab"`
	}
	_ = json.Unmarshal(input, &cmd) // a command of this server's own making
	opts.StepSyntax = toolSyntax(cmd.Tab)
	req, out := runtime.RunJSON(ctx, input, opts)
	s.host.AfterCommand(input, req, out, start)
	if req != nil && out.Tab != "" && opensTab(req) {
		s.tabs.add(c.session, out.Tab, keep)
	}
	return out
}

func opensTab(req *lang.Request) bool {
	for _, st := range req.Steps {
		if st.Action.OpensTab && st.Action.Name != "connectTab" {
			return true
		}
	}
	return false
}

func validation(msg string) *runtime.Output { return runtime.ErrorOutput(runtime.TypeValidation, msg) }

func mustJSON(v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("mcp: encode a command: %v", err)) // only maps of JSON values
	}
	return data
}
