package builtins

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/chromedp/cdproto/target"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/browser/chrome"
	"github.com/cdp-skill/cdp-skill/browser/state"
	"github.com/cdp-skill/cdp-skill/browser/suggest"
	"github.com/cdp-skill/cdp-skill/lang"
)

func init() {
	register(map[string]ActionFunc{
		"chromeStatus": chromeStatus,
		"openTab":      openTab,
		"connectTab":   connectTab,
		"closeTab":     closeTab,
		"listTabs":     listTabs,
	})
}

// endpointArg reads host/port/endpoint keywords, defaulting to the env's
// endpoint.
func endpointArg(c *Call) (chrome.Endpoint, error) {
	ep := c.Env.Endpoint
	conn := connectionOf(c)
	if conn.Endpoint != "" {
		return chrome.Endpoint{URL: conn.Endpoint}, nil
	}
	host, port := conn.Host, conn.Port
	if host != "" || port != 0 {
		ep = chrome.Endpoint{Host: host, Port: port}
		if port == 0 {
			ep.Port = c.Env.Endpoint.Port
		}
	}
	if ep.Port < 0 || ep.Port > 65535 {
		return ep, invalid("port %d is out of range", ep.Port)
	}
	return ep.Normalize(), nil
}

// connectionOf returns the connection options of a tab step (empty for a
// step without them).
func connectionOf(c *Call) *lang.Connection {
	if o, ok := c.Args.Opts.(interface{ ConnectionFields() *lang.Connection }); ok {
		return o.ConnectionFields()
	}
	return &lang.Connection{}
}

// TabInfo describes an open tab in outputs.
type TabInfo struct {
	Tab      string `json:"tab,omitempty"`
	TargetID string `json:"targetId"`
	URL      string `json:"url"`
	Title    string `json:"title,omitempty"`
	// Unregistered marks an open tab that has no alias (opened by someone
	// else, or by a cdp-skill that died before registering it).
	Unregistered bool `json:"unregistered,omitempty"`
}

func tabInfos(reg *state.Registry, pages []*target.Info) []TabInfo {
	out := make([]TabInfo, 0, len(pages))
	for _, p := range pages {
		alias := reg.AliasOf(string(p.TargetID))
		out = append(out, TabInfo{Tab: alias, TargetID: string(p.TargetID), URL: p.URL, Title: p.Title, Unregistered: alias == ""})
	}
	return out
}

// tabsNote explains unregistered tabs and a recovered registry.
func tabsNote(reg *state.Registry, tabs []TabInfo) string {
	var notes []string
	if rec := reg.Recovered(); rec != "" {
		notes = append(notes, rec)
	}
	if slices.ContainsFunc(tabs, func(t TabInfo) bool { return t.Unregistered }) {
		notes = append(notes, `tabs marked unregistered have no alias: {"connectTab":{"targetId":"…"}} gives one an alias, {"closeTab":"<targetId>"} closes it`)
	}
	return strings.Join(notes, "; ")
}

func chromeStatus(c *Call) (any, error) {
	ep, err := endpointArg(c)
	if err != nil {
		return nil, err
	}
	o := options[lang.ChromeStatusOptions](c)
	autoLaunch, headless := o.AutoLaunch, c.Env.Headless
	if o.Headless != nil {
		headless = *o.Headless
	}
	out := map[string]any{"running": false}
	if !ep.Remote() {
		out["port"] = ep.Port
	}
	if !autoLaunch && !ep.Remote() {
		if _, err := chrome.Version(c.Ctx, ep); err != nil {
			if silentPort(err) {
				return nil, &browser.ConnectionError{Endpoint: ep.String(), Err: err}
			}
			out["note"] = fmt.Sprintf("no Chrome answers on %s; chromeStatus without autoLaunch:false launches one", ep)
			if errors.As(err, new(*chrome.NotDevToolsError)) {
				out["note"] = err.Error()
			}
			return out, nil
		}
	}
	c.Env.Headless = c.Env.Headless || headless
	b, err := c.Env.Browser(c.Ctx, ep)
	if err != nil {
		if silentPort(err) {
			// Something took the connection and never answered: whether
			// a Chrome runs there (frozen, overloaded) is not known, so
			// there is no status to give.
			return nil, err
		}
		// A status, not a failure: Chrome could not be reached or
		// launched (the port answers as something else), and the answer
		// says why (spec §4).
		out["error"] = err.Error()
		return out, nil
	}
	v, err := b.Version(c.Ctx)
	if err != nil {
		return nil, silentDevTools(ep, "Browser.getVersion", err)
	}
	out["running"] = true
	out["launched"] = b.Launched
	out["version"] = v
	pages, err := b.Pages(c.Ctx)
	if err != nil {
		return nil, silentDevTools(ep, "Target.getTargets", err)
	}
	if len(pages) == 0 {
		if _, err := b.NewTab(c.Ctx); err != nil {
			return nil, err
		}
		out["createdTab"] = true
		out["note"] = "Chrome had no tabs open. Created a new tab."
		pages, _ = b.Pages(c.Ctx)
	}
	out["tabs"] = tabInfos(c.Env.Registry, pages)
	return out, nil
}

