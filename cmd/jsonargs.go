package cmd

import (
	"os"
	"strconv"
	"strings"

	"github.com/cdp-skill/cdp-skill/browser/chrome"
)

// jsonArgs reads args (--debug already removed) the way the cobra tree
// would when they run the root command, the JSON command: the persistent
// flags --port, --endpoint and --headless (also as --flag=value, before or
// after the command, the last one winning) and the positional arguments,
// which must be none (stdin) or start with '{'. It sets a's flag fields
// and returns the positional arguments. ok is false for anything else (a
// subcommand, help, "--", an unknown flag, a flag without or with a bad
// value): the cobra tree then parses them, and reports their errors, as
// always. This spares a command on the hot path (an agent's step, mostly
// answered by the resident process) building the whole command tree.
func (a *app) jsonArgs(args []string) (positional []string, ok bool) {
	a.port, a.endpoint, a.headless = envInt(EnvPort, chrome.DefaultPort), os.Getenv(EnvEndpoint), envBool(EnvHeadless)
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if len(arg) <= 1 || arg[0] != '-' { // pflag's test for a non-flag
			positional = append(positional, arg)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimPrefix(arg, "--"), "=")
		if !strings.HasPrefix(arg, "--") {
			return nil, false // a shorthand such as -h
		}
		switch name {
		case "headless":
			if !hasValue {
				a.headless = true
				continue
			}
			b, err := strconv.ParseBool(value) // as pflag's bool flag
			if err != nil {
				return nil, false
			}
			a.headless = b
		case "port", "endpoint":
			if !hasValue {
				if i+1 == len(args) {
					return nil, false
				}
				i++
				value = args[i]
			}
			if name == "endpoint" {
				a.endpoint = value
				continue
			}
			n, err := strconv.ParseInt(value, 0, 64) // as pflag's int flag
			if err != nil {
				return nil, false
			}
			a.port = int(n)
		default:
			return nil, false
		}
	}
	if len(positional) > 0 && !strings.HasPrefix(strings.TrimSpace(positional[0]), "{") {
		return nil, false // maybe a subcommand's name
	}
	return positional, true
}
