package lang

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"go.starlark.net/starlark"
)

// Type is the accepted JSON/Starlark shape of a parameter, as a |-separated
// list of: string, int, number, bool, list, dict, hook, any.
type Type string

// Param is one keyword parameter of an action, in JSON (camelCase) spelling.
type Param struct {
	Name string
	Type Type
	Doc  string
	// Target marks a parameter that names the element the action is for
	// (one of TargetKeys). A parameter spelled like a target key but not
	// marked (type's text: what to type) is never read as a target.
	Target bool
	// Default is the value (or behaviour) when the parameter is absent, as
	// the reference shows it ("" when there is none to state).
	Default string
	// Example is a JSON value for the parameter in the reference ("": made
	// from its type).
	Example string
	// Fields are the keys of a dict parameter declared as a struct (an
	// unknown key is refused).
	Fields []Param
	// Function marks a parameter only a recipe can give: a Starlark
	// function (route's handler). JSON has none.
	Function bool
}

// TargetKeys are the parameter names that can name an element (spec §6):
// the step names of Target's fields, in their order.
var TargetKeys = targetKeys()

func targetKeys() []string {
	rt := reflect.TypeOf(Target{})
	keys := make([]string, 0, rt.NumField())
	for i := range rt.NumField() {
		name, _, _ := strings.Cut(rt.Field(i).Tag.Get("step"), ",")
		keys = append(keys, name)
	}
	return keys
}

// IsTarget reports whether the action reads the parameter as (part of) its
// target.
func (a *Action) IsTarget(name string) bool {
	for _, p := range a.Params {
		if p.Name == name {
			return p.Target
		}
	}
	return false
}

// StepTargetKeys are the keys of a step's params (JSON spelling) that
// name its element, in TargetKeys order: those the action marks Target,
// less label where LabelNamesOption makes it the option's.
func (a *Action) StepTargetKeys(has func(key string) bool) []string {
	var keys []string
	named := false
	for _, k := range TargetKeys {
		if a.IsTarget(k) && has(k) {
			keys = append(keys, k)
			named = named || k != "label" && k != "exact" && k != "withinSelector"
		}
	}
	if a.LabelNamesOption && named {
		keys = slices.DeleteFunc(keys, func(k string) bool { return k == "label" })
	}
	return keys
}

// Keyword is the Starlark keyword argument name of the parameter.
func (p Param) Keyword() string { return keywordName(SnakeCase(p.Name)) }

// Action describes one step type: its JSON name, its Starlark builtin, and
// the parameters both accept. The catalog is the single source of truth for
// validation, lowering, static checking, the parameter reference
// (cdp-skill help STEP, cmd/skill/REFERENCE.md) and the MCP schema; package
// builtins implements each entry.
//
// Adding a step takes two places (three with in-page code; the walk-through
// is docs/ARCHITECTURE.md, "Adding a step"):
//  1. here, in the family's catalog_*.go: an options struct whose tagged
//     fields are the parameters (see options.go; embed Target, Acting,
//     Loading… for the shared ones) and an Action with Name, Options, Verb
//     (when visual), Doc and Example;
//  2. the browser method doing the work, called from a builtin in the
//     family's builtins/*.go that reads options[lang.XOptions](c) and is
//     registered under the same name.
//
// Then `go generate ./cmd` rewrites the reference; the tests check that the
// example runs, that every parameter round-trips JSON → Starlark → struct,
// and that the reference matches.
type Action struct {
	// Name is the JSON action key, e.g. "selectOption".
	Name string
	// Star overrides the Starlark name when the mechanical one would shadow
	// a Starlark builtin (type → type_text).
	Star string
	// Aliases are other JSON keys accepted for this action ("newTab").
	Aliases []string
	// Positional is the Type of the single positional argument ("" when the
	// action takes none; then only `true` or an object are accepted).
	Positional Type
	// PositionalMS means a number given as the positional value is
	// milliseconds of a duration (wait, sleep): checked here, like any
	// duration, so each spelling of a number gets the same answer.
	PositionalMS bool
	// MapForm means an object whose keys are not all parameters is passed
	// whole as the positional argument (batch fill, queryAll).
	MapForm bool
	// PositionalIs names the parameter the positional value stands for
	// when it has that parameter's type (fill's batch dict is fields,
	// pipeline's list is steps): it is decoded the same way, so its bad
	// shape fails validation before any step runs.
	PositionalIs string
	// Options is the action's typed options struct (a zero value, such as
	// ClickOptions{}): its tagged fields declare the parameters, and the
	// builtin receives the decoded struct. An action without one takes no
	// keyword parameters besides the common ones.
	Options any
	// Params are the keyword parameters, besides the common ones, derived
	// from Options by the catalog (never listed by hand).
	Params []Param
	// Verb starts the changes summary when the action is the command's
	// first visual step ("Clicked").
	Verb string
	// Example is one JSON step using the action, shown in the reference and
	// checked by the tests (default: made from the positional type).
	Example string
	// NoTab means the action runs without an attached tab.
	NoTab bool
	// OpensTab means the action attaches a tab itself (openTab, connectTab).
	OpensTab bool
	// Visual means the action can change what is on screen, so the command
	// ends with the post-command capture.
	Visual bool
	// LooksUpFirst means the action's first call into the page is the
	// lookup and check of its target (or, at a point, the arming of its
	// watch): nothing it does changes the page before that. A diff's
	// baseline read ahead of the command may then be read with that
	// lookup behind it, not before it.
	LooksUpFirst bool
	// LabelNamesOption means label names the action's option (a select's
	// option) when another target key or the positional value names the
	// element, and the element itself otherwise (selectOption).
	LabelNamesOption bool
	// Navigates means the action's work is loading a document in its tab
	// (goto, back, forward, reload): a new document does not explain its
	// failure, and a frame selected before it is left behind as no news.
	Navigates bool
	// RunsSteps means the action runs other steps, each recorded and
	// explained by itself (recipe).
	RunsSteps bool
	// AdoptsTab means the action attaches to a tab as it is (connectTab):
	// the tab's URL then is where the command starts, not a navigation.
	AdoptsTab bool
	// SizesOwnOutput means the action cuts its own output to its inline
	// limit and names the file with all of it (snapshot, getDom, network),
	// so the answer does not spill it again.
	SizesOwnOutput bool
	// PrintsTree means the action's output carries the page's tree as YAML
	// (snapshot), which the post-command capture need not repeat.
	PrintsTree bool
	// ReportsDownloads means the action's output is the downloads it
	// waited for (waitForDownload): the step lifecycle does not report
	// them again.
	ReportsDownloads bool
	// Doc is a one-line description.
	Doc string

	opts *optSpec
}

