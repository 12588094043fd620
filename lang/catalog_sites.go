package lang

func init() {
	register(
		&Action{Name: "readSiteProfile", Positional: "string", NoTab: true,
			Params: []Param{{Name: "domain", Type: "string", Doc: "the site, e.g. github.com (a URL works too)"}},
			Doc:    "read a site profile: its notes, its recipes with their parameters, its domain defaults"},
		&Action{Name: "writeSiteProfile", NoTab: true,
			Params: []Param{
				{Name: "domain", Type: "string", Doc: "the site, e.g. github.com"},
				{Name: "content", Type: "string", Doc: "the profile's markdown (replaces the old one: read it first and merge)"},
				{Name: "recipes", Type: "string", Doc: "Starlark module of recipes (def login(email, password): …) and an optional defaults = {\"settled_when\": …}; checked before it is saved"},
			},
			Doc: "create or replace a site profile (and its recipes)"},
		&Action{Name: "recipe", Positional: "string", Visual: true,
			Params: []Param{
				{Name: "site", Type: "string", Doc: "the site whose recipe to run"},
				{Name: "name", Type: "string", Doc: "the recipe (a function of the site's recipes)"},
				{Name: "args", Type: "dict", Doc: "keyword arguments for the recipe"},
			},
			Doc: "run a recipe stored in a site profile: {\"recipe\": {\"site\": \"github.com\", \"name\": \"login\", \"args\": {…}}} or \"github.com/login\""},
	)
}
