package cmd

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"github.com/cdp-skill/cdp-skill/runtime"
)

// mcpInstructions is what an MCP host shows the model about the server.
const mcpInstructions = `cdp-skill drives Chrome. Open a page with tabs {"action":"open","url":"…"} (or steps {"steps":[{"openTab":"…"}]}); every answer names the tab ("t1"): pass it as "tab" from then on. Act with steps, e.g. {"tab":"t1","steps":[{"click":"s1e4"},{"fill":{"label":"Email","value":"a@b.c"}}]}: targets are refs from a snapshot (s1e4), CSS selectors, {"text":…} or {"label":…}. Each answer is one JSON object: status, each step's output, the page context, what changed and the viewport snapshot; a failed step carries errorType, the error and what to try next. Use run_recipe for Starlark programs (loops, branches) and compile to turn a working step list into one. Tabs, refs and site profiles are shared with the cdp-skill command line.`

func (a *app) mcpCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "mcp",
		Short: "Serve the Model Context Protocol over stdio (tools: steps, run_recipe, snapshot, tabs, compile)",
		Long: `mcp serves cdp-skill as an MCP server on stdin/stdout for agents that speak the
Model Context Protocol. It keeps one connection to Chrome and its tab sessions
for its lifetime, launches Chrome on first use like the command line, and
shares tab aliases and refs with cdp-skill commands on the same state dir.

  claude mcp add cdp-skill -- cdp-skill mcp`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.serveMCP(cmd.Context(), a.stdin, a.stdout)
		},
	}
}

// mcpServer runs tool calls on the shared engine with one kept pool of
// connections and tab sessions.
type mcpServer struct {
	app  *app
	pool *runtime.Pool
}

// serveMCP serves until the client closes the stream or ctx ends.
func (a *app) serveMCP(ctx context.Context, r io.Reader, w io.Writer) error {
	srv := &mcpServer{app: a, pool: runtime.NewPool()}
	srv.pool.KeepEmulation = true // a viewport set by one call lasts for the next
	srv.pool.KeepNetworkLog = true
	defer srv.pool.Close()
	info := &mcpServerInfo{
		impl:         mcpImplementation{Name: "cdp-skill", Title: "cdp-skill: Chrome for agents", Version: Version},
		instructions: mcpInstructions,
		tools:        srv.tools(),
	}
	err := serveMCPSession(ctx, info, r, w)
	if ctx.Err() != nil {
		return nil // interrupted: a normal way for a stdio server to end
	}
	return err
}

// options are the runtime options of every tool call: the command line's,
// with the kept pool.
func (s *mcpServer) options() runtime.Options {
	o := s.app.runtimeOptions()
	o.Pool = s.pool
	return o
}
