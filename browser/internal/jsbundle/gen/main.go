// Command gen writes the in-page bundles and their Go constants (see
// package jsbundle); go generate runs it in browser.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/cdp-skill/cdp-skill/browser/internal/jsbundle"
)

func main() {
	files, err := jsbundle.Generate("inpage")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for name, data := range files {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if err := os.WriteFile(name, data, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}
