package builtins

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"go.starlark.net/starlark"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/browser/state"
	"github.com/cdp-skill/cdp-skill/lang"
	"github.com/cdp-skill/cdp-skill/stdlib"
)

func init() {
	register(map[string]ActionFunc{
		"readSiteProfile":  readSiteProfile,
		"writeSiteProfile": writeSiteProfile,
		"recipe":           runRecipe,
	})
}

// domainArg reads and normalizes the domain: the positional string or d.
func domainArg(c *Call, d string) (string, error) {
	if s, ok := starlark.AsString(c.Args.Pos); ok && c.Args.Pos != nil {
		d = s
	}
	if d == "" {
		return "", invalid("%s needs a domain, e.g. {\"domain\": \"github.com\"}", c.Action.Name)
	}
	n, err := state.NormalizeDomain(d)
	if err != nil {
		return "", invalid("%v", err)
	}
	return n, nil
}

// ProfileView is what readSiteProfile answers and navigation reports.
type ProfileView struct {
	Found       bool          `json:"found"`
	Domain      string        `json:"domain"`
	Content     string        `json:"content,omitempty"`
	Recipes     []lang.Recipe `json:"recipes,omitempty"`
	Defaults    bool          `json:"defaults,omitempty"`
	Path        string        `json:"path,omitempty"`
	RecipesPath string        `json:"recipesPath,omitempty"`
	// Note says when the content is left out because this tab was shown
	// it before.
	Note string `json:"note,omitempty"`
}

// Brief is the view of a profile the tab was already shown: its path and
// recipe names and parameters, without the content.
func (v ProfileView) Brief() ProfileView {
	b := ProfileView{Found: v.Found, Domain: v.Domain, Path: v.Path, Defaults: v.Defaults,
		Note: "shown in full earlier in this tab; readSiteProfile shows it again"}
	for _, r := range v.Recipes {
		b.Recipes = append(b.Recipes, lang.Recipe{Name: r.Name, Params: r.Params})
	}
	return b
}

// ViewProfile reads a profile and lists its recipes.
func ViewProfile(domain string) (ProfileView, error) {
	p, found, err := state.ReadProfile(domain)
	v := ProfileView{Found: found, Domain: domain}
	if err != nil || !found {
		return v, err
	}
	v.Content, v.Path, v.RecipesPath = p.Content, p.Path, p.RecipesPath
	if p.Recipes != "" {
		recipes, defaults, err := lang.SiteRecipes(p.RecipesPath, []byte(p.Recipes))
		if err != nil {
			return v, fmt.Errorf("site recipes %s do not parse: %w", p.RecipesPath, err)
		}
		v.Recipes, v.Defaults = recipes, defaults
	}
	return v, nil
}

func readSiteProfile(c *Call) (any, error) {
	d, err := domainArg(c, options[lang.ReadSiteProfileOptions](c).Domain)
	if err != nil {
		return nil, err
	}
	return ViewProfile(d)
}

func writeSiteProfile(c *Call) (any, error) {
	o := options[lang.WriteSiteProfileOptions](c)
	d, err := domainArg(c, o.Domain)
	if err != nil {
		return nil, err
	}
	content := o.Content
	if strings.TrimSpace(content) == "" {
		return nil, invalid("writeSiteProfile needs content: the profile's markdown (read the old one first and merge)")
	}
	recipes := o.Recipes
	if recipes != "" {
		res := &lang.Resolver{Stdlib: stdlib.FS, Site: SiteSource}
		if diags := lang.Check(d+".star", []byte(recipes), res); len(diags) > 0 {
			var msgs []string
			for _, dg := range diags {
				msgs = append(msgs, dg.String())
			}
			return nil, invalid("the recipes do not check, nothing was saved: %s", strings.Join(msgs, "; "))
		}
	}
	p, err := state.WriteProfile(c.Ctx, state.Profile{Domain: d, Content: content, Recipes: recipes})
	if err != nil {
		return nil, err
	}
	out := map[string]any{"written": true, "domain": d, "path": p.Path}
	if p.RecipesPath != "" {
		out["recipesPath"] = p.RecipesPath
	}
	return out, nil
}

// SiteSource resolves load("@site/<domain>"): the recipes file of the
// domain's profile, named by its path so errors point at it.
func SiteSource(domain string) (string, []byte, error) {
	d, err := state.NormalizeDomain(domain)
	if err != nil {
		return "", nil, err
	}
	p, found, err := state.ReadProfile(d)
	if err != nil {
		return "", nil, err
	}
	if !found || p.Recipes == "" {
		return "", nil, browser.Errorf(browser.KindElementNotFound, "site %s has no recipes", d).
			WithHint("write them with writeSiteProfile {domain, content, recipes}")
	}
	return p.RecipesPath, []byte(p.Recipes), nil
}

// runRecipe calls a recipe of a site profile with its arguments.
func runRecipe(c *Call) (any, error) {
	o := options[lang.RecipeOptions](c)
	site, name := o.Site, o.Name
	if s, ok := starlark.AsString(c.Args.Pos); ok && c.Args.Pos != nil {
		i := strings.LastIndexAny(s, "/ ")
		if i <= 0 {
			return nil, invalid(`recipe takes "site/name", e.g. "github.com/login"`)
		}
		site, name = s[:i], strings.TrimSpace(s[i+1:])
	}
	if site == "" || name == "" {
		return nil, invalid("recipe needs site and name").
			WithAdvice(forExample(`{"recipe": {"site": "github.com", "name": "login", "args": {"user": "ada"}}}`))
	}
	domain, err := state.NormalizeDomain(site)
	if err != nil {
		return nil, invalid("%v", err)
	}
	if c.Loader == nil {
		return nil, errors.New("recipes cannot run here")
	}
	globals, err := c.Loader(c.Thread, lang.SiteModule(domain))
	if err != nil {
		return nil, err
	}
	fn, ok := globals[name].(starlark.Callable)
	if !ok || strings.HasPrefix(name, "_") {
		var names []string
		for k, v := range globals {
			if _, isFn := v.(*starlark.Function); isFn && !strings.HasPrefix(k, "_") {
				names = append(names, k)
			}
		}
		sort.Strings(names)
		return nil, browser.Errorf(browser.KindElementNotFound, "site %s has no recipe %q; its recipes: %s", domain, name, strings.Join(names, ", "))
	}
	var kwargs []starlark.Tuple
	if o.Args.Object != nil {
		for _, k := range o.Args.Keys {
			kwargs = append(kwargs, starlark.Tuple{starlark.String(k), lang.FromPlain(o.Args.Values[k])})
		}
	}
	v, err := starlark.Call(c.Thread, fn, nil, kwargs)
	if err != nil {
		rep := lang.ReportError(err)
		msg := fmt.Sprintf("recipe %s/%s failed", domain, name)
		if rep.Location != "" {
			msg += " at " + rep.Location
		}
		return nil, &browser.Error{Kind: browser.KindOf(err), Message: msg + ": " + rep.Message, Err: err,
			Details: map[string]any{"location": rep.Location, "backtrace": rep.Backtrace}}
	}
	out := map[string]any{"recipe": domain + "/" + name}
	if v != starlark.None {
		data, err := FromStarlark(v)
		if err != nil {
			data = v.String()
		}
		out["result"] = data
	}
	return out, nil
}
