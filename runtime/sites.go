package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"go.starlark.net/starlark"

	"github.com/cdp-skill/cdp-skill/browser/state"
	"github.com/cdp-skill/cdp-skill/builtins"
	"github.com/cdp-skill/cdp-skill/lang"
)

// ActionRequired is the instruction an answer carries when the agent
// reached a site that has no profile yet (spec §15.3).
type ActionRequired struct {
	Action  string `json:"action"`
	Domain  string `json:"domain"`
	Message string `json:"message"`
}

// navigationActions are the steps after which the site profile is looked
// up.
var navigationActions = map[string]bool{"goto": true, "openTab": true, "connectTab": true}

// noteNavigation looks up the profile of the site a navigation step
// reached and remembers it for the answer.
func (h *host) noteNavigation(a *lang.Action, out any) {
	if !navigationActions[a.Name] {
		return
	}
	data, _ := json.Marshal(out)
	var nav struct {
		URL string `json:"url"`
	}
	json.Unmarshal(data, &nav)
	domain, err := state.NormalizeDomain(nav.URL)
	if err != nil || !isWebURL(nav.URL) {
		h.profile, h.required = nil, nil
		return
	}
	v, err := builtins.ViewProfile(domain)
	if err != nil {
		return
	}
	if v.Found {
		h.profile, h.required = &v, nil
		return
	}
	h.profile = nil
	h.required = &ActionRequired{Action: "createSiteProfile", Domain: domain, Message: fmt.Sprintf(
		"No site profile exists for %s. Before you go on, create one so later agents know this site: "+
			"1) {\"snapshot\": true} to see its structure; "+
			"2) {\"pageFunction\": \"() => ({react: !!window.React || !!document.querySelector('[data-reactroot]'), next: !!window.__NEXT_DATA__, vue: !!window.Vue, angular: !!window.ng})\"} to detect its framework; "+
			"3) {\"writeSiteProfile\": {\"domain\": %q, \"content\": \"# %s\\n## Environment\\n…\\n## Quirks\\n…\\n## Strategies\\n…\"}} — add \"recipes\" (Starlark: def login(email, password): …) for flows worth repeating.",
		domain, domain, domain)}
}

func isWebURL(u string) bool {
	return len(u) > 7 && (u[:7] == "http://" || (len(u) > 8 && u[:8] == "https://"))
}

// siteHooks returns the domain defaults (defaults = {"settled_when": …})
// of the current page's site profile, if it has recipes declaring them.
func (h *host) siteHooks() hookSet {
	if !h.sitesHaveRecipes() {
		return hookSet{}
	}
	p, err := h.env.Page()
	if err != nil {
		return hookSet{}
	}
	ctx, cancel := context.WithTimeout(h.ctx, 2*time.Second)
	u, err := p.URL(ctx)
	cancel()
	if err != nil {
		return hookSet{}
	}
	domain, err := state.NormalizeDomain(u)
	if err != nil || !isWebURL(u) {
		return hookSet{}
	}
	if set, ok := h.siteDefaults[domain]; ok {
		return set
	}
	set := h.loadSiteDefaults(domain)
	h.siteDefaults[domain] = set
	return set
}

// sitesHaveRecipes reports (once per program) whether any profile has a
// recipes file, so that pages of sites without one cost nothing.
func (h *host) sitesHaveRecipes() bool {
	if h.anyRecipes == nil {
		matches, _ := filepath.Glob(filepath.Join(state.SitesDir(), "*.star"))
		any := len(matches) > 0
		h.anyRecipes = &any
	}
	return *h.anyRecipes
}

func (h *host) loadSiteDefaults(domain string) hookSet {
	if _, err := os.Stat(filepath.Join(state.SitesDir(), domain+".star")); err != nil {
		return hookSet{}
	}
	th, stop := h.newThread("site defaults", h.maxSteps())
	defer stop()
	globals, err := h.load(th, lang.SiteModule(domain))
	if err != nil {
		h.log.Debug("site recipes do not load", "domain", domain, "err", err)
		return hookSet{}
	}
	d, ok := globals["defaults"].(*starlark.Dict)
	if !ok {
		return hookSet{}
	}
	var set hookSet
	get := func(k string) *builtins.Predicate {
		v, found, _ := d.Get(starlark.String(k))
		if !found {
			return nil
		}
		p, err := builtins.ParsePredicate(k, v)
		if err != nil {
			return nil
		}
		return p
	}
	set.ready, set.settled, set.observe = get("ready_when"), get("settled_when"), get("observe")
	return set
}
