package builtins

import (
	"fmt"
	"strings"

	"go.starlark.net/starlark"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/browser/state"
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
	var opts browser.SnapshotOptions
	if opts.Root, err = c.Args.String("root"); err != nil {
		return nil, err
	}
	if c.Args.Pos != nil {
		if opts.Root, err = posString(c, "a root CSS selector"); err != nil {
			return nil, err
		}
	}
	if opts.Detail, err = c.Args.String("detail"); err != nil {
		return nil, err
	}
	mode, err := c.Args.String("mode")
	if err != nil {
		return nil, err
	}
	switch mode {
	case "", "ai":
	case "plain", "aria":
		opts.Refs = new(bool)
	default:
		return nil, invalid("snapshot mode %q is not ai or plain", mode)
	}
	if opts.ViewportOnly, err = c.Args.Bool("viewportOnly", false); err != nil {
		return nil, err
	}
	if c.Args.Has("pierceShadow") {
		b, err := c.Args.Bool("pierceShadow", true)
		if err != nil {
			return nil, err
		}
		opts.PierceShadow = &b
	}
	frames, err := c.Args.Bool("includeFrames", true)
	if err != nil {
		return nil, err
	}
	opts.NoFrames = !frames
	text, err := c.Args.Bool("includeText", true)
	if err != nil {
		return nil, err
	}
	opts.NoText = !text
	if opts.MaxDepth, err = c.Args.Int("maxDepth", 0); err != nil {
		return nil, err
	}
	if opts.MaxElements, err = c.Args.Int("maxElements", 0); err != nil {
		return nil, err
	}
	preserve, err := c.Args.Bool("preserveRefs", true)
	if err != nil {
		return nil, err
	}
	opts.ResetRefs = !preserve
	if opts.Since, err = c.Args.String("since"); err != nil {
		return nil, err
	}
	limit, err := c.Args.Int("inlineLimit", DefaultInlineLimit)
	if err != nil {
		return nil, err
	}
	s, err := p.Snapshot(c.Ctx, opts)
	if err != nil {
		return nil, err
	}
	if s.Unchanged {
		return map[string]any{"unchanged": true, "snapshotId": s.SnapshotID,
			"message": fmt.Sprintf("the page renders the same as %s: its refs still hold", s.SnapshotID)}, nil
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
		return out, nil
	}
	path, err := SpillFile(c.Env, "snapshot", s.SnapshotID+".yaml", []byte(s.YAML))
	if err != nil {
		return nil, err
	}
	out["yaml"] = cutAtLine(s.YAML, limit)
	out["truncatedInline"] = true
	out["file"] = path
	artifacts["snapshot"] = path
	out["artifacts"] = artifacts
	out["bytes"] = len(s.YAML)
	out["message"] = fmt.Sprintf("the snapshot is %d bytes; the first %d are inline and all of it is in %s (or narrow it with root, detail: \"interactive\" or viewportOnly)", len(s.YAML), limit, path)
	return out, nil
}

// RefsFileAbove is how many refs a snapshot may have before its refs map
// (ref → role and name) is also written to a file (spec §7.6).
const RefsFileAbove = 1000

// cutAtLine returns the longest prefix of s within n bytes that ends at a
// line break.
func cutAtLine(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if i := strings.LastIndexByte(s[:n], '\n'); i > 0 {
		return s[:i]
	}
	return s[:n]
}

// SpillFile writes a large payload under the state dir and returns its path:
// snapshots/<tab>-<name>.
func SpillFile(env *Env, kind, name string, data []byte) (string, error) {
	tab := env.Tab().Alias
	if tab == "" {
		tab = "tab"
	}
	return state.WriteFile(data, kind+"s", tab+"-"+name)
}

