package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"time"

	"go.starlark.net/starlark"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/browser/state"
	"github.com/cdp-skill/cdp-skill/browser/suggest"
	"github.com/cdp-skill/cdp-skill/builtins"
)

// EnvCapture names the variable that sets the default capture for every
// command (a preset name or a JSON object, like the capture field).
const EnvCapture = "CDP_SKILL_CAPTURE"

// CaptureSettings say what a command's answer carries after visual steps
// (spec §14, §17.1). The default is everything the spec lists.
type CaptureSettings struct {
	Screenshot       bool `json:"screenshot"`
	ViewportSnapshot bool `json:"viewportSnapshot"`
	FullSnapshot     bool `json:"fullSnapshot"`
	Diff             bool `json:"diff"`
	Console          bool `json:"console"`
	// Brief trims the context to what an agent acts on: the focused
	// element by ref, role and name, without the viewport's size (the
	// compact and minimal presets).
	Brief bool `json:"-"`
}

// capturePresets are the named settings.
var capturePresets = map[string]CaptureSettings{
	"full":    {Screenshot: true, ViewportSnapshot: true, FullSnapshot: true, Diff: true, Console: true},
	"compact": {ViewportSnapshot: true, Diff: true, Console: true, Brief: true},
	"minimal": {Diff: true, Console: true, Brief: true},
	"none":    {},
}

// viewportInlineLimit bounds the inline viewport snapshot; beyond it the
// answer says truncated and the full snapshot file has everything.
const viewportInlineLimit = 8000

// defaultCapture reads CDP_SKILL_CAPTURE (v), falling back to the full
// preset.
func defaultCapture(v string) CaptureSettings {
	c := capturePresets["full"]
	if v != "" {
		if p, ok := capturePresets[v]; ok {
			return p
		}
		json.Unmarshal([]byte(v), &c)
	}
	return c
}

// setCapture applies configure(capture = …): a preset name or a dict of
// the settings (missing keys keep their current value).
func (h *host) setCapture(v starlark.Value) error {
	var data any
	if s, ok := starlark.AsString(v); ok {
		data = s
	} else {
		var err error
		if data, err = builtins.FromStarlark(v); err != nil {
			return fmt.Errorf("capture: %w", err)
		}
	}
	set, err := applyCapture(h.captureSet, data)
	if err != nil {
		return err
	}
	h.captureSet = set
	h.captureAsked = true
	return nil
}

// applyCapture returns base changed by a capture setting as a JSON
// command gives it: a preset name, or an object of settings (missing keys
// keep base's value).
func applyCapture(base CaptureSettings, v any) (CaptureSettings, error) {
	if s, ok := v.(string); ok {
		p, found := capturePresets[s]
		if !found {
			return base, fmt.Errorf("capture preset %q is not one of full, compact, minimal, none", s)
		}
		return p, nil
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return base, fmt.Errorf("capture: %w", err)
	}
	var keys map[string]any
	if err := json.Unmarshal(raw, &keys); err != nil {
		return base, fmt.Errorf("capture must be a preset name or an object of settings")
	}
	set := base
	for k, val := range keys {
		if k == "preset" {
			p, found := capturePresets[fmt.Sprint(val)]
			if !found {
				return base, fmt.Errorf("capture preset %v is not one of full, compact, minimal, none", val)
			}
			set = p
			continue
		}
		if _, isBool := val.(bool); !isBool {
			return base, fmt.Errorf("capture.%s must be true or false", k)
		}
		switch k {
		case "screenshot", "viewportSnapshot", "fullSnapshot", "diff", "console":
		default:
			return base, fmt.Errorf("capture has no setting %q; settings: screenshot, viewportSnapshot, fullSnapshot, diff, console, preset", k)
		}
	}
	if err := json.Unmarshal(raw, &set); err != nil {
		return base, fmt.Errorf("capture: %w", err)
	}
	return set, nil
}

