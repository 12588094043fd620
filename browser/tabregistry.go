package browser

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/chromedp/cdproto/target"

	"github.com/cdp-skill/cdp-skill/browser/chrome"
	"github.com/cdp-skill/cdp-skill/browser/state"
)

// The tab registry (aliases t1, t2, …, in the state dir) and the per-tab
// locks: how an invocation finds a tab and makes sure no other process
// drives it at the same time.

// EndpointOf returns the Chrome endpoint a registry entry lives on. The
// registry keeps a remote endpoint with its credentials redacted: the full
// URL is the one this process was given (chrome.Remember).
func EndpointOf(t state.Tab) chrome.Endpoint {
	if t.Endpoint != "" {
		return chrome.Endpoint{URL: chrome.Unredact(t.Endpoint)}
	}
	return chrome.Endpoint{Host: t.Host, Port: t.Port}.Normalize()
}

// TabEntry is the registry entry of target id on ep (no alias yet); a
// remote endpoint is recorded with its credentials redacted (the state dir
// never holds a token).
func TabEntry(ep chrome.Endpoint, id target.ID) state.Tab {
	ep = ep.Normalize()
	if ep.Remote() {
		chrome.Remember(ep)
		return state.Tab{TargetID: string(id), Endpoint: ep.String()}
	}
	return state.Tab{TargetID: string(id), Host: ep.Host, Port: ep.Port}
}

// ResolveTab finds the registry entry of a tab alias (t1) or a target id on
// ep; an unknown alias is a ConnectionError naming the known ones.
func ResolveTab(reg *state.Registry, ep chrome.Endpoint, ref string) (state.Tab, error) {
	chrome.Remember(ep)
	if err := state.CheckTabRef(ref); err != nil {
		return state.Tab{}, Errorf(KindStepValidation, "%v", err).WithHint("run listTabs to see the open tabs")
	}
	if state.IsAlias(ref) {
		entry, err := reg.Lookup(ref)
		if err != nil {
			tabs, _ := reg.List()
			var known []string
			for _, t := range tabs {
				known = append(known, t.Alias)
			}
			hint := "open one with openTab"
			if len(known) > 0 {
				hint = fmt.Sprintf("known tabs: %s; or open one with openTab", strings.Join(known, ", "))
			}
			if rec := reg.Recovered(); rec != "" {
				hint = rec
			}
			return state.Tab{}, &ConnectionError{Endpoint: ep.String(),
				Err: fmt.Errorf("%w %q (it was closed, or never opened here): %s", state.ErrUnknownTab, ref, hint)}
		}
		return entry, nil
	}
	entry := TabEntry(ep, target.ID(ref))
	if a := reg.AliasOf(ref); a != "" {
		if known, err := reg.Lookup(a); err == nil {
			entry = known
		}
	}
	return entry, nil
}

// LockTab takes the per-tab lock that serializes the processes driving
// one tab; it waits up to a minute, then says the tab is busy.
func LockTab(ctx context.Context, targetID string) (func(), error) {
	if err := state.CheckTargetID(targetID); err != nil {
		return nil, err
	}
	p, err := state.Path("locks", targetID+".lock")
	if err != nil {
		return nil, err
	}
	lctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	unlock, err := state.Lock(lctx, p)
	if err != nil {
		return nil, fmt.Errorf("tab %s is busy with another cdp-skill process: %w", targetID, err)
	}
	return unlock, nil
}
