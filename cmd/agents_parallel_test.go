//go:build unix

package cmd

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
	"github.com/cdp-skill/cdp-skill/browser/state"
	"github.com/cdp-skill/cdp-skill/internal/pooltest"
)

// parallelAgents is how many agents the parallel tests run at once
// (issue 28: eight agents finish with no crossed answers and no lost tabs).
const parallelAgents = 8

// TestAgentsInParallel runs eight agents at once, each with its own state
// dir as separate agents have, on one local Chrome and on a pool. Each
// opens its own tab, clicks its own counter a number of times that differs
// from its neighbours', and reads it back: every count is its own (no
// crossed answers), every handler ran once per click, and each agent's
// listTabs still lists its tab (no lost tabs).
func TestAgentsInParallel(t *testing.T) {
	page := counterSite(t)
	t.Run("one Chrome", func(t *testing.T) {
		c := browsertest.Require(t)
		var agents []*poolAgent
		for range parallelAgents {
			dir := looseTempDir(t, "cdp-agent-")
			env := append(os.Environ(), EnvPort+"="+strconv.Itoa(c.Port), EnvHeadless+"=1", state.EnvDir+"="+dir, EnvResidentIdle+"=2m")
			agents = append(agents, &poolAgent{t: t, env: env, dir: dir})
		}
		runParallelAgents(t, agents, page)
	})
	t.Run("pool", func(t *testing.T) {
		pool := pooltest.Start(t, pooltest.Options{Concurrent: parallelAgents})
		var agents []*poolAgent
		for range parallelAgents {
			agents = append(agents, newPoolAgent(t, pool.URL()))
		}
		runParallelAgents(t, agents, page)
		for _, a := range agents {
			a.noToken(pool.Token)
		}
	})
}

// runParallelAgents runs every agent's session at once and checks what
// each one's own page counted.
func runParallelAgents(t *testing.T, agents []*poolAgent, page string) {
	t.Helper()
	var wg sync.WaitGroup
	got := make([]string, len(agents))
	for i, a := range agents {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = agentSession(t, a, i, page, 2+i%3)
		}()
	}
	wg.Wait()
	for i, g := range got {
		if want := fmt.Sprint(2 + i%3); g != want {
			t.Errorf("agent %d: %s, want its own %s clicks", i, g, want)
		}
	}
}

// agentSession is one agent's commands: openTab, clicks, a read of the
// count, listTabs. It returns the count, or what went wrong.
func agentSession(t *testing.T, a *poolAgent, i int, page string, clicks int) string {
	r := a.run(`{"steps":[{"openTab":"` + page + `"}]}`)
	tab, _ := r.field("tab").(string)
	if tab == "" {
		return "openTab failed: " + string(r.stdout)
	}
	defer a.run(`{"steps":[{"closeTab":"` + tab + `"}]}`)
	for range clicks {
		if r := a.run(`{"tab":"` + tab + `","capture":"compact","steps":[{"click":"#add"}]}`); r.field("status") != "ok" {
			return "click failed: " + string(r.stdout)
		}
	}
	r = a.run(`{"tab":"` + tab + `","steps":[{"pageFunction":"String(window.clicks)"}]}`)
	count, _ := r.field("steps", "0", "output").(string)
	list := a.run(`{"steps":[{"listTabs":true}]}`)
	if !strings.Contains(string(list.stdout), `"`+tab+`"`) {
		return fmt.Sprintf("agent %d lost its tab %s: %s", i, tab, list.stdout)
	}
	return count
}
