package cmd

import (
	"context"
	"time"

	"github.com/cdp-skill/cdp-skill/lang"
	"github.com/cdp-skill/cdp-skill/runtime"
)

// runJSON runs a JSON command given as the argument or on stdin.
func (a *app) runJSON(ctx context.Context, args []string) error {
	start := time.Now()
	input, err := readCommand(args, a.stdin)
	if err == nil {
		a.routeFor(input, "")
		handled, after := a.runResident(ctx, residentRequest{Kind: residentJSON, Input: input}, input, start)
		defer after()
		if handled {
			return nil
		}
	}
	a.setup() // jsonArgs leaves it to here: a resident's answer needs no logger
	var out *runtime.Output
	var req *lang.Request
	if err != nil {
		out = runtime.ErrorOutput(runtime.TypeParse, err.Error())
	} else {
		a.ensureKeeper()
		req, out = runtime.RunJSON(ctx, input, a.runtimeOptions())
		a.notePoolDirect(out)
	}
	a.print(out)
	a.afterCommand(input, req, out, start)
	return nil
}
