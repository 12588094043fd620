package runtime

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"go.starlark.net/starlark"

	"github.com/cdp-skill/cdp-skill/browser/state"
	"github.com/cdp-skill/cdp-skill/builtins"
	"github.com/cdp-skill/cdp-skill/lang"
)

// navigationActions are the steps after which the site profile is looked
// up.
var navigationActions = map[string]bool{"goto": true, "openTab": true, "connectTab": true}

// noteNavigation looks up the profile of the site a navigation step
// reached and remembers it for the answer: in full the first time this tab
// reaches the domain, then only its path and recipe names. A domain with
// no profile is mentioned once per tab, as a suggestion in nextActions.
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
	h.profile, h.noProfile = nil, ""
	if err != nil || !isWebURL(nav.URL) {
		return
	}
	v, err := builtins.ViewProfile(domain)
	if err != nil {
		return
	}
	tab := h.env.Tab().TargetID
	notes := state.LoadSiteNotes(tab)
	if v.Found {
		if !state.Note(&notes.Shown, domain) {
			v = v.Brief()
		}
		h.profile = &v
	} else if state.Note(&notes.Asked, domain) {
		h.noProfile = domain
	} else {
		return
	}
	if tab != "" {
		if err := state.SaveSiteNotes(tab, notes); err != nil {
			h.log.Debug("site notes not saved", "err", err)
		}
	}
}

// ActionRequired is a mandatory instruction of the answer (spec §15.3).
type ActionRequired struct {
	Action  string `json:"action"`
	Domain  string `json:"domain"`
	Message string `json:"message"`
}

// profileRequired is the answer's actionRequired for a site with no
// profile yet: said once per domain per tab (noteNavigation).
func (h *host) profileRequired() *ActionRequired {
	if h.noProfile == "" {
		return nil
	}
	d := h.noProfile
	return &ActionRequired{Action: "createSiteProfile", Domain: d,
		Message: "No site profile for " + d + ". Before going on, save what you learn of the site (what it is built with, its quirks) with writeSiteProfile: nextActions holds the template."}
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
	// The browser's URL, not the page's: a page whose main thread is
	// blocked would hold every step of the command here.
	ctx, cancel := context.WithTimeout(h.ctx, 2*time.Second)
	u, err := p.CommittedURL(ctx)
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
