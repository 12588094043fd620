// Command cdp-skill lets AI agents drive Chrome over the DevTools Protocol
// with JSON steps or Starlark recipes. See the README.
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/cdp-skill/cdp-skill/cmd"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := cmd.Execute(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
