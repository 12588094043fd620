package lang

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// ToolSchemaOptions shape the input schema of one MCP tool that runs steps.
type ToolSchemaOptions struct {
	// Actions are the actions the tool's steps may use.
	Actions []string
	// Hooks lets an action object carry the JavaScript hooks (readyWhen,
	// settledWhen, observe); without it the schema, like the tool, refuses
	// them.
	Hooks bool
	// Loose are actions the schema names without describing them (another
	// tool's schema does): any value passes it.
	Loose []string
	// Brief are actions described by their doc and parameter names only
	// (rarely used ones, to keep the tool list small): any value passes
	// the schema; ParseRequest checks it.
	Brief []string
	// TabRequired makes "tab" required.
	TabRequired bool
}

// HookParams are the common parameters that run page JavaScript.
var HookParams = []string{"readyWhen", "settledWhen", "observe"}

// ToolSchema is the compact JSON Schema (draft 2020-12) of an MCP tool's
// input: a command whose steps use only opts.Actions. Each step holds
// exactly one action key (oneOf of required); the step modifiers are
// declared once, on the step; a parameter shared by several actions is one
// definition under $defs; closed value sets are enums; no type arrays.
// ParseRequest stays the authority: the tool checks every call with it.
func ToolSchema(opts ToolSchemaOptions) map[string]any {
	var actions, described []*Action
	for _, name := range opts.Actions {
		if a, ok := LookupAction(name); ok {
			actions = append(actions, a)
			if !slices.Contains(opts.Loose, name) {
				described = append(described, a)
			}
		}
	}
	defs := map[string]any{}
	var typed []*Action
	for _, a := range described {
		if !slices.Contains(opts.Brief, a.Name) {
			typed = append(typed, a)
		}
	}
	shared := sharedParams(typed)
	props := map[string]any{
		"optional":   map[string]any{"type": "boolean", "description": "on failure: skipped, go on"},
		"timeout":    stepTimeoutSchema(),
		"outputPath": map[string]any{"type": "string", "description": "save the full output to this file"},
	}
	var oneOf []any
	for _, a := range described {
		if slices.Contains(opts.Brief, a.Name) {
			props[a.Name] = briefActionSchema(a)
		} else {
			props[a.Name] = compactActionSchema(a, shared, defs, opts.Hooks)
		}
		oneOf = append(oneOf, map[string]any{"required": []string{a.Name}})
	}
	step := map[string]any{"type": "object", "properties": props, "additionalProperties": false, "oneOf": oneOf}
	if len(described) < len(actions) {
		// Another tool's step: its key is not described here, and a step
		// holding one of this tool's own keys holds nothing else.
		step["additionalProperties"] = map[string]any{}
		step["oneOf"] = append(oneOf, map[string]any{"not": map[string]any{"anyOf": oneOf}})
	}
	defs["step"] = step
	s := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"tab":         map[string]any{"type": "string"},
			"timeout":     map[string]any{"type": "number", "minimum": 0},
			"capture":     mcpCaptureSchema(),
			"stopOnError": map[string]any{"type": "boolean"},
			"strict":      map[string]any{"type": "boolean"},
			"steps": map[string]any{"type": "array", "minItems": 1, "items": map[string]any{"$ref": "#/$defs/step"},
				"description": `one action key a step: true, a shorthand or an object`},
		},
		"required":             []string{"steps"},
		"additionalProperties": false,
		"$defs":                defs,
	}
	if opts.TabRequired {
		s["required"] = []string{"tab", "steps"}
	}
	return s
}

// mcpCaptureSchema is "capture" for MCP tools: the presets, or settings.
func mcpCaptureSchema() map[string]any {
	return map[string]any{
		"description": `default "compact": snapshot and diff, no image; "full" or {"screenshot":true} adds one`,
		"anyOf": []any{
			map[string]any{"type": "string", "enum": CapturePresets},
			map[string]any{"type": "object", "propertyNames": map[string]any{"enum": CaptureSettings}},
		},
	}
}

func stepTimeoutSchema() map[string]any {
	return map[string]any{"description": `ms or "5s"`, "anyOf": []any{
		map[string]any{"type": "integer", "minimum": 0}, map[string]any{"type": "string"}}}
}

