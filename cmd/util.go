package cmd

import (
	"encoding/json"
	"io"
	"path/filepath"

	"github.com/cdp-skill/cdp-skill/lang"
	"github.com/cdp-skill/cdp-skill/stdlib"
)

// writeJSON prints v as one line of JSON.
func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

// resolverFor returns the load() resolver of a recipe at path.
func (a *app) resolverFor(path string) *lang.Resolver {
	dir, _ := filepath.Abs(filepath.Dir(path))
	return &lang.Resolver{Dir: dir, Stdlib: stdlib.FS}
}
