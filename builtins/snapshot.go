package builtins

import (
	"fmt"

	"go.starlark.net/starlark"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/lang"
)

func init() {
	register(map[string]ActionFunc{
		"snapshot":       snapshot,
		"snapshotSearch": snapshotSearch,
		"query":          query,
	})
}

// DefaultInlineLimit is how many bytes of snapshot YAML an answer carries
// inline; a larger snapshot is written to a file whose path is returned.
const DefaultInlineLimit = 9000

func snapshot(c *Call) (any, error) {
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	o := options[lang.SnapshotOptions](c)
	opts := browser.SnapshotOptions{Root: o.Root, Detail: o.Detail, ViewportOnly: o.ViewportOnly,
		PierceShadow: &o.PierceShadow, NoFrames: !o.IncludeFrames, NoText: !o.IncludeText,
		MaxDepth: o.MaxDepth, MaxElements: o.MaxElements, ResetRefs: !o.PreserveRefs, Since: o.Since,
		RefsMapAbove: RefsFileAbove}
	if c.Args.Pos != nil {
		if opts.Root, err = posString(c, "a root CSS selector"); err != nil {
			return nil, err
		}
	}
	switch o.Mode {
	case "", "ai":
	case "plain", "aria":
		opts.Refs = new(bool)
	default:
		return nil, invalid("snapshot mode %q is not ai or plain", o.Mode)
	}
	limit := o.InlineLimit
	s, err := p.Snapshot(c.Ctx, opts)
	if err != nil {
		return nil, err
	}
	if s.Unchanged {
		return Shaped{map[string]any{"unchanged": true, "snapshotId": s.SnapshotID,
			"message": fmt.Sprintf("the page renders the same as %s: its refs still hold", s.SnapshotID)}, snapshotFields}, nil
	}
	out := map[string]any{"snapshotId": s.SnapshotID, "refs": s.Refs}
	artifacts := map[string]string{}
	if s.Truncated {
		out["truncated"] = true
	}
	if s.Refs > RefsFileAbove {
		path, err := spillRefs(c.Env, s)
		if err != nil {
			return nil, err
		}
		artifacts["refs"] = path
		out["artifacts"] = artifacts
	}
	if len(s.YAML) <= limit {
		out["yaml"] = s.YAML
		return Shaped{out, snapshotFields}, nil
	}
	path, err := SpillFile(c.Env, "snapshot", s.SnapshotID+".yaml", []byte(s.YAML))
	if err != nil {
		return nil, err
	}
	out["yaml"] = CutAtLine(s.YAML, limit)
	out["truncatedInline"] = true
	out["file"] = path
	artifacts["snapshot"] = path
	out["artifacts"] = artifacts
	out["bytes"] = len(s.YAML)
	out["message"] = fmt.Sprintf("the snapshot is %d bytes; the first %d are inline and all of it is in %s (or narrow it with root, detail: \"interactive\" or viewportOnly)", len(s.YAML), limit, path)
	return Shaped{out, snapshotFields}, nil
}

// RefsFileAbove is how many refs a snapshot may have before its refs map
// (ref → role and name) is also written to a file (spec §7.6).
const RefsFileAbove = 1000

func snapshotSearch(c *Call) (any, error) {
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	so := options[lang.SnapshotSearchOptions](c)
	o := browser.SearchOptions{Text: so.Text, Pattern: so.Pattern, Role: so.Role, Exact: so.Exact,
		Limit: so.Limit, Root: so.Root, Context: &so.Context}
	if c.Args.Pos != nil {
		if o.Text, err = posString(c, "the text to search"); err != nil {
			return nil, err
		}
	}
	if n := so.Near; n != nil {
		if n.X == nil || n.Y == nil {
			return nil, invalid("near needs x and y")
		}
		o.Near = &browser.NearPoint{X: *n.X, Y: *n.Y, Radius: n.Radius}
		if o.Near.Radius <= 0 {
			o.Near.Radius = 100
		}
	}
	res, err := p.Search(c.Ctx, o)
	if err != nil {
		return nil, err
	}
	criteria := map[string]any{}
	for _, k := range []string{"text", "pattern", "role", "exact", "near"} {
		if v, _ := c.Args.Data(k); v != nil {
			criteria[k] = v
		}
	}
	if o.Text != "" {
		criteria["text"] = o.Text
	}
	return Shaped{map[string]any{"matches": res.Matches, "matchCount": res.MatchCount, "searchedElements": res.SearchedElements, "criteria": criteria}, searchFields}, nil
}

func query(c *Call) (any, error) {
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	o := options[lang.QueryOptions](c)
	q := browser.QueryOptions{Selector: o.Selector, Name: o.Name, NameExact: o.NameExact, NameRegex: o.NameRegex,
		Checked: o.Checked, Disabled: o.Disabled, Level: o.Level, Limit: o.Limit, CountOnly: o.CountOnly,
		Clean: &o.Clean, Metadata: o.Metadata}
	if c.Args.Pos != nil {
		if q.Selector, err = posString(c, "a CSS selector"); err != nil {
			return nil, err
		}
	}
	q.Roles = append(append(q.Roles, o.Role...), o.Roles...)
	if o.Output != nil {
		q.Output = o.Output.Value()
	}
	// Query checks the selector in the same engine call (a queryAll of n
	// entries costs n round trips, not 2n).
	return p.Query(c.Ctx, q)
}

func stringList(v starlark.Value, name string) ([]string, error) {
	l, err := lang.ToStringList(v)
	if err != nil {
		return nil, invalid("%s %v", name, err)
	}
	return l, nil
}