// captureOptions are what the capture after the command reads.
func (h *host) captureOptions() browser.CaptureOptions {
	set := h.captureSet
	opts := browser.CaptureOptions{}
	if h.visual {
		opts.Viewport = set.ViewportSnapshot || set.Diff
		opts.Full = set.FullSnapshot
		opts.Scope = true
		opts.Hovered = h.lastVisual != nil && h.lastVisual.action == "hover"
		for _, e := range h.before {
			opts.Present = append(opts.Present, e.Ref)
		}
	}
	return opts
}

// captureAhead asks the page to take the capture after the command as
// the command's one step settles (browser.Page.CaptureAhead): nothing
// else runs between them, so it is the same capture, one round trip
// sooner. Hooks that run after the action rule it out.
func (h *host) captureAhead(p *browser.Page, la lifecycleArgs) {
	if !h.prog.OneStep || la.hooks.settled != nil || la.hooks.observe != nil {
		return
	}
	if opts := h.captureOptions(); opts.Viewport || opts.Full {
		p.CaptureAhead(h.captureOptions)
	}
}

// capture adds the page state after the command: context always; after
// visual steps, the viewport snapshot, the diff, the full snapshot file,
// the screenshot and the console (as the settings allow). Nothing here can
// fail the command.
func (h *host) capture(out *Output) {
	out.Warnings = append(out.Warnings, h.env.TakeWarnings()...)
	p, err := h.env.Page()
	if err != nil {
		return
	}
	out.Warnings = append(out.Warnings, p.Warnings...)
	out.Warnings = append(out.Warnings, p.TakeRefusedLoads()...)
	ctx, cancel := context.WithTimeout(context.WithoutCancel(h.ctx), captureWait)
	defer cancel()
	out.Downloads = p.Downloads().List(ctx, h.downloadsFrom, h.env.OutputDir)
	set := h.captureSet
	opts := h.captureOptions()
	// The screenshot waits for a frame the page paints: a page that never
	// paints (it navigates again first) would hold it to the bound.
	shotCtx, stopShot := context.WithCancel(ctx)
	defer stopShot()
	shot := make(chan string, 1)
	switch {
	case !h.visual || !set.Screenshot:
		shot <- ""
	case h.opts.DeferScreenshot:
		// Whether the last screenshot can be reused is decided after
		// the answer too: the visual key costs a round trip.
		shot <- h.deferScreenshot(p)
	default:
		key, path, reuse := h.lastScreenshot(ctx, p)
		if reuse {
			shot <- path
			break
		}
		go func() { shot <- h.screenshot(shotCtx, p, key) }()
	}
	c, err := h.postCapture(ctx, p, opts)
	if err != nil {
		stopShot()
		<-shot
		h.noteLostTab(ctx, p, out)
		h.noteUnreadPage(ctx, p, out, err)
		return
	}
	pc := c.Context
	out.Context = &PageContext{URL: clipContext(pc.URL, maxContextURL, "URL", "location.href"), Title: clipContext(pc.Title, maxContextTitle, "title", "document.title"), Scroll: pc.Scroll, Viewport: pc.Viewport}
	if pc.ActiveElement != nil {
		out.Context.ActiveElement = pc.ActiveElement
	}
	if pc.Modal != nil {
		out.Context.Modal = pc.Modal
	}
	out.Navigated = browser.Navigated(h.urlBefore, pc.URL) || h.stepNavigated
	if note, shown := h.treeShown(); shown && c.Viewport != nil && set.ViewportSnapshot {
		out.ViewportSnap = note
	} else if c.Viewport != nil && set.ViewportSnapshot {
		out.ViewportSnap = c.Viewport.YAML
		if len(out.ViewportSnap) > viewportInlineLimit {
			out.ViewportSnap = builtins.CutAtLine(out.ViewportSnap, viewportInlineLimit)
			out.Truncated = true
		}
	}
	dropEchoedNavigation(out)
	if set.Brief {
		out.Context.ActiveElement = briefActive(pc.ActiveElement)
		out.Context.Viewport = nil
	}
	// A diff compares one page with itself: not across a navigation or a
	// reload (another document), nor across tabs (a command that switched
	// tabs after its first action).
	sameDoc := h.beforeDoc == 0 || pc.Doc == 0 || pc.Doc == h.beforeDoc
	if h.visualSteps > 1 && set.Diff {
		out.Changes = h.commandChanges(c, sameDoc && !browser.Navigated(h.beforeURL, pc.URL) && h.beforeTab == h.env.Tab().TargetID)
	} else if c.Viewport != nil && set.Diff && h.before != nil && sameDoc && !browser.Navigated(h.beforeURL, pc.URL) && h.beforeTab == h.env.Tab().TargetID {
		out.Changes = diffElements(h.before, c.Viewport.Elements, h.verb, refSet(c.Fresh, c.Fresh == nil), refSet(c.Present, false))
		out.Changes = withText(out.Changes, c.Text, c.Transient, h.verb)
		out.Changes = withFrames(out.Changes, h.framesNavigated, h.verb)
	} else if c.Viewport != nil && set.Diff && h.before != nil && !sameDoc && !browser.Navigated(h.beforeURL, pc.URL) && h.beforeTab == h.env.Tab().TargetID && !(h.visualSteps == 1 && h.verb == "Navigated" && out.Navigated) {
		// Same URL, another document: no diff, but the agent is told why
		// (not after the goto it asked for: navigated says it all).
		out.Changes = &Changes{Summary: reloadedSummary(h.verb)}
	}
	if c.Full != nil {
		full, cut := capSpill([]byte(c.Full.YAML))
		if path, err := h.spill("snapshots", "after.yaml", full); err == nil {
			out.FullSnapshot = path
			if cut != "" {
				out.Warnings = append(out.Warnings, "full snapshot: "+cut)
			}
		}
	}
	if set.Console {
		out.FailedReqs = failedRequests(p.Network().Failed(ctx, h.start))
		out.Console = consoleSummary(withoutFailedLoads(p.Console().Since(h.start), out.FailedReqs))
	}
	out.Screenshot = <-shot
	sayOnce(out)
	h.nameOnce(out)
}

