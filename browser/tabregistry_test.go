package browser

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/chrome"
	"github.com/cdp-skill/cdp-skill/browser/state"
)

// TestResolveTabAndLockTab: an alias resolves to its registry entry, a
// target id to its alias's entry when it has one, an unknown alias is a
// ConnectionError naming the known tabs, a malformed ref a validation
// error; a tab's lock is held until released.
func TestResolveTabAndLockTab(t *testing.T) {
	useStateDir(t, t.TempDir())
	reg, err := state.OpenRegistry()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ep := chrome.Endpoint{Port: 9333}.Normalize()
	alias, err := reg.Register(ctx, TabEntry(ep, "ABC123"))
	if err != nil {
		t.Fatal(err)
	}
	for _, ref := range []string{alias, "ABC123"} {
		e, err := ResolveTab(reg, ep, ref)
		if err != nil || e.Alias != alias || e.TargetID != "ABC123" || EndpointOf(e).Port != 9333 {
			t.Errorf("ResolveTab(%s) = %+v, %v", ref, e, err)
		}
	}
	if e, err := ResolveTab(reg, ep, "DEF456"); err != nil || e.Alias != "" || e.TargetID != "DEF456" {
		t.Errorf("an unregistered target id: %+v, %v", e, err)
	}
	_, err = ResolveTab(reg, ep, "t999")
	var ce *ConnectionError
	if !errors.As(err, &ce) || !errors.Is(err, state.ErrUnknownTab) || !strings.Contains(err.Error(), "known tabs: "+alias) {
		t.Errorf("unknown alias: %v", err)
	}
	if _, err := ResolveTab(reg, ep, "../x"); KindOf(err) != KindStepValidation {
		t.Errorf("a path as a tab: %v", err)
	}

	unlock, err := LockTab(ctx, "ABC123")
	if err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	if _, err := LockTab(short, "ABC123"); err == nil || !strings.Contains(err.Error(), "busy with another cdp-skill process") {
		t.Errorf("a held tab locked again: %v", err)
	}
	unlock()
	again, err := LockTab(ctx, "ABC123")
	if err != nil {
		t.Fatalf("after unlock: %v", err)
	}
	again()
}
