package browser

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/cdproto/target"

	"github.com/cdp-skill/cdp-skill/browser/chrome"
	"github.com/cdp-skill/cdp-skill/browser/state"
	"github.com/cdp-skill/cdp-skill/browser/suggest"
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
		return state.Tab{}, Errorf(KindStepValidation, "%v", err).WithAdvice(suggest.New("run %s to see the open tabs", ListTabs))
	}
	if state.IsAlias(ref) {
		entry, err := reg.Lookup(ref)
		if err != nil {
			tabs, _ := reg.List()
			var known []string
			for _, t := range tabs {
				known = append(known, t.Alias)
			}
			hint := suggest.New("open one with %s", OpenTab)
			if len(known) > 0 {
				hint = hint.After(strings.ReplaceAll("known tabs: "+strings.Join(known, ", ")+"; or ", "%", "%%"))
			}
			if rec := reg.Recovered(); rec != "" {
				hint = suggest.New(strings.ReplaceAll(rec, "%", "%%"))
			}
			return state.Tab{}, &ConnectionError{Endpoint: ep.String(), Err: &unknownTabError{ref: ref, hint: hint}}
		}
		if entry.Endpoint == "" && entry.Host == "" && entry.Port == 0 {
			// An entry that names only its target (the spec's older
			// form, "t77": "<targetId>") lives on the command's
			// default endpoint.
			where := TabEntry(ep, target.ID(entry.TargetID))
			entry.Host, entry.Port, entry.Endpoint = where.Host, where.Port, where.Endpoint
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

// tabLockWait is how long LockTab waits for another process's command on
// the tab, unless the context says otherwise (WithLockWait).
const tabLockWait = 60 * time.Second

type lockWaitKey struct{}

// WithLockWait returns ctx with the longest LockTab may wait for the tab:
// a command with a timeout of its own waits no longer than that.
func WithLockWait(ctx context.Context, d time.Duration) context.Context {
	return context.WithValue(ctx, lockWaitKey{}, d)
}

// TabBusyError is a tab whose lock another process held for as long as
// the command could wait.
type TabBusyError struct {
	TargetID string
	// Holder is the process id that holds the lock (0: unknown), and
	// Stopped says it is stopped (it will not let go until resumed).
	Holder  int
	Stopped bool
	Waited  time.Duration
}

func (e *TabBusyError) Error() string {
	waited := e.Waited.Round(100 * time.Millisecond)
	switch {
	case e.Holder > 0 && e.Stopped:
		return fmt.Sprintf("tab %s is busy: cdp-skill process %d holds it and is stopped (suspended: SIGSTOP, Ctrl-Z or a debugger), so it will not let go until resumed; resume it with `kill -CONT %d` or end it with `kill %d`, then run the command again (waited %s)", e.TargetID, e.Holder, e.Holder, e.Holder, waited)
	case e.Holder > 0:
		return fmt.Sprintf("tab %s is busy with another cdp-skill process (%d, running a command on it): run this one when it ends, or give it a longer timeout (waited %s)", e.TargetID, e.Holder, waited)
	}
	return fmt.Sprintf("tab %s is busy with another cdp-skill process: run this command when it ends, or give it a longer timeout (waited %s)", e.TargetID, waited)
}

// LockTab takes the per-tab lock that serializes the processes driving
// one tab; it waits up to a minute (or the context's WithLockWait), then
// says the tab is busy and which process holds it. The holder's process
// id is kept beside the lock.
func LockTab(ctx context.Context, targetID string) (func(), error) {
	if err := state.CheckTargetID(targetID); err != nil {
		return nil, err
	}
	p, err := state.Path("locks", targetID+".lock")
	if err != nil {
		return nil, err
	}
	wait := tabLockWait
	if d, ok := ctx.Value(lockWaitKey{}).(time.Duration); ok && d > 0 && d < wait {
		wait = d
	}
	lctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	start := time.Now()
	unlock, err := state.Lock(lctx, p)
	if err != nil {
		if errors.Is(ctx.Err(), context.Canceled) {
			return nil, fmt.Errorf("tab %s: %w", targetID, ctx.Err())
		}
		holder := lockHolder(p)
		return nil, &TabBusyError{TargetID: targetID, Holder: holder, Stopped: holder > 0 && state.ProcessStopped(holder), Waited: time.Since(start)}
	}
	state.WriteFileAtomic(p+".pid", []byte(strconv.Itoa(os.Getpid())), 0o600)
	return unlock, nil
}

// lockHolder is the process id recorded as holding lock p, or 0.
func lockHolder(p string) int {
	data, err := os.ReadFile(p + ".pid")
	if err != nil {
		return 0
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}

// unknownTabError is the error of a tab alias the registry does not know:
// its text ends with the hint, which a frontend writes in its own syntax
// (failure.AdviceIn).
type unknownTabError struct {
	ref  string
	hint *suggest.Hint
}

func (e *unknownTabError) Error() string {
	return fmt.Sprintf("%v %q (it was closed, or never opened here): %s", state.ErrUnknownTab, e.ref, e.hint.Render(suggest.JSON))
}

func (e *unknownTabError) Unwrap() error { return state.ErrUnknownTab }

// TypedHint is the hint of what to do instead.
func (e *unknownTabError) TypedHint() *suggest.Hint { return e.hint }