func commonParam(name string) (Param, bool) {
	for _, p := range CommonParams {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// sharedParams are the parameters of the same type (their docs aside)
// in two or more of the actions: they become one definition each.
func sharedParams(actions []*Action) map[string]bool {
	seen := map[string]string{}
	count := map[string]int{}
	clash := map[string]bool{}
	for _, a := range actions {
		for _, p := range a.Params {
			q := p
			q.Doc, q.Default = "", ""
			data, _ := json.Marshal(compactParamSchema(a, q))
			if prev, ok := seen[p.Name]; ok && prev != string(data) {
				clash[p.Name] = true
			}
			seen[p.Name] = string(data)
			count[p.Name]++
		}
	}
	out := map[string]bool{}
	for name, n := range count {
		if n > 1 && !clash[name] {
			out[name] = true
		}
	}
	return out
}

// compactActionSchema is an action's value: true, its shorthand, or the
// object of its parameters.
func compactActionSchema(a *Action, shared map[string]bool, defs map[string]any, hooks bool) map[string]any {
	props := map[string]any{}
	has := map[string]bool{}
	for _, p := range a.Params {
		has[p.Name] = shared[p.Name]
	}
	if hooks {
		for _, h := range HookParams {
			has[h] = true
		}
	}
	var groups []any
	inGroup := map[string]bool{}
	for _, g := range paramGroups {
		if !g.hooks && !all(has, g.names) || g.hooks && !hooks {
			continue
		}
		for _, n := range g.names {
			inGroup[n] = true
		}
		if _, done := defs[g.def]; !done {
			gp := map[string]any{}
			for _, n := range g.names {
				if g.hooks {
					hp, _ := commonParam(n)
					gp[n] = map[string]any{"type": "string", "description": hp.Doc}
					continue
				}
				p, _ := a.Param(n)
				gp[n] = compactParamSchema(a, p)
			}
			defs[g.def] = map[string]any{"properties": gp}
		}
		groups = append(groups, map[string]any{"$ref": "#/$defs/" + g.def})
	}
	for _, p := range a.Params {
		if inGroup[p.Name] {
			continue
		}
		s := compactParamSchema(a, p)
		if shared[p.Name] {
			if _, done := defs["p_"+p.Name]; !done {
				defs["p_"+p.Name] = s
			}
			s = map[string]any{"$ref": "#/$defs/p_" + p.Name}
		}
		props[p.Name] = s
	}
	obj := map[string]any{"type": "object"}
	if len(props) > 0 {
		obj["properties"] = props
	}
	closed := "additionalProperties"
	if len(groups) > 0 {
		obj["allOf"] = groups
		closed = "unevaluatedProperties"
	}
	if !a.MapForm {
		obj[closed] = false
	}
	alts := []any{map[string]any{"const": true}, obj}
	if pos := positionalSchema(a.Positional); pos != nil {
		if len(pos) == 0 {
			return map[string]any{"description": a.Doc}
		}
		alts = append(alts, pos)
	}
	return map[string]any{"description": shortAction(a.Doc), "anyOf": alts}
}

// paramGroup is a set of parameters many actions share, defined once.
type paramGroup struct {
	def   string
	names []string
	hooks bool // the JavaScript hooks, for a tool that takes them
}

var paramGroups = []paramGroup{
	{def: "target", names: []string{"selector", "ref", "text", "exact"}},
	{def: "acting", names: []string{"force", "stable", "dialog"}},
	{def: "hooks", names: HookParams, hooks: true},
}

func all(has map[string]bool, names []string) bool {
	for _, n := range names {
		if !has[n] {
			return false
		}
	}
	return true
}

// briefActionSchema describes an action by its doc and parameter names.
func briefActionSchema(a *Action) map[string]any {
	var names []string
	for _, p := range a.Params {
		names = append(names, p.Name)
	}
	doc := shortAction(a.Doc)
	if len(names) > 0 {
		doc += "; keys: " + strings.Join(names, ", ")
	}
	return map[string]any{"description": doc}
}

// shortAction is an action's doc up to its first parenthesis, semicolon
// or colon, cut at a word past 50 bytes.
func shortAction(doc string) string {
	if i := strings.IndexAny(doc, ";(:"); i > 0 {
		doc = doc[:i]
	}
	doc = strings.TrimSpace(doc)
	if len(doc) > 50 {
		if cut := strings.LastIndex(doc[:50], " "); cut > 0 {
			doc = strings.TrimRight(doc[:cut], ", ")
		}
	}
	return doc
}

// NestedFields declares the keys of a dict parameter declared as a struct
// (scrollUntilVisible's maxScrolls…); off, such a parameter is an object.
var NestedFields = false

// ParamDocLimit bounds a parameter's description in a tool schema: its
// first clause, cut at a word; the reference (cdp-skill help STEP) has
// the whole text.
var ParamDocLimit = 0

// shortDoc is the first clause of doc, at most ParamDocLimit bytes.
func shortDoc(doc string) string {
	if i := strings.IndexAny(doc, ";("); i > 0 {
		doc = doc[:i]
	}
	doc = strings.TrimSpace(doc)
	if len(doc) <= ParamDocLimit {
		return doc
	}
	cut := strings.LastIndex(doc[:ParamDocLimit], " ")
	if cut <= 0 {
		return ""
	}
	return strings.TrimRight(doc[:cut], ",:") + "…"
}

// compactParamSchema is one parameter: its type (an enum when its doc
// lists a closed set), its doc and default.
func compactParamSchema(a *Action, p Param) map[string]any {
	s := TypeSchema(p.Type)
	if values := ClosedSet(p); values != nil {
		s = enumSchema(p.Type, values)
	}
	if values := ClosedSet(p); values == nil && ParamDocLimit > 0 {
		if doc := shortDoc(p.Doc); doc != "" {
			s["description"] = doc
		}
	}
	if len(p.Fields) > 0 && NestedFields {
		props := map[string]any{}
		for _, f := range p.Fields {
			props[f.Name] = compactParamSchema(a, f)
		}
		for _, alt := range anyOfOrSelf(s) {
			if alt["type"] == "object" {
				alt["properties"], alt["additionalProperties"] = props, false
			}
		}
	}
	return s
}

// anyOfOrSelf lists the alternatives of a schema: its anyOf, or itself.
func anyOfOrSelf(s map[string]any) []map[string]any {
	alts, ok := s["anyOf"].([]any)
	if !ok {
		return []map[string]any{s}
	}
	var out []map[string]any
	for _, a := range alts {
		if m, ok := a.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// enumSchema makes the string alternative of t an enum of values.
func enumSchema(t Type, values []string) map[string]any {
	s := TypeSchema(t)
	for _, alt := range anyOfOrSelf(s) {
		switch alt["type"] {
		case "string":
			alt["enum"] = values
		case "array":
			alt["items"] = map[string]any{"type": "string", "enum": values}
		}
	}
	return s
}

var (
	closedWord  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([a-z][a-zA-Z0-9]*)( \(.*\))?$`) })
	closedCache sync.Map
)

// ClosedSet is the closed set of values a string parameter's doc lists,
// or nil: "left | right | middle", "only this level: error | warning",
// "auto (default …) | mouse | html5", "accept | dismiss | {accept, …}"
// (the object alternative is the dict type's), "only these resource
// types: document, script, …".
func ClosedSet(p Param) []string {
	if !strings.Contains(string(p.Type), "string") {
		return nil
	}
	if v, ok := closedCache.Load(p.Doc); ok {
		return v.([]string)
	}
	doc := p.Doc
	if i := strings.Index(doc, "; "); i >= 0 {
		doc = doc[:i]
	}
	if i := strings.Index(doc, ": "); i >= 0 && !strings.Contains(doc[:i], "(") {
		doc = doc[i+2:]
	}
	var values []string
	sep := " | "
	if !strings.Contains(doc, sep) {
		sep = ", "
	}
	parts := strings.Split(doc, sep)
	for _, part := range parts {
		if strings.HasPrefix(part, "{") && strings.Contains(string(p.Type), "dict") {
			continue
		}
		m := closedWord().FindStringSubmatch(part)
		if m == nil {
			values = nil
			break
		}
		values = append(values, m[1])
	}
	if len(values) < 2 || sep == ", " && len(values) < 5 {
		values = nil
	}
	if values != nil {
		values = slices.Clip(values)
	}
	closedCache.Store(p.Doc, values)
	return values
}
