package browser

import "github.com/cdp-skill/cdp-skill/browser/confine"

// URLPolicy says which local URLs goto and openTab may open
// (confine.URLPolicy).
type URLPolicy = confine.URLPolicy

// The environment variables the caller builds a URLPolicy from.
const (
	FileDirsEnv     = confine.FileDirsEnv
	AllowSchemesEnv = confine.AllowSchemesEnv
)
