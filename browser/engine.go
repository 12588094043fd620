package browser

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/cdp-skill/cdp-skill/browser/state"
)

// The in-page engine is ES modules in inpage (one concern each, each
// importing what it uses), bundled by esbuild at go generate time into
// the scripts in inpage/bundle: the engine, the page world's serializer
// and the action watch. Each bundle's entry module (inpage/engine.js,
// page.js, watch.js) exports its surface; engine_entry_gen.go names each
// entry point and gives the bundles' versions, so nothing is bundled or
// hashed when cdp-skill runs. TestEngineBundlesUpToDate fails when the
// committed files are stale.
//
//go:generate go run ./internal/jsbundle/gen

var (
	//go:embed inpage/bundle/engine.js
	engineBundleJS string
	//go:embed inpage/bundle/page.js
	pageBundleJS string
	//go:embed inpage/bundle/watch.js
	watchBundleJS string
	//go:embed inpage/bundle/pipeline.js
	pipelineBundleJS string
)

// bundle is a script installed in a page: it defines the global object
// global, tagged with a version hash, unless that version is there.
type bundle struct {
	global  string
	source  string
	version string
}

// engineEntry, pageEntry and watchEntry are entry points of the engine,
// the page world's serializer and the action watch (generated in
// engine_entry_gen.go): engineCall and watchCall take only their own
// bundle's, the serializer's name the methods of its function literal
// (pagechannel.go), and a string is none of them, so a misspelled entry
// point does not compile.
type (
	engineEntry   struct{ name string }
	pageEntry     struct{ name string }
	watchEntry    struct{ name string }
	pipelineEntry struct{ name string }
)

// js is the entry point in JavaScript sent to the engine's world.
func (e engineEntry) js() string { return "window.__cdpSkill." + e.name }

func engineBundle() bundle { return engineBundleSpec }
func watchBundle() bundle  { return watchBundleSpec }
func pageBundle() bundle   { return pageBundleSpec }

// pipelineBundle is the function literal of the pipeline's surface.
func pipelineBundle() bundle { return pipelineBundleSpec }

// engineSource is the engine's installing script.
func engineSource() string { return engineBundle().source }

// engineVersion is the hash that tells an installed engine of this build.
func engineVersion() string { return engineBundle().version }

const engineMissing = "__cdpSkill_missing__"

// engineGuarded is the JavaScript that runs call when this build's engine
// is installed in the world it runs in, and answers otherwise (a
// JavaScript expression) when not.
func engineGuarded(call, otherwise string) string {
	return "(window.__cdpSkill && window.__cdpSkill.version === " + jsString(engineVersion()) + ") ? " + call + " : " + otherwise
}

// engineCall calls a method of the in-page engine in its isolated world
// (world.go), installing the engine in the current frame's document first
// when it is missing (one round trip in the common case). Arguments and
// result go as JSON.
func (p *Page) engineCall(ctx context.Context, out any, ep engineEntry, args ...any) error {
	expr, err := engineCallExpr(ep, args)
	if err != nil {
		return err
	}
	raw, err := p.engineEval(ctx, expr)
	if err != nil {
		return p.frameGone(ctx, engineError(ep.name, err))
	}
	if string(raw) == `"`+engineMissing+`"` {
		if err := p.installEngine(ctx); err != nil {
			return fmt.Errorf("install the engine: %w", err)
		}
		if raw, err = p.engineEval(ctx, expr); err != nil {
			return engineError(ep.name, err)
		}
		if string(raw) == `"`+engineMissing+`"` {
			return documentChanged(ep.name)
		}
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("engine %s: decode result: %w", ep.name, err)
	}
	return nil
}

// engineCallExpr is the JavaScript that calls ep with args (each sent as
// JSON) when this build's engine is installed, and answers engineMissing
// when not.
func engineCallExpr(ep engineEntry, args []any) (string, error) {
	argList := make([]string, len(args))
	for i, a := range args {
		data, err := json.Marshal(a)
		if err != nil {
			return "", fmt.Errorf("engine %s: encode argument: %w", ep.name, err)
		}
		argList[i] = string(data)
	}
	return engineGuarded(ep.js()+"("+strings.Join(argList, ",")+")", jsString(engineMissing)), nil
}

// installEngine installs the engine in the current frame's document and
// gives it a snapshot number of its own: refs the engine hands out before
// any snapshot (an error's list of visible buttons, ambiguous candidates)
// then never repeat the refs of the tab's earlier documents.
func (p *Page) installEngine(ctx context.Context) error {
	seq := p.seqForSnapshot(ctx)
	_, err := p.engineEval(ctx, engineSource()+fmt.Sprintf(";\n%s(%d, %d)", epSeedSeq.js(), seq.Snap+1, seq.Elem))
	if err == nil {
		p.storeSeq(&seqJSON{Snap: seq.Snap + 1, Elem: seq.Elem})
	}
	return err
}