func snapshotSearch(c *Call) (any, error) {
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	var o browser.SearchOptions
	if o.Text, err = c.Args.String("text"); err != nil {
		return nil, err
	}
	if c.Args.Pos != nil {
		if o.Text, err = posString(c, "the text to search"); err != nil {
			return nil, err
		}
	}
	if o.Pattern, err = c.Args.String("pattern"); err != nil {
		return nil, err
	}
	if o.Role, err = c.Args.String("role"); err != nil {
		return nil, err
	}
	if o.Exact, err = c.Args.Bool("exact", false); err != nil {
		return nil, err
	}
	if o.Limit, err = c.Args.Int("limit", 10); err != nil {
		return nil, err
	}
	if o.Root, err = c.Args.String("root"); err != nil {
		return nil, err
	}
	if c.Args.Has("context") {
		n, err := c.Args.Int("context", 2)
		if err != nil {
			return nil, err
		}
		o.Context = &n
	}
	if v, ok := c.Args.Value("near"); ok {
		if o.Near, err = nearArg(v); err != nil {
			return nil, err
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
	return map[string]any{"matches": res.Matches, "matchCount": res.MatchCount, "searchedElements": res.SearchedElements, "criteria": criteria}, nil
}

func nearArg(v starlark.Value) (*browser.NearPoint, error) {
	get := func(k string) (float64, bool, error) {
		m, ok := v.(starlark.Mapping)
		if !ok {
			return 0, false, invalid("near must be {x, y, radius}, not %s", v.Type())
		}
		x, found, err := m.Get(starlark.String(k))
		if err != nil || !found {
			return 0, false, err
		}
		f, ok := starlark.AsFloat(x)
		if !ok {
			return 0, false, invalid("near.%s must be a number", k)
		}
		return f, true, nil
	}
	x, okx, err := get("x")
	if err != nil {
		return nil, err
	}
	y, oky, err := get("y")
	if err != nil {
		return nil, err
	}
	if !okx || !oky {
		return nil, invalid("near needs x and y")
	}
	r, _, err := get("radius")
	if err != nil {
		return nil, err
	}
	if r <= 0 {
		r = 100
	}
	return &browser.NearPoint{X: x, Y: y, Radius: r}, nil
}

func query(c *Call) (any, error) {
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	var q browser.QueryOptions
	if q.Selector, err = c.Args.String("selector"); err != nil {
		return nil, err
	}
	if c.Args.Pos != nil {
		if q.Selector, err = posString(c, "a CSS selector"); err != nil {
			return nil, err
		}
	}
	if v, ok := c.Args.Value("role"); ok {
		if s, isStr := starlark.AsString(v); isStr {
			q.Roles = []string{s}
		} else if q.Roles, err = stringList(v, "role"); err != nil {
			return nil, err
		}
	}
	if v, ok := c.Args.Value("roles"); ok {
		more, err := stringList(v, "roles")
		if err != nil {
			return nil, err
		}
		q.Roles = append(q.Roles, more...)
	}
	if q.Name, err = c.Args.String("name"); err != nil {
		return nil, err
	}
	if q.NameExact, err = c.Args.Bool("nameExact", false); err != nil {
		return nil, err
	}
	if q.NameRegex, err = c.Args.String("nameRegex"); err != nil {
		return nil, err
	}
	for _, k := range []string{"checked", "disabled"} {
		if c.Args.Has(k) {
			b, err := c.Args.Bool(k, false)
			if err != nil {
				return nil, err
			}
			if k == "checked" {
				q.Checked = &b
			} else {
				q.Disabled = &b
			}
		}
	}
	if q.Level, err = c.Args.Int("level", 0); err != nil {
		return nil, err
	}
	if q.Limit, err = c.Args.Int("limit", 10); err != nil {
		return nil, err
	}
	if q.CountOnly, err = c.Args.Bool("countOnly", false); err != nil {
		return nil, err
	}
	if q.Output, err = c.Args.Data("output"); err != nil {
		return nil, err
	}
	if c.Args.Has("clean") {
		b, err := c.Args.Bool("clean", true)
		if err != nil {
			return nil, err
		}
		q.Clean = &b
	}
	if q.Metadata, err = c.Args.Bool("metadata", false); err != nil {
		return nil, err
	}
	// Query checks the selector in the same engine call (a queryAll of n
	// entries costs n round trips, not 2n).
	return p.Query(c.Ctx, q)
}

func stringList(v starlark.Value, name string) ([]string, error) {
	iter, ok := v.(starlark.Iterable)
	if !ok {
		return nil, invalid("%s must be a list of strings, not %s", name, v.Type())
	}
	var out []string
	it := iter.Iterate()
	defer it.Done()
	var x starlark.Value
	for it.Next(&x) {
		s, ok := starlark.AsString(x)
		if !ok {
			return nil, invalid("%s must be a list of strings; found %s", name, x.Type())
		}
		out = append(out, s)
	}
	return out, nil
}
