package cmd

import (
	"encoding/json"
	"fmt"
	goruntime "runtime"

	"github.com/spf13/cobra"

	"github.com/cdp-skill/cdp-skill/browser/chrome"
	"github.com/cdp-skill/cdp-skill/lang"
	"github.com/cdp-skill/cdp-skill/runtime"
)

func (a *app) chromeCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "chrome status|stop",
		Short: "Check, launch or stop the Chrome cdp-skill uses",
	}
	var noLaunch bool
	status := &cobra.Command{
		Use:   "status",
		Short: "Report Chrome's state on the port (as the chromeStatus step), launching it unless --no-launch",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			step := fmt.Sprintf(`{"steps":[{"chromeStatus":{"port":%d,"autoLaunch":%t}}]}`, a.port, !noLaunch)
			if a.endpoint != "" {
				return a.poolStatus(cmd.Context())
			}
			_, out := runtime.RunJSON(cmd.Context(), []byte(step), a.runtimeOptions())
			a.printWithResidents(out, residents(a.endpointOption().String(), false))
			return nil
		},
	}
	status.Flags().BoolVar(&noLaunch, "no-launch", false, "only report; do not launch Chrome")
	stop := &cobra.Command{
		Use:   "stop",
		Short: "Stop the Chrome that cdp-skill launched on the port (never any other)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ended := residents(a.endpointOption().String(), true)
			if a.endpoint != "" {
				a.poolStop(ended)
				return nil
			}
			stopped, err := chrome.Stop(cmd.Context(), a.port)
			if err != nil {
				a.print(runtime.ErrorOutput(runtime.TypeExecution, err.Error()))
				return nil
			}
			out := map[string]any{"status": "ok", "port": a.port, "stopped": stopped}
			if n := countServing(ended, a.endpointOption().String()); n > 0 {
				out["residentStopped"] = n
			}
			if !stopped {
				out["note"] = fmt.Sprintf("no Chrome launched by cdp-skill runs on port %d", a.port)
			}
			writeJSON(a.stdout, out)
			return nil
		},
	}
	c.AddCommand(status, stop)
	return c
}

// Version is the release version, set at build time with
// -ldflags "-X github.com/cdp-skill/cdp-skill/cmd.Version=v1.2.3".
var Version = "dev"

func (a *app) versionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Args:  cobra.NoArgs,
		Run: func(cmd *cobra.Command, _ []string) {
			writeJSON(a.stdout, map[string]any{"version": Version, "go": goruntime.Version(), "actions": len(lang.Actions())})
		},
	}
}

// printWithResidents prints a chromeStatus answer with the resident
// processes that keep sessions warm (see resident.go) added as "resident".
func (a *app) printWithResidents(out *runtime.Output, list []residentStatus) {
	if len(list) == 0 {
		a.print(out)
		return
	}
	var m map[string]any
	if json.Unmarshal(out.JSON(), &m) != nil {
		a.print(out)
		return
	}
	m["resident"] = list
	writeJSON(a.stdout, m)
	if !out.OK() {
		a.exitCode = 1
	}
}

// countServing counts the residents serving endpoint.
func countServing(list []residentStatus, endpoint string) int {
	n := 0
	for _, st := range list {
		if st.Endpoint == endpoint {
			n++
		}
	}
	return n
}