// documentChanged is the error of a call that found no engine in the
// document right after installing it: the document changed in between
// (the page or frame navigated), as when its context is destroyed, and a
// wait for the page tries again in the new one.
func documentChanged(method string) error {
	return Errorf(KindContextDestroyed, "engine %s: the document changed while the engine was installed in it (the page or frame navigated)", method)
}

// Engine error codes: the engine throws errors named cdpSkill.<code>
// (dom.js fail), each one kind of ours.
var engineErrorKinds = map[string]Kind{
	"selector":  KindSelector,
	"not-found": KindElementNotFound,
	"stale":     KindStaleElement,
	"input":     KindStepValidation,
}

// engineErrorCode matches the text of an exception the engine threw with
// fail: "cdpSkill.<code>: <message>".
var engineErrorCode = lazyRegexp(`^(?:Uncaught )?cdpSkill\.([a-z-]+): `)

// engineError turns an exception thrown by the engine into our typed error
// by its code; a native exception the engine did not expect is a
// JavaScript error.
func engineError(method string, err error) error {
	js, ok := err.(*JSError)
	if !ok {
		return err
	}
	if m := engineErrorCode().FindStringSubmatch(js.Text); m != nil {
		msg := js.Text[len(m[0]):]
		e := Errorf(engineErrorKinds[m[1]], "%s", msg)
		switch m[1] {
		case "selector":
			e.WithHint("fix the selector, or target the element by ref or text")
		case "stale":
			e.WithHint("take a new snapshot and use its refs")
		}
		if _, known := engineErrorKinds[m[1]]; !known {
			e = Errorf(KindJavaScript, "page engine %s failed: %s", method, msg)
		}
		return e
	}
	msg := strings.TrimPrefix(js.Text, "Error: ")
	if strings.HasPrefix(msg, "SyntaxError") {
		return Errorf(KindSelector, "%s", msg).WithHint("fix the selector, or target the element by ref or text")
	}
	return Errorf(KindJavaScript, "page engine %s failed: %s", method, msg)
}

// seq returns the tab's ref counters, loading them on first use.
func (p *Page) seq() state.TabState {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.seqLoaded {
		p.seqState, _ = state.LoadTabState(string(p.TargetID))
		p.seqLoaded = true
	}
	return p.seqState
}

// saveSeq persists counters the engine advanced.
func (p *Page) saveSeq(s state.TabState) {
	p.mu.Lock()
	changed := s.SnapSeq != p.seqState.SnapSeq || s.ElemSeq != p.seqState.ElemSeq || len(s.Snaps) != len(p.seqState.Snaps)
	if changed {
		p.seqState = s
	}
	p.mu.Unlock()
	if changed {
		state.SaveTabState(string(p.TargetID), s)
	}
}

// ownSnapshot reserves a snapshot number no other tab has and records it
// as the tab's: the number refs made now carry.
func (p *Page) ownSnapshot(ctx context.Context) (state.TabState, error) {
	s := p.seq()
	n, err := state.ReserveSnapshot(ctx, s.SnapSeq)
	if err != nil {
		return s, err
	}
	s.Snaps = slices.Clone(s.Snaps)
	s.Own(n)
	s.SnapSeq = n
	return s, nil
}

// seqForRefs returns the counters for an engine call that may hand out
// refs; a tab that never had a snapshot number gets one first.
func (p *Page) seqForRefs(ctx context.Context) seqJSON {
	s := p.seq()
	if s.SnapSeq == 0 {
		if own, err := p.ownSnapshot(ctx); err == nil {
			p.saveSeq(own)
			s = own
		}
	}
	return seqJSON{Snap: s.SnapSeq, Elem: s.ElemSeq}
}

// seqForSnapshot returns the counters for a snapshot that takes a new
// number: the engine adds one to Snap, giving the reserved number.
func (p *Page) seqForSnapshot(ctx context.Context) seqJSON {
	s := p.seq()
	if own, err := p.ownSnapshot(ctx); err == nil {
		p.mu.Lock()
		p.seqState.Snaps = own.Snaps
		p.mu.Unlock()
		return seqJSON{Snap: own.SnapSeq - 1, Elem: s.ElemSeq}
	}
	return seqJSON{Snap: s.SnapSeq, Elem: s.ElemSeq}
}

// seqJSON is the engine's view of the counters.
type seqJSON struct {
	Snap int `json:"snap"`
	Elem int `json:"elem"`
}

// seqArg returns the counters for an engine call that may hand out refs
// (see seqForRefs).
func (p *Page) seqArg() seqJSON { return p.seqForRefs(context.Background()) }

func (p *Page) storeSeq(s *seqJSON) {
	if s != nil {
		cur := p.seq()
		p.saveSeq(state.TabState{SnapSeq: max(s.Snap, cur.SnapSeq), ElemSeq: max(s.Elem, cur.ElemSeq), Snaps: cur.Snaps})
	}
}

// snapshotSeq returns the counters for a snapshot: a new number unless it
// is internal (internal snapshots keep the current one).
func (p *Page) snapshotSeq(ctx context.Context, o SnapshotOptions) seqJSON {
	if o.Internal {
		return p.seqForRefs(ctx)
	}
	return p.seqForSnapshot(ctx)
}
