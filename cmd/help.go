package cmd

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/cdp-skill/cdp-skill/lang"
)

// The parameter reference installed next to SKILL.md is generated from the
// step catalog; TestReferenceMatchesCatalog fails when it is stale.
//go:generate sh -c "go run ./cdp-skill help steps > skill/REFERENCE.md"

// helpCommand replaces cobra's help: `help STEP` prints one step's
// parameters from the catalog (a recipe function's too), `help steps` all
// of them, `help COMMAND` a command's usage.
func (a *app) helpCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "help [step | function | steps | command]",
		Short: "Print a step's parameters (help click), a recipe function's (help exists), every step's (help steps), or a command's usage",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			root := cmd.Root()
			out := cmd.OutOrStdout()
			if len(args) == 0 {
				root.SetOut(out)
				if err := root.Help(); err != nil {
					return err
				}
				fmt.Fprintln(out, "\n`cdp-skill help STEP` prints a step's parameters (help click); `cdp-skill help steps` prints every step's.")
				return nil
			}
			switch name := args[0]; name {
			case "steps", "reference":
				fmt.Fprint(out, lang.Reference())
				return nil
			default:
				// A step before a command of the same name (recipe): the
				// command's usage is also `cdp-skill recipe --help`.
				text, err := lang.Help(name)
				if err == nil {
					fmt.Fprint(out, text)
					return nil
				}
				if sub, _, ferr := root.Find([]string{name}); ferr == nil && sub != root {
					sub.SetOut(out)
					return sub.Help()
				}
				return err
			}
		},
	}
}
