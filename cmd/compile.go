package cmd

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/cdp-skill/cdp-skill/lang"
	"github.com/cdp-skill/cdp-skill/runtime"
)

func (a *app) compileCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "compile ['<json command>']",
		Short: "Print the Starlark recipe a JSON command lowers to",
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			input, err := readCommand(args, a.stdin)
			if err != nil {
				a.print(runtime.ErrorOutput(runtime.TypeParse, err.Error()))
				return nil
			}
			req, err := lang.ParseRequest(input)
			if err != nil {
				a.print(runtime.LangErrorOutput(err))
				return nil
			}
			src, err := lang.Lower(req)
			if err != nil {
				a.print(runtime.LangErrorOutput(err))
				return nil
			}
			fmt.Fprint(a.stdout, src)
			return nil
		},
	}
}

func (a *app) checkCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "check FILE.star...",
		Short: "Report syntax errors, undefined names and misspelled keyword arguments without running",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			type fileReport struct {
				File        string            `json:"file"`
				OK          bool              `json:"ok"`
				Diagnostics []lang.Diagnostic `json:"diagnostics,omitempty"`
			}
			var reports []fileReport
			allOK := true
			for _, path := range args {
				src, err := lang.ReadSource(path)
				if err != nil {
					reports = append(reports, fileReport{File: path, Diagnostics: []lang.Diagnostic{{Pos: path, Message: err.Error()}}})
					allOK = false
					continue
				}
				diags := lang.Check(path, src, a.resolverFor(path))
				reports = append(reports, fileReport{File: path, OK: len(diags) == 0, Diagnostics: diags})
				allOK = allOK && len(diags) == 0
			}
			status := "ok"
			if !allOK {
				status = "error"
				a.exitCode = 1
			}
			writeJSON(a.stdout, map[string]any{"status": status, "files": reports})
			return nil
		},
	}
}