// reloadedSummary is the changes' summary of a command after which the tab
// shows a new document at the same URL (the page reloaded).
func reloadedSummary(verb string) string {
	const fresh = "everything on it is new, and refs from before no longer work."
	switch verb {
	case "Reloaded":
		return "Reloaded: a new document, so " + fresh
	case "":
		return "The page reloaded (same URL, a new document): " + fresh
	}
	return verb + ". The page reloaded (same URL, a new document): " + fresh
}

// lastScreenshot returns the page's visual key and, when the tab's
// screenshot was taken under the same key (nothing visual changed since),
// its path: it is reused rather than taken again.
func (h *host) lastScreenshot(ctx context.Context, p *browser.Page) (key, path string, reuse bool) {
	key, _ = p.VisualKey(ctx)
	if key == "" {
		return "", "", false
	}
	root, err := state.OpenRoot()
	if err != nil {
		return key, "", false
	}
	defer root.Close()
	name := filepath.Join("screenshots", h.tabName()+".after.png")
	last, err := root.ReadFile(name + ".key")
	if err != nil || string(last) != key {
		return key, "", false
	}
	if st, err := root.Lstat(name); err != nil || !st.Mode().IsRegular() || st.Size() == 0 {
		return key, "", false
	}
	path, err = filepath.Abs(filepath.Join(state.Dir(), name))
	return key, path, err == nil
}

