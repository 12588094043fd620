package cmd

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/cdp-skill/cdp-skill/browser/state"
	"github.com/cdp-skill/cdp-skill/runtime"
)

func (a *app) recipeCommand() *cobra.Command {
	var f recipeFlags
	c := &cobra.Command{
		Use:   "recipe DOMAIN NAME",
		Short: "Run a recipe stored in a site profile (same answer as a command)",
		Args:  cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			start := time.Now()
			recipeArgs, ok := a.recipeArgs(f.args)
			if !ok {
				return nil
			}
			domain, err := state.NormalizeDomain(args[0])
			if err != nil {
				a.print(runtime.ErrorOutput(runtime.TypeValidation, err.Error()))
				return nil
			}
			src := recipeProgram(domain, args[1], recipeArgs)
			prog := runtime.Program{Name: "recipe " + domain + "/" + args[1], Source: []byte(src), Tab: f.tab, Timeout: f.timeout}
			out := runtime.Run(cmd.Context(), prog, a.runtimeOptions())
			a.print(out)
			a.afterCommand([]byte(src), nil, out, start)
			return nil
		},
	}
	f.register(c, "recipe argument key=value (repeatable)", "wall-clock limit")
	return c
}

// recipeProgram is the one-step program that runs a site recipe, the same
// step a JSON command would use.
func recipeProgram(domain, name string, args map[string]string) string {
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var kv []string
	for _, k := range keys {
		kv = append(kv, fmt.Sprintf("%q: %q", k, args[k]))
	}
	return fmt.Sprintf("r = recipe(site = %q, name = %q, args = {%s})\nresult = r.result\n", domain, name, strings.Join(kv, ", "))
}
