package cmd

import (
	"context"
	"encoding/json"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/state"
)

// `chrome status` and `chrome stop` with a remote endpoint (a browser
// pool): the browser is the pool's, and the agent's part of it is its
// session, which the resident process holds (see resident_pool.go).

// poolStatus reports the agent's pool session: chromeStatus run in the
// resident process that holds it (its browser, its tabs), or, when none
// is open, that there is none (opening one would only end it again).
func (a *app) poolStatus(ctx context.Context) error {
	input := []byte(`{"steps":[{"chromeStatus":{}}]}`)
	list := residents(a.endpointOption().String(), false)
	if sock, ok := a.residentSocket(); ok {
		res, handled, _ := a.viaResident(ctx, sock, residentRequest{Kind: residentJSON, Input: input})
		if handled {
			var m map[string]any
			if json.Unmarshal(res.answer, &m) == nil {
				m["endpoint"] = a.endpointOption().String()
				m["session"] = "open: the resident process holds this agent's pool session; `cdp-skill chrome stop` ends it (the pool keeps running)"
				if len(list) > 0 {
					m["resident"] = list
				}
				writeJSON(a.stdout, m)
				if !res.ok {
					a.exitCode = 1
				}
				return nil
			}
			a.printResident(res)
			return nil
		}
	}
	out := map[string]any{
		"status":   "ok",
		"endpoint": a.endpointOption().String(),
		"running":  false,
		"session":  "none: no pool session is open for this agent (state dir and settings); the next command opens one, and its tabs live until the session ends",
	}
	if len(list) > 0 {
		out["resident"] = list
	}
	writeJSON(a.stdout, out)
	return nil
}

// poolStop answers `chrome stop` on a pool: the agent's sessions were
// ended (their resident processes stopped, which closes the connections
// and so the pool's browsers); the pool itself is never stopped.
func (a *app) poolStop(ended []residentStatus) {
	n := countServing(ended, a.endpointOption().String())
	out := map[string]any{"status": "ok", "endpoint": a.endpointOption().String(), "sessionsEnded": n}
	if n == 0 {
		out["note"] = "no pool session of this agent was open; the pool itself is never stopped by cdp-skill"
	} else {
		out["note"] = "ended this agent's pool session: its tabs, aliases and refs are gone; the pool keeps running"
		a.forgetPoolTabs()
	}
	writeJSON(a.stdout, out)
}

// forgetPoolTabs removes the registry entries of tabs on this endpoint:
// their session ended with `chrome stop`.
func (a *app) forgetPoolTabs() {
	reg, err := state.OpenRegistry()
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	tabs, _ := reg.List()
	for _, t := range tabs {
		if t.Endpoint == a.endpointOption().String() {
			reg.Remove(ctx, t.Alias)
		}
	}
}