// Builtin is the Starlark name of the action: select_option.
func (a *Action) Builtin() string {
	if a.Star != "" {
		return a.Star
	}
	return SnakeCase(a.Name)
}

// Param returns the parameter with the JSON name or Starlark keyword name.
func (a *Action) Param(name string) (Param, bool) {
	for _, list := range [][]Param{a.Params, CommonParams} {
		for i := range list {
			if list[i].Name == name {
				return list[i], true
			}
		}
	}
	for _, list := range [][]Param{a.Params, CommonParams} {
		for i := range list {
			if list[i].Keyword() == name {
				return list[i], true
			}
		}
	}
	return Param{}, false
}

// AllParams returns the action's parameters followed by the common ones.
func (a *Action) AllParams() []Param {
	return append(append([]Param(nil), a.Params...), CommonParams...)
}

// Keywords lists the Starlark keyword names the builtin accepts.
func (a *Action) Keywords() []string {
	var out []string
	for _, p := range a.AllParams() {
		out = append(out, p.Keyword())
	}
	return out
}

// CommonParams are accepted by every action: they drive the step lifecycle.
var CommonParams = []Param{
	{Name: "optional", Type: "bool", Doc: "a failure reports status skipped and the program goes on"},
	{Name: "timeout", Type: "int|string", Doc: "step timeout in ms (or a duration such as \"5s\")"},
	{Name: "readyWhen", Type: "hook", Doc: "predicate polled until truthy before the action"},
	{Name: "settledWhen", Type: "hook", Doc: "predicate polled until truthy after the action; a timeout only warns"},
	{Name: "observe", Type: "hook", Doc: "function run after the action; its value becomes observation"},
	{Name: "outputPath", Type: "string", Doc: "file (under the output dir) the step's full output is saved to; the answer keeps a preview"},
}

// StepModifiers are the keys a JSON step may carry beside its action key.
var StepModifiers = []string{"optional", "timeout", "outputPath"}

var (
	catalog   map[string]*Action
	byBuiltin map[string]*Action
	aliases   map[string]*Action
	// pending are the registered actions, built into the maps above on
	// first use (reflecting over every options struct costs about a
	// millisecond, which a command forwarded to the resident process
	// never needs).
	pending []*Action
	// built builds the catalog once; it panics on a bad declaration, as
	// the tests exercise every action.
	built = sync.OnceFunc(buildCatalog)
)

// register adds actions to the catalog; each family file calls it from init.
func register(actions ...*Action) {
	pending = append(pending, actions...)
}

// buildCatalog parses every registered action's options and fills the
// lookup maps.
func buildCatalog() {
	catalog, byBuiltin, aliases = map[string]*Action{}, map[string]*Action{}, map[string]*Action{}
	for _, a := range pending {
		if err := addAction(a); err != nil {
			panic("lang: " + err.Error())
		}
	}
	pending = nil
}

