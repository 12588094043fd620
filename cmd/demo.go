package cmd

import (
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"time"

	"github.com/spf13/cobra"

	"github.com/cdp-skill/cdp-skill/examples"
	"github.com/cdp-skill/cdp-skill/lang"
	"github.com/cdp-skill/cdp-skill/runtime"
)

func (a *app) demoCommand() *cobra.Command {
	var serve bool
	var addr string
	c := &cobra.Command{
		Use:   "demo [RECIPE.star]",
		Short: "Serve the embedded demo site on loopback and run the demo recipe (or RECIPE) against it",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			srv, err := examples.Serve(addr)
			if err != nil {
				return fmt.Errorf("serve demo site: %w", err)
			}
			defer srv.Close()
			if serve {
				fmt.Fprintf(a.stdout, "demo site at %s (Ctrl-C to stop)\n", srv.URL)
				sig := make(chan os.Signal, 1)
				signal.Notify(sig, os.Interrupt)
				select {
				case <-sig:
				case <-cmd.Context().Done():
				}
				return nil
			}
			name, src, dir := "examples/demo.star", []byte(nil), ""
			if len(args) == 1 {
				name = args[0]
				if src, err = lang.ReadSource(name); err != nil {
					a.print(runtime.ErrorOutput(runtime.TypeParse, fmt.Sprintf("cannot read recipe: %v", err)))
					return nil
				}
				dir = a.resolverFor(name).Dir
			} else if src, err = fs.ReadFile(examples.Files, "demo.star"); err != nil {
				return err
			}
			prog := runtime.Program{Name: name, Source: src, Dir: dir, Args: map[string]string{"base_url": srv.URL}, Timeout: 2 * time.Minute}
			a.print(runtime.Run(cmd.Context(), prog, a.runtimeOptions()))
			return nil
		},
	}
	c.Flags().BoolVar(&serve, "serve", false, "only serve the site until interrupted")
	c.Flags().StringVar(&addr, "addr", "127.0.0.1:0", "address to serve the site on (loopback by default)")
	return c
}
