package mcpserver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/state"
	"github.com/cdp-skill/cdp-skill/cmd"
	"github.com/cdp-skill/cdp-skill/lang"
	"github.com/cdp-skill/cdp-skill/runtime"
)

// runRecipe runs a recipe as `cdp-skill run` or `cdp-skill recipe` does.
func (s *server) runRecipe(ctx context.Context, c *callInfo, args map[string]any) *runtime.Output {
	start := time.Now()
	prog, err := recipeProgram(args)
	if err != nil {
		return validation(err.Error())
	}
	out := runtime.Run(ctx, prog, s.host.Options(s.pool))
	s.host.AfterCommand(prog.Source, nil, out, start)
	return out
}

// recipeProgram builds the program the arguments name: exactly one of
// source, path, or site and name.
func recipeProgram(args map[string]any) (runtime.Program, error) {
	prog := runtime.Program{Timeout: 5 * time.Minute}
	if err := onlyKeys("run_recipe", args, "source", "path", "site", "name", "args", "tab", "timeout"); err != nil {
		return prog, err
	}
	var str [5]string
	for i, k := range []string{"source", "path", "site", "name", "tab"} {
		v, err := argString("run_recipe", args, k)
		if err != nil {
			return prog, err
		}
		str[i] = v
	}
	source, path, site, name := str[0], str[1], str[2], str[3]
	prog.Tab = str[4]
	rargs, err := recipeArgs(args["args"])
	if err != nil {
		return prog, err
	}
	prog.Args = rargs
	if v, ok := args["timeout"]; ok {
		ms, isNum := v.(float64)
		if !isNum || ms <= 0 {
			return prog, fmt.Errorf(`run_recipe: "timeout" must be a positive number of milliseconds, not %v`, v)
		}
		prog.Timeout = time.Duration(ms * float64(time.Millisecond))
	}
	given := 0
	for _, v := range []string{source, path, site + name} {
		if v != "" {
			given++
		}
	}
	if given != 1 {
		return prog, fmt.Errorf(`run_recipe needs exactly one of "source" (Starlark text), "path" (a .star file) or "site" and "name" (a site profile's recipe)`)
	}
	switch {
	case source != "":
		prog.Name, prog.Source = "recipe.star", []byte(source)
		if wd, err := os.Getwd(); err == nil {
			prog.Dir = wd
		}
	case path != "":
		src, err := lang.ReadSource(path)
		if err != nil {
			return prog, fmt.Errorf("run_recipe: cannot read %s: %v", path, err)
		}
		prog.Name, prog.Source = path, src
		prog.Dir, _ = filepath.Abs(filepath.Dir(path))
	default:
		if site == "" || name == "" {
			return prog, fmt.Errorf(`run_recipe: a site profile's recipe needs both "site" (its domain) and "name"`)
		}
		domain, err := state.NormalizeDomain(site)
		if err != nil {
			return prog, err
		}
		prog.Name = "recipe " + domain + "/" + name
		prog.Source = []byte(cmd.SiteRecipeProgram(domain, name, rargs))
		prog.Args = nil
	}
	return prog, nil
}

// recipeArgs turns the args object into the recipe's string arguments;
// numbers and booleans are passed as their JSON text.
func recipeArgs(v any) (map[string]string, error) {
	out := map[string]string{}
	if v == nil {
		return out, nil
	}
	in, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf(`run_recipe: "args" must be an object of strings, numbers or booleans, not %s`, jsonKind(v))
	}
	for k, v := range in {
		switch x := v.(type) {
		case string:
			out[k] = x
		case float64, bool:
			out[k] = fmt.Sprint(x)
		default:
			return nil, fmt.Errorf(`run_recipe: args[%q] must be a string, number or boolean (recipes read args as strings), not %s`, k, jsonKind(v))
		}
	}
	return out, nil
}

// compile answers the Starlark a command lowers to.
func (s *server) compile(_ context.Context, c *callInfo, args map[string]any) *runtime.Output {
	parsed, err := lang.ParseRequest(mustJSON(args))
	if err != nil {
		return runtime.LangErrorOutput(err)
	}
	src, err := lang.Lower(parsed)
	if err != nil {
		return runtime.LangErrorOutput(err)
	}
	c.recipe = src
	return nil
}
