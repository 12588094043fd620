package cmd

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/cdp-skill/cdp-skill/lang"
	"github.com/cdp-skill/cdp-skill/runtime"
)

func (a *app) runCommand() *cobra.Command {
	var f recipeFlags
	var maxSteps uint64
	c := &cobra.Command{
		Use:   "run FILE.star",
		Short: "Run a Starlark recipe and print the same JSON result as a command",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			start := time.Now()
			recipeArgs, ok := a.recipeArgs(f.args)
			if !ok {
				return nil
			}
			tab, timeout := f.tab, f.timeout
			if err := checkRunTimeout(timeout); err != nil {
				a.print(runtime.ErrorOutput(runtime.TypeValidation, err.Error()))
				return nil
			}
			path := args[0]
			src, err := lang.ReadSource(path)
			if err != nil {
				a.print(runtime.ErrorOutput(runtime.TypeParse, fmt.Sprintf("cannot read recipe: %v", err)))
				return nil
			}
			dir, _ := filepath.Abs(filepath.Dir(path))
			prog := runtime.Program{Name: path, Source: src, Dir: dir, Tab: tab, Args: recipeArgs, Timeout: timeout, MaxSteps: maxSteps}
			run := &residentRecipeRun{Name: path, Source: src, Dir: dir, Tab: tab, Args: recipeArgs, Timeout: timeout, MaxSteps: maxSteps}
			a.routeFor(nil, tab)
			handled, after := a.runResident(cmd.Context(), residentRequest{Kind: residentRecipe, Recipe: run}, src, start)
			defer after()
			if handled {
				return nil
			}
			a.ensureKeeper()
			out := runtime.Run(cmd.Context(), prog, a.runtimeOptions())
			a.notePoolDirect(out)
			a.print(out)
			a.afterCommand(src, nil, out, start)
			return nil
		},
	}
	f.register(c, "recipe argument key=value, available as args[\"key\"] (repeatable)", "wall-clock limit for the whole recipe")
	c.Flags().Uint64Var(&maxSteps, "max-steps", runtime.DefaultMaxSteps, "Starlark execution step limit")
	return c
}

// maxRunTimeout bounds run --timeout: a recipe is not a daemon.
const maxRunTimeout = 24 * time.Hour

// checkRunTimeout refuses a --timeout that is not positive or is beyond
// maxRunTimeout (a negative or zero one used to be taken as none).
func checkRunTimeout(d time.Duration) error {
	if d <= 0 || d > maxRunTimeout {
		return fmt.Errorf("--timeout %s is out of range: give a positive duration up to %s, such as --timeout 2m", d, maxRunTimeout)
	}
	return nil
}

// recipeFlags are the flags run and recipe share: the tab to run in, the
// recipe's --arg pairs and the wall-clock limit.
type recipeFlags struct {
	tab     string
	args    []string
	timeout time.Duration
}

// register adds the flags to c, with the command's own help for --arg and
// --timeout.
func (f *recipeFlags) register(c *cobra.Command, argHelp, timeoutHelp string) {
	c.Flags().StringVar(&f.tab, "tab", "", "tab alias (t1) or target id to run in")
	c.Flags().StringArrayVar(&f.args, "arg", nil, argHelp)
	c.Flags().DurationVar(&f.timeout, "timeout", 5*time.Minute, timeoutHelp)
}

// recipeArgs parses the --arg pairs; on a malformed one it prints the
// validation error as the command's answer and returns false.
func (a *app) recipeArgs(list []string) (map[string]string, bool) {
	args, err := parseArgs(list)
	if err != nil {
		a.print(runtime.ErrorOutput(runtime.TypeValidation, err.Error()))
		return nil, false
	}
	return args, true
}

// parseArgs turns key=value pairs into a map.
func parseArgs(list []string) (map[string]string, error) {
	out := map[string]string{}
	for _, kv := range list {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("--arg %q must be key=value", kv)
		}
		out[k] = v
	}
	return out, nil
}