// addAction parses an action's options into its parameters, checks them
// and adds it to the lookup maps: what registering a step gets it.
func addAction(a *Action) error {
	if _, dup := catalog[a.Name]; dup {
		return fmt.Errorf("duplicate action %s", a.Name)
	}
	if len(a.Params) > 0 {
		return fmt.Errorf("action %s lists Params by hand: declare every parameter in its Options struct", a.Name)
	}
	if a.Options != nil {
		spec, err := parseOptions(reflect.TypeOf(a.Options))
		if err != nil {
			return fmt.Errorf("action %s: %w", a.Name, err)
		}
		a.opts, a.Params = spec, spec.params()
	}
	if err := checkParams(a); err != nil {
		return err
	}
	if starlark.Universe.Has(a.Builtin()) && a.Builtin() != "fail" {
		return fmt.Errorf("action %s would shadow the Starlark builtin %s(): set Star", a.Name, a.Builtin())
	}
	catalog[a.Name] = a
	byBuiltin[a.Builtin()] = a
	for _, al := range a.Aliases {
		aliases[al] = a
	}
	return nil
}

// checkParams refuses an action whose parameters clash: a name (or its
// Starlark keyword) declared twice, e.g. a target key that the action also
// uses as a parameter with another meaning, or a target parameter that is
// not one of TargetKeys.
func checkParams(a *Action) error {
	seen := map[string]bool{}
	for _, p := range a.AllParams() {
		for _, k := range []string{p.Name, p.Keyword()} {
			if seen[k] {
				return fmt.Errorf("action %s declares %q twice: one name must mean one thing (a target key that is also a parameter clashes)", a.Name, k)
			}
		}
		seen[p.Name], seen[p.Keyword()] = true, true
		if p.Target && !slices.Contains(TargetKeys, p.Name) {
			return fmt.Errorf("action %s: %q is marked Target but is not a target key (%s)", a.Name, p.Name, strings.Join(TargetKeys, ", "))
		}
	}
	return nil
}

// LookupAction finds an action by JSON name or alias.
func LookupAction(name string) (*Action, bool) {
	built()
	if a, ok := catalog[name]; ok {
		return a, true
	}
	a, ok := aliases[name]
	return a, ok
}

// ActionForBuiltin finds an action by its Starlark builtin name.
func ActionForBuiltin(name string) (*Action, bool) {
	built()
	a, ok := byBuiltin[name]
	return a, ok
}

// Actions returns the catalog sorted by name.
func Actions() []*Action {
	built()
	out := make([]*Action, 0, len(catalog))
	for _, a := range catalog {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// ActionNames lists the valid JSON action keys (aliases included), sorted.
func ActionNames() []string {
	built()
	var names []string
	for n := range catalog {
		names = append(names, n)
	}
	for n := range aliases {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Function is a builtin that is not a step: a getter or a language helper
// such as url(), exists(sel) or with_hooks(body, …).
type Function struct {
	Name string
	// Params lists the accepted parameter names, positional first.
	Params []string
	Doc    string
}

var functions = map[string]*Function{}

func registerFunctions(fns ...*Function) {
	for _, f := range fns {
		functions[f.Name] = f
	}
}

// LookupFunction finds a non-step builtin.
func LookupFunction(name string) (*Function, bool) {
	f, ok := functions[name]
	return f, ok
}

// Functions returns the non-step builtins sorted by name.
func Functions() []*Function {
	out := make([]*Function, 0, len(functions))
	for _, f := range functions {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// IsBuiltin reports whether name is predeclared in recipes.
func IsBuiltin(name string) bool {
	built()
	_, a := byBuiltin[name]
	_, f := functions[name]
	return a || f
}

// typeAccepts reports whether a JSON value fits the type list t.
func typeAccepts(t Type, v any) bool {
	if t == "" {
		return false
	}
	for _, k := range strings.Split(string(t), "|") {
		switch k {
		case "any":
			return true
		case "string", "hook":
			if _, ok := v.(string); ok {
				return true
			}
		case "int":
			if n, ok := v.(json.Number); ok && isInt(string(n)) {
				return true
			}
		case "number":
			if _, ok := v.(json.Number); ok {
				return true
			}
		case "bool":
			if _, ok := v.(bool); ok {
				return true
			}
		case "list":
			if _, ok := v.([]any); ok {
				return true
			}
		case "dict":
			if _, ok := v.(*Object); ok {
				return true
			}
		}
	}
	return false
}

func describeType(t Type) string {
	parts := strings.Split(string(t), "|")
	for i, p := range parts {
		switch p {
		case "hook":
			parts[i] = "JavaScript string"
		case "dict":
			parts[i] = "object"
		case "list":
			parts[i] = "array"
		case "int":
			parts[i] = "integer"
		}
	}
	return strings.Join(parts, " or ")
}

// withArticle prefixes a type description with a or an.
func withArticle(desc string) string {
	if desc != "" && strings.ContainsRune("aeiou", rune(desc[0])) {
		return "an " + desc
	}
	return "a " + desc
}

func isInt(s string) bool {
	_, ok := wholeNumber(s)
	return ok
}

// wholeNumber reads a JSON number that is a whole number within int64,
// however it is written (1000, 1e3, 1000.0): the same value gets the
// same answer in every spelling.
func wholeNumber(s string) (int64, bool) {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) >= 1<<63 {
		return 0, false
	}
	return int64(f), true
}