func openTab(c *Call) (any, error) {
	o := options[lang.OpenTabOptions](c)
	u := o.URL
	var err error
	if c.Args.Pos != nil {
		s, err := posString(c, "a URL")
		if err != nil {
			return nil, err
		}
		u = s
	}
	wait, err := waitUntilArg(c)
	if err != nil {
		return nil, err
	}
	if u != "" {
		if u, err = c.Env.URLs.Check(u); err != nil {
			return nil, err
		}
	}
	ep, err := endpointArg(c)
	if err != nil {
		return nil, err
	}
	if o.Headless != nil && *o.Headless {
		c.Env.Headless = true
	}
	tab, err := c.Env.OpenTab(c.Ctx, ep)
	if err != nil {
		return nil, err
	}
	out := TabInfo{Tab: tab.Alias, TargetID: tab.TargetID, URL: "about:blank"}
	if u != "" {
		p, _ := c.Env.Page()
		nav, err := p.Navigate(c.Ctx, u, wait)
		if err == nil && p.TabClosed() {
			err = &browser.ConnectionError{Endpoint: ep.String(), Err: &browser.TabGoneError{Alias: tab.Alias, TargetID: tab.TargetID}}
		}
		if err != nil {
			return nil, openTabFailed(tab, c.Env.DiscardTab(c.Ctx), err)
		}
		out.URL, out.Title = nav.URL, nav.Title
	}
	return out, nil
}

// openTabFailed is the error of an openTab whose page did not load, saying
// what became of the tab it opened (d): the navigation's own advice about
// the tab (usable, stopped) no longer holds.
func openTabFailed(tab state.Tab, d Discarded, err error) error {
	var what string
	var hint *suggest.Hint
	switch d {
	case TabWasGone:
		what = fmt.Sprintf("the tab openTab opened (%s) was closed while its page loaded (by the page, the user or another agent), so its alias is removed", tab.Alias)
		hint = suggest.New("run %s again; if the page closes its own tab, open it in a tab you keep", suggest.Step{Name: "openTab", Value: "<url>"})
	case TabStillOpen:
		what = fmt.Sprintf("openTab could not close the tab it opened (%s, targetId %s): it is still open and keeps its alias", tab.Alias, tab.TargetID)
		hint = suggest.New("close it with %s; %s shows the open tabs", suggest.Step{Name: "closeTab", Value: tab.Alias}, browser.ListTabs)
	default:
		what = fmt.Sprintf("openTab closed the tab it opened (%s)", tab.Alias)
		hint = suggest.New("check that the server answers; a page that is slow to finish loading opens sooner with %s", suggest.Step{Name: "openTab", Value: suggest.Args{{Key: "url", Value: "<url>"}, {Key: "waitUntil", Value: "domcontentloaded"}}})
	}
	var be *browser.Error
	var ce *browser.ConnectionError
	switch {
	case errors.As(err, &ce):
		return &browser.ConnectionError{Endpoint: ce.Endpoint, Err: fmt.Errorf("%s, because %w", what, ce.Err)}
	case !errors.As(err, &be):
		return browser.Errorf(browser.KindExecution, "%s, because %v", what, err).WithAdvice(hint)
	}
	msg := be.Message
	if msg == "" && be.Err != nil {
		msg = be.Err.Error()
	}
	e := *be
	e.Message = fmt.Sprintf("%s, because %s", what, msg)
	return e.WithAdvice(hint)
}

