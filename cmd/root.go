// Package cmd is the command line of cdp-skill: cobra commands, flags,
// reading the JSON command from the argument or stdin, printing the one JSON
// result and choosing the exit code. It knows nothing about CDP.
package cmd

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/spf13/cobra"

	"github.com/cdp-skill/cdp-skill/browser/chrome"
	"github.com/cdp-skill/cdp-skill/runtime"
	"github.com/cdp-skill/cdp-skill/stdlib"
)

// Environment variables read by the command line.
const (
	EnvPort     = "CDP_SKILL_PORT"
	EnvEndpoint = "CDP_SKILL_ENDPOINT"
	EnvLog      = "CDP_SKILL_LOG"
	EnvHeadless = "CDP_SKILL_HEADLESS"
)

// app holds what every subcommand shares.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	debug          bool
	port           int
	endpoint       string
	headless       bool
	exitCode       int
	log            hclog.Logger
	// route is the endpoint the command's tab lives on when it is not the
	// default one (see routeFor): its resident process and keeper serve it.
	route *chrome.Endpoint
	// cmdTimeout is the JSON command's own timeout ("timeout"), or 0.
	cmdTimeout time.Duration
}

// Execute runs the command line and returns the process exit code.
func Execute(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	runtime.SetStateDirs()
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr}
	args, a.debug = stripDebug(args)
	if positional, ok := a.jsonArgs(args); ok {
		a.runJSON(ctx, positional) // as the cobra tree's root command would
		return a.exitCode
	}
	out := &countingWriter{w: stdout}
	a.stdout = out
	root := a.rootCommand()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(out)
	root.SetErr(stderr)
	if err := root.ExecuteContext(ctx); err != nil {
		fmt.Fprintln(stderr, "cdp-skill:", err)
		if out.n == 0 {
			// A usage error (an unknown flag, a bad flag value, a
			// missing argument): the agent reads stdout, so it gets the
			// answer's form too.
			writeJSON(stdout, runtime.ErrorOutput(runtime.TypeValidation, usageMessage(err)))
		}
		if a.exitCode == 0 {
			a.exitCode = 2
		}
	}
	return a.exitCode
}

// usageMessage is the answer's message for a command line cobra refused.
func usageMessage(err error) string {
	return "the command line is not valid: " + err.Error() + "; see cdp-skill help (a JSON command is one argument: cdp-skill '{\"steps\":[...]}')"
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += n
	return n, err
}

// stripDebug removes --debug wherever it appears (spec §18.6).
func stripDebug(args []string) ([]string, bool) {
	out := args[:0:0]
	debug := false
	for _, a := range args {
		if a == "--debug" {
			debug = true
			continue
		}
		out = append(out, a)
	}
	return out, debug
}

func (a *app) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "cdp-skill ['<json command>']",
		Short: "Drive Chrome over the DevTools Protocol with JSON steps or Starlark recipes",
		Long: `cdp-skill runs a JSON command (as the argument, or on stdin) against Chrome and
prints one JSON object: what happened, the page state, and on failure what to do next.

  cdp-skill '{"steps":[{"openTab":"https://example.com"},{"snapshot":true}]}'
  cdp-skill '{"tab":"t1","steps":[{"click":{"text":"More information"}}]}'
  cdp-skill run login.star --tab t1 --arg email=a@b.c`,
		Args:          cobra.ArbitraryArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRun: func(cmd *cobra.Command, _ []string) {
			a.setup()
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.runJSON(cmd.Context(), args)
		},
	}
	pf := root.PersistentFlags()
	pf.IntVar(&a.port, "port", envInt(EnvPort, chrome.DefaultPort), "Chrome debugging port for new tabs (env "+EnvPort+")")
	pf.StringVar(&a.endpoint, "endpoint", os.Getenv(EnvEndpoint), "remote browser endpoint ws://… or http://host:port (env "+EnvEndpoint+")")
	pf.BoolVar(&a.headless, "headless", envBool(EnvHeadless), "launch Chrome headless (always so without a display)")
	pf.Bool("debug", false, "write request/response pairs to ./log/ (accepted anywhere)")
	root.AddCommand(a.runCommand(), a.compileCommand(), a.checkCommand(), a.chromeCommand(), a.versionCommand(), a.demoCommand(),
		a.recipeCommand(), a.installSkillCommand(), a.keeperCommand(), a.mcpCommand(), a.residentCommand())
	root.SetHelpCommand(a.helpCommand())
	return root
}

// setup makes the logger, once: the root command's PersistentPreRun, or
// runJSON when it runs a command itself (not for one the resident process
// answers).
func (a *app) setup() {
	if a.log != nil {
		return
	}
	level := hclog.LevelFromString(os.Getenv(EnvLog))
	if level == hclog.NoLevel {
		level = hclog.Warn
	}
	if a.debug {
		level = hclog.Debug
	}
	a.log = hclog.New(&hclog.LoggerOptions{Name: "cdp-skill", Output: a.stderr, Level: level})
}

func (a *app) endpointOption() chrome.Endpoint {
	if a.endpoint != "" {
		return chrome.Endpoint{URL: a.endpoint}
	}
	return chrome.Endpoint{Port: a.port}.Normalize()
}

func (a *app) runtimeOptions() runtime.Options {
	return runtime.Options{Endpoint: a.endpointOption(), Headless: a.headless, Logger: a.log, Stdlib: stdlib.FS}
}

// print writes the output and sets the exit code from its status.
func (a *app) print(out *runtime.Output) {
	a.stdout.Write(out.JSON())
	if !out.OK() {
		a.exitCode = 1
	}
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

func envBool(name string) bool {
	v := strings.ToLower(os.Getenv(name))
	return v == "1" || v == "true" || v == "yes"
}
