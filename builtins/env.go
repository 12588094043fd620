// Package builtins holds the Starlark builtins of cdp-skill, one file per
// family, and the argument unpacking they share (targets, predicates,
// durations). Each action builtin is a plain func over an Env; package runtime
// wraps it in the step lifecycle.
package builtins

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/chromedp/cdproto/target"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/browser/chrome"
	"github.com/cdp-skill/cdp-skill/browser/state"
	"github.com/cdp-skill/cdp-skill/browser/suggest"
)

// Env is the state of one invocation that builtins act on: the Chrome
// connections, the current tab and the tab registry.
type Env struct {
	// Registry maps tab aliases to targets.
	Registry *state.Registry
	// Endpoint is where new tabs open unless a step names another.
	Endpoint chrome.Endpoint
	// Headless asks for a headless launch.
	Headless bool
	// Chrome says which Chrome to launch and whether there is a display
	// (read from the environment by the runtime).
	Chrome chrome.Host
	// AllowDownloads lets pages download files (CDP_SKILL_DOWNLOADS=allow).
	AllowDownloads bool
	// OutputDir receives files the program writes (screenshots, PDFs); ""
	// is the working directory.
	OutputDir string
	// UploadDirs are the directories upload may read files from (nil: the
	// working directory only).
	UploadDirs []string
	// URLs says which local URLs (file:, chrome:, …) may be opened; the
	// zero policy allows none.
	URLs browser.URLPolicy
	// Strict turns off every automatic fallback of the actions: no
	// auto-force after the actionability timeout, no JavaScript click when
	// the mouse click missed, no value-setter retry of a fill.
	Strict bool
	// Started is when the program started: the console step reads only
	// messages from then on (each run starts empty, spec §11.14).
	Started time.Time
	// Pool, when set, provides connections and pages that outlive the
	// program (see Pool).
	Pool Pool
	// KeepEmulation keeps a kept page's viewport and geolocation for the
	// next program (the MCP server's calls share a session); otherwise they
	// end with the program, as they do on a connection of its own.
	KeepEmulation bool
	// KeepNetworkLog: the network step lists the tab's requests since its
	// last clear, not only this program's (the MCP server).
	KeepNetworkLog bool
	// AheadOfAttach, when set, is called with a kept page as AttachTab's
	// check that it is still there goes out (see Pool.Attach): the
	// program's first reads go with it.
	AheadOfAttach func(*browser.Page)

	browsers map[string]*browser.Browser
	page     *browser.Page
	tab      state.Tab
	// frame is the frame the command's frame steps selected (nil: the
	// top document); it lasts until the command ends.
	frame  *browser.Frame
	unlock func()
	// opened lists the targets this invocation created, for newTabs seams.
	opened []target.ID
	// warnings are notes from connecting (how Chrome was found) not yet
	// reported.
	warnings []string
	// atEnd run when the command's program has finished (see EndCommand).
	atEnd []func(ctx context.Context)
}

// AtEnd registers fn to run once the command's program has finished,
// before the answer is assembled: what a step set up for "the rest of the
// command" (routes, a HAR recording) ends there.
func (e *Env) AtEnd(fn func(ctx context.Context)) { e.atEnd = append(e.atEnd, fn) }

// EndCommand runs the AtEnd funcs, newest first, once.
func (e *Env) EndCommand(ctx context.Context) {
	fns := e.atEnd
	e.atEnd = nil
	for i := len(fns) - 1; i >= 0; i-- {
		fns[i](ctx)
	}
}

// Warn adds a note to the command's answer.
func (e *Env) Warn(msg string) { e.warnings = append(e.warnings, msg) }

// TakeWarnings returns the connection notes not yet reported and forgets
// them.
func (e *Env) TakeWarnings() []string {
	w := e.warnings
	e.warnings = nil
	return w
}

// NewEnv returns an Env with no tab attached.
func NewEnv(reg *state.Registry, ep chrome.Endpoint) *Env {
	return &Env{Registry: reg, Endpoint: ep.Normalize(), Started: time.Now(), browsers: map[string]*browser.Browser{}}
}