func connectTab(c *Call) (any, error) {
	o := options[lang.ConnectTabOptions](c)
	ref, targetID, pattern := o.Tab, o.TargetID, o.URL
	var err error
	if c.Args.Pos != nil {
		if ref, err = posString(c, "a tab alias or target id"); err != nil {
			return nil, err
		}
	}
	switch {
	case ref != "":
	case targetID != "":
		ref = targetID
	case pattern != "":
		if ref, err = findTabByURL(c, pattern); err != nil {
			return nil, err
		}
	default:
		return nil, invalid(`connect_tab needs a tab alias ("t1"), target_id, or url (a regular expression)`)
	}
	if !state.IsAlias(ref) && o.Host != "" || o.Port != 0 || o.Endpoint != "" {
		ep, err := endpointArg(c)
		if err != nil {
			return nil, err
		}
		c.Env.Endpoint = ep
	}
	if err := c.Env.AttachTab(c.Ctx, ref); err != nil {
		return nil, err
	}
	p, _ := c.Env.Page()
	p.BringToFront(c.Ctx)
	info, err := p.Info(c.Ctx)
	if err != nil {
		return nil, err
	}
	tab := c.Env.Tab()
	return TabInfo{Tab: tab.Alias, TargetID: tab.TargetID, URL: info.URL, Title: info.Title}, nil
}

func findTabByURL(c *Call, pattern string) (string, error) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return "", invalid("url %q is not a valid regular expression: %v", pattern, err)
	}
	ep, err := endpointArg(c)
	if err != nil {
		return "", err
	}
	b, err := c.Env.Browser(c.Ctx, ep)
	if err != nil {
		return "", err
	}
	pages, err := b.Pages(c.Ctx)
	if err != nil {
		return "", err
	}
	var urls []string
	for _, p := range pages {
		if re.MatchString(p.URL) {
			return string(p.TargetID), nil
		}
		urls = append(urls, p.URL)
	}
	return "", &browser.ConnectionError{Endpoint: c.Env.Endpoint.String(),
		Err: noTabMatches{fmt.Sprintf("no open tab's URL matches /%s/ (open tabs: %v)", pattern, urls)}}
}

// noTabMatches is connectTab's error when no tab's URL matches: a
// CONNECTION error (spec §5), as a tab that is not found.
type noTabMatches struct{ msg string }

func (e noTabMatches) Error() string { return e.msg }

// Is makes it an ErrTabNotFound.
func (e noTabMatches) Is(target error) bool { return target == browser.ErrTabNotFound }

func closeTab(c *Call) (any, error) {
	ref := options[lang.CloseTabOptions](c).Tab
	var err error
	if c.Args.Pos != nil {
		if ref, err = posString(c, "a tab alias or target id"); err != nil {
			return nil, err
		}
		if strings.TrimSpace(ref) == "" {
			// An empty name is a mistake, not "this tab": closing the
			// command's own tab by accident loses the agent's work.
			return nil, invalid(`closeTab needs a tab alias ("t1") or target id, not an empty string; to close the command's own tab, give its alias (listTabs shows them)`)
		}
	}
	if ref == "" {
		if !c.Env.HasPage() {
			return nil, invalid(`close_tab needs a tab: give its alias ("t1") or set "tab" on the command`)
		}
		ref = c.Env.Tab().Alias
	}
	entry, err := c.Env.resolveTab(ref)
	if err != nil {
		return nil, err
	}
	ep := browser.EndpointOf(entry)
	if c.Env.HasPage() && c.Env.Tab().TargetID == entry.TargetID {
		c.Env.Detach()
	}
	// The HTTP endpoint needs no WebSocket; fall back to the protocol for
	// remote ws:// endpoints.
	err = chrome.Close(c.Ctx, ep, entry.TargetID)
	var b *browser.Browser
	if err != nil && ep.WebSocketURL() != "" {
		if b, err = c.Env.Browser(c.Ctx, ep); err == nil {
			err = b.CloseTab(c.Ctx, target.ID(entry.TargetID))
		}
	}
	alias := entry.Alias
	if alias == "" {
		alias = c.Env.Registry.AliasOf(entry.TargetID)
	}
	if err == nil {
		// Chrome closes a tab after it answers (its page unloads first):
		// the answer says closed only once the tab is gone, and a tab
		// still open keeps its alias for another try.
		force := func(ctx context.Context) {
			if b == nil {
				b, _ = c.Env.Browser(ctx, ep)
			}
			if b != nil {
				b.StopAndCloseTab(ctx, target.ID(entry.TargetID))
			}
		}
		if err := waitTabGone(c.Ctx, ep, b, entry.TargetID, force); err != nil {
			return map[string]any{"closed": false, "tab": alias, "targetId": entry.TargetID},
				browser.Errorf(browser.KindExecution, "close tab %s: %v", ref, err).
					WithAdvice(suggest.New("try %s again; %s shows the open tabs", suggest.Step{Name: "closeTab", Value: ref}, browser.ListTabs))
		}
	}
	if alias != "" {
		c.Env.Registry.Remove(context.WithoutCancel(c.Ctx), alias)
	}
	if err != nil {
		return nil, browser.Errorf(browser.KindExecution, "close tab %s: %v", ref, err).
			WithAdvice(suggest.New("it may already be closed; %s shows the open tabs", browser.ListTabs))
	}
	return map[string]any{"closed": true, "tab": alias, "targetId": entry.TargetID}, nil
}