// deferScreenshot names the tab's screenshot file for the answer, moves
// the previous command's aside with its visual key (so nobody reads it as
// this one's) and leaves the rest to Output.Finish: when the page's visual
// key is still the one the previous screenshot was taken under, that file
// is put back; otherwise a new one is taken.
func (h *host) deferScreenshot(p *browser.Page) string {
	name := filepath.Join("screenshots", h.tabName()+".after.png")
	prev := name + ".prev"
	root, err := state.OpenRoot()
	if err != nil {
		return ""
	}
	lastKey, _ := root.ReadFile(name + ".key")
	root.Remove(name + ".key")
	root.Remove(prev)
	if root.Rename(name, prev) != nil {
		lastKey = nil
	}
	root.Close()
	path, err := filepath.Abs(filepath.Join(state.Dir(), name))
	if err != nil {
		return ""
	}
	h.deferredShot = func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		key, _ := p.VisualKey(ctx)
		if key != "" && key == string(lastKey) && putBack(prev, name, key) {
			return
		}
		if root, err := state.OpenRoot(); err == nil {
			root.Remove(prev)
			root.Close()
		}
		h.screenshot(ctx, p, key)
	}
	return path
}

// captureWait bounds the capture after a command.
const captureWait = 10 * time.Second

// captureTries bounds how often the capture reads a page whose document
// changed while it was read; captureRetryAfter spaces the tries.
const (
	captureTries      = 3
	captureRetryAfter = 100 * time.Millisecond
)

// postCapture reads the page after the command, again when the document
// went away while it was read (a redirect by script, a page that
// navigates in a loop): the next document is the page's state.
func (h *host) postCapture(ctx context.Context, p *browser.Page, opts browser.CaptureOptions) (*browser.Capture, error) {
	var (
		c   *browser.Capture
		err error
	)
	for range captureTries {
		if c, err = p.PostCapture(ctx, opts); err == nil || browser.KindOf(err) != browser.KindContextDestroyed || p.TabClosed() {
			return c, err
		}
		if browser.Sleep(ctx, captureRetryAfter) != nil {
			break
		}
	}
	return nil, err
}

