// Command cdp-skill-mcp serves cdp-skill over the Model Context Protocol
// with the official Go SDK; `cdp-skill mcp` runs it. It takes the same
// arguments as `cdp-skill mcp` (the word mcp may be left out).
package main

import (
	"context"
	"os"
	"os/signal"
	"slices"

	"github.com/cdp-skill/cdp-skill/cmd"
	"github.com/cdp-skill/cdp-skill/cmd/mcpserver"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	cmd.RegisterMCP(mcpserver.Serve)
	args := os.Args[1:]
	if !slices.Contains(args, "mcp") {
		args = append([]string{"mcp"}, args...)
	}
	code := cmd.Execute(ctx, args, os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