// tabGoneWait bounds how long closeTab waits for Chrome to close a tab.
const tabGoneWait = 5 * time.Second

// waitTabGone waits until Chrome no longer lists the tab id (through the
// HTTP endpoint, or b when the endpoint has none), at most tabGoneWait;
// a tab still open after a second is closed again with force, each
// second (its page may cancel the close by navigating).
func waitTabGone(ctx context.Context, ep chrome.Endpoint, b *browser.Browser, id string, force func(context.Context)) error {
	ctx, cancel := context.WithTimeout(ctx, tabGoneWait)
	defer cancel()
	open := func() (bool, error) {
		lctx, cancel := context.WithTimeout(ctx, time.Second)
		defer cancel()
		if b != nil {
			pages, err := b.Pages(lctx)
			return slices.ContainsFunc(pages, func(p *target.Info) bool { return string(p.TargetID) == id }), err
		}
		list, err := chrome.List(lctx, ep)
		return slices.ContainsFunc(list, func(t chrome.TargetInfo) bool { return t.ID == id }), err
	}
	forceAt := time.Now().Add(time.Second)
	for {
		still, err := open()
		if err == nil && !still {
			return nil
		}
		if force != nil && time.Now().After(forceAt) {
			// Chrome answers a forced close of a page that is between
			// two of its own navigations and may still keep it: ask
			// again each second.
			force(ctx)
			forceAt = time.Now().Add(time.Second)
		}
		select {
		case <-ctx.Done():
			if err != nil {
				return fmt.Errorf("Chrome was asked to close it but could not be asked whether it did: %w", err)
			}
			return fmt.Errorf("Chrome was asked to close it, but it is still open after %s (its page may be busy unloading)", tabGoneWait)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func listTabs(c *Call) (any, error) {
	ep, err := endpointArg(c)
	if err != nil {
		return nil, err
	}
	var pages []*target.Info
	if ep.Remote() {
		b, err := c.Env.Browser(c.Ctx, ep)
		if err != nil {
			return nil, err
		}
		if pages, err = b.Pages(c.Ctx); err != nil {
			return nil, err
		}
	} else {
		list, err := chrome.List(c.Ctx, ep)
		if silentPort(err) {
			// Something took the connection and never answered: "no
			// tabs" would be a guess (a frozen Chrome has tabs).
			return nil, &browser.ConnectionError{Endpoint: ep.String(), Err: err}
		}
		if err != nil {
			note := fmt.Sprintf("no Chrome answers on %s; openTab launches one", ep)
			if errors.As(err, new(*chrome.NotDevToolsError)) {
				note = err.Error()
			}
			return map[string]any{"tabs": []TabInfo{}, "count": 0, "note": note}, nil
		}
		for _, t := range list {
			pages = append(pages, &target.Info{TargetID: target.ID(t.ID), URL: t.URL, Title: t.Title})
		}
	}
	tabs := tabInfos(c.Env.Registry, pages)
	out := map[string]any{"tabs": tabs, "count": len(tabs)}
	if note := tabsNote(c.Env.Registry, tabs); note != "" {
		out["note"] = note
	}
	return out, nil
}

// silentPort reports an error of a port that took the connection and
// never answered: not knowing what runs there, a command cannot say
// "no Chrome" or "no tabs".
func silentPort(err error) bool {
	var nd *chrome.NotDevToolsError
	return errors.As(err, &nd) && nd.Silent
}

// silentDevTools is the error of a browser connection whose first calls
// fail: a WebSocket that took the connection and does not answer CDP (or
// went away) is a CONNECTION error that says so.
func silentDevTools(ep chrome.Endpoint, method string, err error) error {
	if errors.Is(err, context.Canceled) {
		return err
	}
	return &browser.ConnectionError{Endpoint: ep.String(), Err: &chrome.NotDevToolsError{
		Endpoint: ep.String(),
		What:     fmt.Sprintf("its WebSocket took the connection but did not answer %s (%v)", method, err),
		Silent:   true,
	}}
}