// noteUnreadPage gives an answer whose capture failed on a tab that is
// still open and alive the tab's URL and title from the browser's record,
// and says why it has no snapshot or screenshot: the page's documents
// kept going away while they were read, or the page did not answer.
func (h *host) noteUnreadPage(ctx context.Context, p *browser.Page, out *Output, err error) {
	kind := browser.KindOf(err)
	if p.TabClosed() || p.Session().Crashed() || kind != browser.KindContextDestroyed && kind != browser.KindTimeout {
		return
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	if r, rerr := p.TabRecord(rctx); rerr == nil {
		out.Context = &PageContext{URL: clipContext(r.URL, maxContextURL, "URL", "location.href"), Title: clipContext(r.Title, maxContextTitle, "title", "document.title")}
	}
	why := "the page did not answer while its state was read (" + captureWait.String() + "): it may be busy or navigating"
	if kind == browser.KindContextDestroyed {
		why = "the page replaced its document each time its state was read (" + strconv.Itoa(captureTries) + " tries): it may redirect by script or navigate in a loop"
	}
	out.Warnings = append(out.Warnings, suggest.New(why+"; the context is the browser's record of the tab, with no snapshot or screenshot. "+
		"Run %s once it has settled; if it keeps navigating, leave it with %s or close it with %s",
		suggest.Step{Name: "snapshot", Value: true}, suggest.Step{Name: "goto", Value: "<url>"}, suggest.Step{Name: "closeTab", Value: out.Tab}).Render(h.syntax()))
}

// putBack moves the screenshot set aside at prev back to name, with its
// visual key, when it is a non-empty regular file.
func putBack(prev, name, key string) bool {
	root, err := state.OpenRoot()
	if err != nil {
		return false
	}
	defer root.Close()
	if st, err := root.Lstat(prev); err != nil || !st.Mode().IsRegular() || st.Size() == 0 {
		return false
	}
	if _, err := state.WriteFile([]byte(key), name+".key"); err != nil {
		return false
	}
	if root.Rename(prev, name) != nil {
		root.Remove(name + ".key")
		return false
	}
	return true
}

// screenshot captures the viewport as the tab's screenshot and remembers
// the visual key it was taken under.
func (h *host) screenshot(ctx context.Context, p *browser.Page, key string) string {
	name := h.tabName() + ".after.png"
	if root, err := state.OpenRoot(); err == nil {
		root.Remove(filepath.Join("screenshots", name+".key"))
		root.Close()
	}
	data, err := p.Camera().Image(ctx, browser.ScreenshotOptions{})
	if err != nil {
		return ""
	}
	path, err := state.WriteFile(data, "screenshots", name)
	if err != nil {
		return ""
	}
	if key != "" {
		state.WriteFile([]byte(key), "screenshots", name+".key")
	}
	return path
}

// spill writes a payload to the state dir as <kind>/<tab>.<name>, over
// the one the tab's last command wrote.
func (h *host) spill(kind, name string, data []byte) (string, error) {
	return state.OverwriteFile(data, kind, h.tabName()+"."+name)
}

func (h *host) tabName() string {
	if t := h.env.Tab().Alias; t != "" {
		return t
	}
	return "tab"
}

// ConsoleReport is the console part of an answer: errors and warnings of
// the command, deduplicated.
type ConsoleReport struct {
	Errors   int            `json:"errors,omitempty"`
	Warnings int            `json:"warnings,omitempty"`
	Messages []ConsoleEntry `json:"messages"`
}

// ConsoleEntry is one distinct message.
type ConsoleEntry struct {
	Level string `json:"level"`
	Text  string `json:"text"`
	URL   string `json:"url,omitempty"`
	Line  int64  `json:"line,omitempty"`
	Count int    `json:"count,omitempty"`
}

const maxConsoleEntries = 20

func consoleSummary(msgs []browser.ConsoleMessage) *ConsoleReport {
	r := &ConsoleReport{}
	index := map[string]int{}
	for _, m := range msgs {
		if m.Level != "error" && m.Level != "warning" {
			continue
		}
		if m.Level == "error" {
			r.Errors++
		} else {
			r.Warnings++
		}
		key := m.Level + "\x00" + m.Text
		if i, ok := index[key]; ok {
			if r.Messages[i].Count == 0 {
				r.Messages[i].Count = 1
			}
			r.Messages[i].Count++
			continue
		}
		if len(r.Messages) >= maxConsoleEntries {
			continue
		}
		index[key] = len(r.Messages)
		r.Messages = append(r.Messages, ConsoleEntry{Level: m.Level, Text: m.Text, URL: m.URL, Line: m.Line})
	}
	if len(r.Messages) == 0 {
		return nil
	}
	return r
}

// refSet makes a set of refs; nil when unknown says so.
func refSet(refs []string, unknown bool) map[string]bool {
	if unknown {
		return nil
	}
	m := make(map[string]bool, len(refs))
	for _, r := range refs {
		m[r] = true
	}
	return m
}

// briefActive shortens the focused element's description in a brief
// capture (the compact and minimal presets): the answer names it by ref
// and says whether it takes typing. The default capture keeps the spec's
// fields (§14.4: tag, selector, box, and a field's type, value and
// placeholder) even when the viewport snapshot shows its line.
func briefActive(a map[string]any) any {
	if a == nil {
		return nil
	}
	ref, _ := a["ref"].(string)
	if ref == "" {
		return a
	}
	out := map[string]any{"ref": ref}
	for _, k := range []string{"role", "name", "editable"} {
		if v, ok := a[k]; ok {
			out[k] = v
		}
	}
	return out
}

// navSteps are the steps whose output is where the navigation went.
var navSteps = map[string]bool{"goto": true, "reload": true, "back": true, "forward": true}

// dropEchoedNavigation leaves out a navigation step's output (url and
// title) when the answer's context says the same: the page is there.
func dropEchoedNavigation(out *Output) {
	c := out.Context
	if c == nil {
		return
	}
	for _, st := range out.Steps {
		nav, ok := st.Output.(*browser.NavResult)
		if navSteps[st.Action] && st.Status == StatusOK && ok && nav != nil && nav.URL == c.URL && nav.Title == c.Title {
			st.Output = nil
		}
	}
}
