package lang

import "github.com/cdp-skill/cdp-skill/lang/stepopt"

// ReadSiteProfileOptions are readSiteProfile's parameters.
type ReadSiteProfileOptions struct {
	Domain string `step:"domain" doc:"the site, e.g. github.com (a URL works too)" example:"\"github.com\""`
}

// WriteSiteProfileOptions are writeSiteProfile's parameters.
type WriteSiteProfileOptions struct {
	Domain  string `step:"domain" doc:"the site, e.g. github.com" example:"\"github.com\""`
	Content string `step:"content" doc:"the profile's markdown (replaces the old one: read it first and merge)" example:"\"# github.com\\nLogin at /login.\""`
	Recipes string `step:"recipes" doc:"Starlark module of recipes (def login(email, password): …) and an optional defaults = {\"settled_when\": …}; checked before it is saved" example:"\"def home():\\n    goto('https://github.com')\\n\""`
}

// RecipeOptions are recipe's parameters.
type RecipeOptions struct {
	Site string         `step:"site" doc:"the site whose recipe to run" example:"\"github.com\""`
	Name string         `step:"name" doc:"the recipe (a function of the site's recipes)" example:"\"login\""`
	Args stepopt.Kwargs `step:"args" type:"dict" doc:"keyword arguments for the recipe" example:"{\"email\": \"a@b.c\"}"`
}

func init() {
	register(
		&Action{Name: "readSiteProfile", Positional: "string", NoTab: true, Options: ReadSiteProfileOptions{},
			Example: `{"readSiteProfile": "github.com"}`,
			Doc:     "read a site profile: its notes, its recipes with their parameters, its domain defaults"},
		&Action{Name: "writeSiteProfile", NoTab: true, Options: WriteSiteProfileOptions{},
			Example: `{"writeSiteProfile": {"domain": "example.com", "content": "# example.com\nNothing to log in to."}}`,
			Doc:     "create or replace a site profile (and its recipes)"},
		&Action{Name: "recipe", RunsSteps: true, Positional: "string", Visual: true, Options: RecipeOptions{},
			Example: `{"recipe": {"site": "github.com", "name": "login", "args": {"email": "a@b.c"}}}`,
			Doc:     "run a recipe stored in a site profile: {\"recipe\": {\"site\": \"github.com\", \"name\": \"login\", \"args\": {…}}} or \"github.com/login\""},
	)
}
