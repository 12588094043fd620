//go:build unix

package cmd

import (
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/internal/pooltest"
)

// TestPoolEndingTheSessionMidCommand (issue 28): a pool that ends the
// session (its timeout) while a command runs answers a CONNECTION error
// saying the pool ended the session and to open a new tab, not a
// low-level WebSocket error ("a frame has a reserved bit set", EOF).
func TestPoolEndingTheSessionMidCommand(t *testing.T) {
	pool := pooltest.Start(t, pooltest.Options{})
	page := counterSite(t)
	a := newPoolAgent(t, pool.URL()+"&timeout=15000")
	tab, _ := a.ok(`{"steps":[{"openTab":"` + page + `"}]}`).field("tab").(string)
	r := a.run(`{"tab":"` + tab + `","timeout":60000,"steps":[{"pageFunction":"new Promise(r => setTimeout(r, 50000))"}]}`)
	msg, _ := r.field("error", "message").(string)
	if r.code == 0 || r.field("error", "type") != "CONNECTION" || !strings.Contains(msg, "ended this session") || !strings.Contains(msg, "openTab") {
		t.Fatalf("a command the pool's session ended under answered: %s", r.stdout)
	}
	a.noToken(pool.Token)
}
