package cmd

import (
	"os"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/cdp-skill/cdp-skill/browser/keeper"
)

// EnvNoDialogKeeper turns the dialog keeper off (dialogs that open between
// commands then block the tab until a reload).
const EnvNoDialogKeeper = "CDP_SKILL_NO_DIALOG_KEEPER"

// keeperCommand is the hidden process that answers the dialogs pages open
// between commands (see package keeper); commands start it.
func (a *app) keeperCommand() *cobra.Command {
	return &cobra.Command{
		Use:    "keep-dialogs",
		Short:  "Answer the JavaScript dialogs pages open between commands (started by cdp-skill itself)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return keeper.Serve(cmd.Context(), a.endpointOption())
		},
	}
}

// ensureKeeper starts the dialog keeper for a local Chrome unless one runs.
func (a *app) ensureKeeper() {
	ep := a.served()
	if ep.Remote() || envBool(EnvNoDialogKeeper) {
		return
	}
	exe, err := os.Executable()
	if err != nil {
		return
	}
	keeper.Ensure(ep, exe, "keep-dialogs", "--port", strconv.Itoa(ep.Port))
}
