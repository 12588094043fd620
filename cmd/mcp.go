package cmd

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/cdp-skill/cdp-skill/lang"
	"github.com/cdp-skill/cdp-skill/runtime"
)

// MCPBinary is the program that serves MCP: the official Go SDK lives in it,
// not in cdp-skill, so that every other command starts without the SDK's
// package initialisation (see docs/ARCHITECTURE.md, "MCP server").
const MCPBinary = "cdp-skill-mcp"

// EnvMCPToken is the bearer token `mcp --http` requires of every request.
const EnvMCPToken = "CDP_SKILL_MCP_TOKEN"

// MCPServeFunc serves MCP for host until the client goes away or ctx ends.
type MCPServeFunc func(ctx context.Context, host *MCPHost) error

// mcpServe is the server linked into this program (cdp-skill-mcp sets it
// with RegisterMCP); nil in cdp-skill, whose mcp command hands over to
// cdp-skill-mcp.
var mcpServe MCPServeFunc

// RegisterMCP links the MCP server into this program: `mcp` then serves in
// process instead of running cdp-skill-mcp.
func RegisterMCP(f MCPServeFunc) { mcpServe = f }

// MCPHost is what the MCP server needs of the command line: its flags, its
// streams and the runtime options every command runs with.
type MCPHost struct {
	a *app
	// HTTP is the address of the Streamable HTTP endpoint; "" serves stdio.
	HTTP string
	// Token is the bearer token HTTP requests must carry ("" = none).
	Token string
	// KeepTabs leaves the tabs a session opened open when its client goes.
	KeepTabs bool
	// Version is the program's version.
	Version string
}

// Stdin and Stdout are the stdio transport's streams; Stderr takes logs.
func (h *MCPHost) Stdin() io.Reader  { return h.a.stdin }
func (h *MCPHost) Stdout() io.Writer { return h.a.stdout }
func (h *MCPHost) Stderr() io.Writer { return h.a.stderr }

// Options are the runtime options of the command line, for pool.
func (h *MCPHost) Options(pool *runtime.Pool) runtime.Options {
	o := h.a.runtimeOptions()
	o.Pool = pool
	return o
}

// AfterCommand records a finished command as the command line does (the
// debug log, the metrics line).
func (h *MCPHost) AfterCommand(input []byte, req *lang.Request, out *runtime.Output, start time.Time) {
	h.a.afterCommand(input, req, out, start)
}

// SiteRecipeProgram is the program that runs a site profile's recipe with
// args, as `cdp-skill recipe` runs it.
func SiteRecipeProgram(domain, name string, args map[string]string) string {
	return recipeProgram(domain, name, args)
}

func (a *app) mcpCommand() *cobra.Command {
	host := &MCPHost{a: a, Version: Version}
	c := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the Model Context Protocol over stdio or Streamable HTTP",
		Long: `mcp serves cdp-skill as an MCP server for agents that speak the Model Context
Protocol: on stdin/stdout, or with --http on a Streamable HTTP endpoint. It keeps
one connection to Chrome and its tab sessions for its lifetime, launches Chrome
on first use like the command line, and shares tab aliases and refs with
cdp-skill commands on the same state dir. Tools: observe, interact, evaluate,
network_storage, tabs, run_recipe, compile. Tabs a session opened are closed
when its client goes away, unless it opened them with "keep": true or the server
runs with --keep-tabs.

The server is the program cdp-skill-mcp, next to cdp-skill (make build builds
both); cdp-skill mcp runs it.

  claude mcp add cdp-skill -- cdp-skill mcp
  cdp-skill mcp --http 127.0.0.1:8931
  CDP_SKILL_MCP_TOKEN=secret cdp-skill mcp --http 0.0.0.0:8931`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			host.Token = os.Getenv(EnvMCPToken)
			if mcpServe != nil {
				a.setup()
				return mcpServe(cmd.Context(), host)
			}
			return execMCP()
		},
	}
	c.Flags().StringVar(&host.HTTP, "http", "", "serve Streamable HTTP on this address (loopback, e.g. 127.0.0.1:8931; any other address needs "+EnvMCPToken+")")
	c.Flags().BoolVar(&host.KeepTabs, "keep-tabs", false, "leave the tabs a session opened open when its client goes away")
	return c
}

// execMCP replaces this process with cdp-skill-mcp, found next to this
// program (or on PATH), with the same arguments.
func execMCP() error {
	bin, err := mcpBinaryPath()
	if err != nil {
		return err
	}
	return execProgram(bin, append([]string{bin}, os.Args[1:]...), os.Environ())
}

// mcpBinaryPath finds cdp-skill-mcp next to the running program, else on
// PATH.
func mcpBinaryPath() (string, error) {
	if self, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(self); err == nil {
			self = real
		}
		p := filepath.Join(filepath.Dir(self), MCPBinary)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	if p, err := lookPath(MCPBinary); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("the MCP server is the program %s, found neither next to this program nor on PATH: build it with `make build` (or `go build -o <dir of cdp-skill>/%s ./cmd/%s`)", MCPBinary, MCPBinary, MCPBinary)
}
