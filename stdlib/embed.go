// Package stdlib embeds the Starlark standard library of cdp-skill: the
// modules recipes load as load("@stdlib/forms.star", "fill_form").
package stdlib

import "embed"

// FS holds the .star modules at its root.
//
//go:embed *.star
var FS embed.FS