// ErrNoTab is returned when an action needs a tab and none is attached.
var ErrNoTab = browser.Errorf(browser.KindStepValidation, "no tab is open in this command").
	WithAdvice(suggest.New(`start with %s, or pass "tab": "t1" (--tab t1) to continue in an open tab`, suggest.Step{Name: "openTab", Value: "<url>"}))

// Page returns the current tab.
func (e *Env) Page() (*browser.Page, error) {
	if e.page == nil {
		return nil, ErrNoTab
	}
	return e.page, nil
}

// HasPage reports whether a tab is attached.
func (e *Env) HasPage() bool { return e.page != nil }

// Tab returns the registry entry of the current tab.
func (e *Env) Tab() state.Tab { return e.tab }

// Browser returns a connection to the Chrome at ep, connecting (and
// launching a local Chrome) on first use.
func (e *Env) Browser(ctx context.Context, ep chrome.Endpoint) (*browser.Browser, error) {
	ep = ep.Normalize()
	if b, ok := e.browsers[ep.String()]; ok {
		return b, nil
	}
	if e.Pool != nil {
		return e.Pool.Browser(ctx, ep, e.connectOptions(ep))
	}
	b, err := browser.Connect(ctx, ep, e.connectOptions(ep))
	if err != nil {
		return nil, err
	}
	e.warnings = append(e.warnings, b.Warnings...)
	e.browsers[ep.String()] = b
	return b, nil
}

// connectOptions are the options of a connection to ep: a local endpoint
// may launch Chrome.
func (e *Env) connectOptions(ep chrome.Endpoint) browser.ConnectOptions {
	return browser.ConnectOptions{AutoLaunch: ep.Local(), Headless: e.Headless, Chrome: e.Chrome, AllowDownloads: e.AllowDownloads}
}

// AttachTab makes the tab named by ref (alias or target id) current. The
// command starts in its top document: a frame step of an earlier command
// does not carry over (spec §19.12).
func (e *Env) AttachTab(ctx context.Context, ref string) error {
	entry, err := e.resolveTab(ref)
	if err != nil {
		return err
	}
	return e.attach(ctx, entry)
}

// Frame is the frame the command's frame steps selected in the current
// tab, which its steps run in (nil: the top document).
func (e *Env) Frame() *browser.Frame {
	if e.page == nil || !e.frame.Of(e.page) {
		return nil
	}
	return e.frame
}

// SelectFrame makes sel the frame the command's next steps run in (nil:
// the top document).
func (e *Env) SelectFrame(sel *browser.Frame) { e.frame = sel }

// resolveTab finds the registry entry of a tab alias or target id.
func (e *Env) resolveTab(ref string) (state.Tab, error) {
	return browser.ResolveTab(e.Registry, e.Endpoint, ref)
}

func (e *Env) attach(ctx context.Context, entry state.Tab) error {
	if e.page != nil && e.tab.TargetID == entry.TargetID {
		// Already attached (and holding the tab's lock): locking it again
		// would wait on this very process.
		return nil
	}
	ep := browser.EndpointOf(entry)
	b, err := e.Browser(ctx, ep)
	if err != nil {
		return err
	}
	unlock, err := browser.LockTab(ctx, entry.TargetID)
	if err != nil {
		return err
	}
	p, err := e.attachPage(ctx, b, target.ID(entry.TargetID))
	if err != nil {
		unlock()
		if errors.Is(err, browser.ErrTabNotFound) && entry.Alias != "" {
			e.Registry.Remove(ctx, entry.Alias)
			return &browser.ConnectionError{Endpoint: ep.String(), Err: &browser.TabGoneError{Alias: entry.Alias, TargetID: entry.TargetID}}
		}
		return &browser.ConnectionError{Endpoint: ep.String(), Err: err}
	}
	if entry.Alias == "" {
		alias, err := e.Registry.Register(ctx, entry)
		if err != nil {
			unlock()
			return err
		}
		entry.Alias = alias
	}
	e.releaseTab()
	p.SetURLPolicy(e.URLs)
	e.page, e.tab, e.unlock = p, entry, unlock
	return nil
}

// OpenTab creates a tab on ep, registers it and makes it current.
func (e *Env) OpenTab(ctx context.Context, ep chrome.Endpoint) (state.Tab, error) {
	b, err := e.Browser(ctx, ep)
	if err != nil {
		return state.Tab{}, err
	}
	id, err := b.NewTab(ctx)
	if err != nil {
		return state.Tab{}, &browser.ConnectionError{Endpoint: ep.String(), Err: err}
	}
	entry := browser.TabEntry(b.Endpoint, id)
	alias, err := e.Registry.Register(ctx, entry)
	if err != nil {
		e.discardTab(ctx, b, entry)
		return state.Tab{}, err
	}
	entry.Alias = alias
	if err := e.attach(ctx, entry); err != nil {
		e.discardTab(ctx, b, entry)
		return state.Tab{}, err
	}
	e.opened = append(e.opened, id)
	return e.tab, nil
}

// Discarded says what became of a tab a failed openTab created.
type Discarded int

const (
	// TabClosed: openTab closed the tab, and it is gone.
	TabClosed Discarded = iota
	// TabWasGone: the tab was closed already (by its page, the user or
	// another agent) when openTab came to close it.
	TabWasGone
	// TabStillOpen: the tab did not close; its alias is kept so that
	// closeTab can try again.
	TabStillOpen
)

// DiscardTab closes the current tab, which a failed openTab created, and
// removes its alias once it is gone: a failed openTab leaves no tab
// behind, or says that it did.
func (e *Env) DiscardTab(ctx context.Context) Discarded {
	if e.page == nil {
		return TabWasGone
	}
	entry := e.tab
	gone := e.page.TabClosed()
	b, err := e.Browser(ctx, browser.EndpointOf(entry))
	e.Detach()
	e.opened = slices.DeleteFunc(e.opened, func(id target.ID) bool { return string(id) == entry.TargetID })
	if err != nil {
		return TabStillOpen
	}
	d := e.discardTab(ctx, b, entry)
	if gone && d == TabClosed {
		d = TabWasGone
	}
	return d
}

// discardTab closes the tab of entry and waits until Chrome no longer
// lists it (closing it again with force when its page holds on); the
// alias goes only with the tab.
func (e *Env) discardTab(ctx context.Context, b *browser.Browser, entry state.Tab) Discarded {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), tabGoneWait+time.Second)
	defer cancel()
	id := target.ID(entry.TargetID)
	d := TabClosed
	if pages, err := b.Pages(cctx); err == nil && !slices.ContainsFunc(pages, func(p *target.Info) bool { return p.TargetID == id }) {
		d = TabWasGone
	} else {
		b.CloseTab(cctx, id)
		force := func(ctx context.Context) { b.StopAndCloseTab(ctx, id) }
		if waitTabGone(cctx, b.Endpoint, b, entry.TargetID, force) != nil {
			return TabStillOpen
		}
	}
	if entry.Alias == "" {
		entry.Alias = e.Registry.AliasOf(entry.TargetID)
	}
	if entry.Alias != "" {
		e.Registry.Remove(cctx, entry.Alias)
	}
	return d
}

// Detach forgets the current tab without closing it.
func (e *Env) Detach() {
	e.releaseTab()
	e.page, e.tab = nil, state.Tab{}
}

// parkBound bounds undoing a kept page's command-long emulations.
const parkBound = 5 * time.Second

func (e *Env) releaseTab() {
	if e.Pool != nil && e.page != nil {
		ctx, cancel := context.WithTimeout(context.Background(), parkBound)
		e.page.Park(ctx, e.KeepEmulation) // kept for the next program
		cancel()
	}
	if e.unlock != nil {
		e.unlock()
		e.unlock = nil
	}
}

// Close releases the tab lock and closes every connection. Chrome and its
// tabs keep running.
func (e *Env) Close() {
	e.releaseTab()
	for k, b := range e.browsers {
		b.Close()
		delete(e.browsers, k)
	}
}
