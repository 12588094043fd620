package browser

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/runtime"
)

// FrameSpec names the frame to switch to (spec §13.2).
type FrameSpec struct {
	// Selector is the iframe element's ref (from any frame) or CSS selector
	// (in the current frame).
	Selector string
	Index    *int
	Name     string
	FrameID  string
	// URL is a substring of the frame's URL (any frame of the page).
	URL string
	// Any is tried as a ref or CSS selector, then as a child frame's name,
	// then as a URL substring (the bare string form of the frame step).
	Any string
	Top bool
}

// Resolve finds the frame spec names, from the frame the running step is
// in: a child of it (by CSS selector, index or name), the frame of an
// iframe's ref, or any frame of the page (by id or URL). It returns the
// frame as a value (nil: the top document) and leaves the page where it
// is; the runtime keeps the value for the rest of its command and hands it
// to the page at every step (Frames.Enter).
func (fs *Frames) Resolve(ctx context.Context, spec FrameSpec) (*Frame, *FrameInfo, []string, error) {
	ref, info, warnings, err := fs.resolve(ctx, spec)
	if err != nil {
		return nil, nil, nil, err
	}
	var sel *Frame
	if ref != nil {
		sel = &Frame{p: fs.p, ref: ref}
	}
	return sel, info, warnings, nil
}

// Switch moves the step of ctx into the frame spec names (see Resolve):
// the rest of the step acts there. It is for callers that drive a Page
// without the runtime (which resolves a frame step's frame as a value and
// starts each step in it), and it needs a context that carries a step
// (Frames.Enter or WithFrame): the page itself holds no frame.
func (fs *Frames) Switch(ctx context.Context, spec FrameSpec) (*FrameInfo, []string, error) {
	if stepFrameOf(ctx) == nil {
		return nil, nil, Errorf(KindStepValidation, "frame switch outside a step: the page holds no frame").
			WithHint("run it in a step's context (Frames.Enter or WithFrame), or resolve the frame with Frames.Resolve and start the steps in it")
	}
	ref, info, warnings, err := fs.resolve(ctx, spec)
	if err != nil {
		return nil, nil, err
	}
	s := stepFrameOf(ctx)
	s.mu.Lock()
	s.frame, s.home = ref, ref
	s.mu.Unlock()
	return info, warnings, nil
}

// resolve finds the frame spec names (nil: the top document).
func (fs *Frames) resolve(ctx context.Context, spec FrameSpec) (*frameRef, *FrameInfo, []string, error) {
	// An iframe's ref moves the lookup into the frame it was taken in (the
	// new frame's parent); the caller's step stays where it is.
	ctx = inFrame(ctx, fs.p.frameIn(ctx))
	if spec.Any != "" {
		return fs.resolveAny(ctx, spec.Any)
	}
	if spec.FrameID != "" || spec.URL != "" {
		return fs.resolveAnywhere(ctx, spec)
	}
	if spec.Name != "" {
		// A child frame's name, or else any frame's.
		ref, info, w, err := fs.resolveHere(ctx, spec)
		if KindOf(err) == KindElementNotFound {
			if ref, info, w, err2 := fs.resolveAnywhere(ctx, spec); err2 == nil {
				return ref, info, w, nil
			}
		}
		return ref, info, w, err
	}
	return fs.resolveHere(ctx, spec)
}

// resolveHere finds a child frame of the current frame, or the top
// document.
func (fs *Frames) resolveHere(ctx context.Context, spec FrameSpec) (*frameRef, *FrameInfo, []string, error) {
	p := fs.p
	if spec.Top {
		u, _ := p.URL(ctx)
		return nil, &FrameInfo{FrameID: string(p.TargetID), URL: u}, nil, nil
	}
	id, err := fs.resolveID(ctx, spec)
	if err != nil {
		return nil, nil, nil, err
	}
	ref, err := p.frameRefFor(ctx, id)
	if err != nil {
		return nil, nil, nil, err
	}
	ref.topDocuments = p.Documents()
	ref.parent = p.frameIn(ctx)
	u, _ := p.urlIn(ctx, ref)
	ref.url = u
	var warnings []string
	top, _ := p.URL(ctx)
	if originOf(u) != originOf(top) {
		warnings = append(warnings, fmt.Sprintf("the frame is cross-origin (%s): actions run inside it through its own context", originOf(u)))
	}
	parentID := string(p.TargetID)
	if ref.parent != nil {
		parentID = string(ref.parent.id)
	}
	return ref, &FrameInfo{FrameID: string(id), URL: u, ParentID: parentID, Depth: ref.depth(), CrossOrigin: originOf(u) != originOf(top), OutOfProcess: ref.oopif}, warnings, nil
}

// urlIn reads the URL of the document in frame f.
func (p *Page) urlIn(ctx context.Context, f *frameRef) (string, error) {
	params := runtime.EvaluateParams{Expression: "location.href", ContextID: f.ctxID, ReturnByValue: ptr(true)}
	raw, err := evaluate(ctx, f.sess, params, "location.href")
	if err != nil {
		return "", err
	}
	var u string
	err = jsonUnmarshal(raw, &u)
	return u, err
}

func originOf(u string) string {
	pu, err := url.Parse(u)
	if err != nil || pu.Host == "" {
		return u
	}
	return pu.Scheme + "://" + pu.Host
}

// resolveAny tries s as a ref or selector, a name, then a URL substring;
// when none names a frame, the error says what was tried.
func (fs *Frames) resolveAny(ctx context.Context, s string) (*frameRef, *FrameInfo, []string, error) {
	ref, info, w, err := fs.resolve(ctx, FrameSpec{Selector: s})
	if err == nil || IsRef(s) || (KindOf(err) != KindElementNotFound && KindOf(err) != KindSelector) {
		return ref, info, w, err
	}
	if ref, info, w, err2 := fs.resolve(ctx, FrameSpec{Name: s}); err2 == nil {
		return ref, info, w, nil
	}
	if ref, info, w, err2 := fs.resolve(ctx, FrameSpec{URL: s}); err2 == nil {
		return ref, info, w, nil
	}
	return nil, nil, nil, Errorf(KindElementNotFound, "no frame matches %q as an iframe selector, a frame name or part of a frame URL", s).
		WithHint("list the frames with the frame step's list option, or use the iframe's ref from a snapshot")
}

// resolveAnywhere finds a frame named by id or URL substring, wherever it
// is in the page's frame tree.
func (fs *Frames) resolveAnywhere(ctx context.Context, spec FrameSpec) (*frameRef, *FrameInfo, []string, error) {
	p := fs.p
	list, err := fs.List(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	byID := map[string]FrameInfo{}
	var matches []FrameInfo
	for _, f := range list.Frames {
		byID[f.FrameID] = f
		if f.Depth > 0 && frameMatches(f, spec) {
			matches = append(matches, f)
		}
	}
	if len(matches) == 0 {
		what := fmt.Sprintf("id %q", spec.FrameID)
		switch {
		case spec.URL != "":
			what = fmt.Sprintf("a URL containing %q", spec.URL)
		case spec.Name != "":
			what = fmt.Sprintf("the name %q", spec.Name)
		}
		return nil, nil, nil, Errorf(KindElementNotFound, "no frame of the page has %s (the page has %d frames)", what, len(list.Frames)-1).
			WithHint("list the frames with the frame step's list option")
	}
	var warnings []string
	if len(matches) > 1 {
		warnings = append(warnings, fmt.Sprintf("%d frames match; switched to the first (%s)", len(matches), matches[0].URL))
	}
	var chain []string
	for cur := matches[0]; cur.Depth > 0 && len(chain) <= maxFrameDepth*4; cur = byID[cur.ParentID] {
		chain = append([]string{cur.FrameID}, chain...)
	}
	f, err := p.chainRefs(ctx, chain, 2*time.Second)
	if err != nil {
		return nil, nil, nil, err
	}
	f.url, f.topDocuments = matches[0].URL, p.Documents()
	info := matches[0]
	if info.CrossOrigin {
		warnings = append(warnings, fmt.Sprintf("the frame is cross-origin (%s): actions run inside it through its own context", originOf(info.URL)))
	}
	return f, &info, warnings, nil
}

// frameMatches reports whether f is the frame spec names by id, URL part
// or name.
func frameMatches(f FrameInfo, spec FrameSpec) bool {
	switch {
	case spec.FrameID != "":
		return f.FrameID == spec.FrameID
	case spec.URL != "":
		return strings.Contains(f.URL, spec.URL)
	}
	return spec.Name != "" && f.Name == spec.Name
}

// resolveID finds the frame id for a spec, in the current frame.
func (fs *Frames) resolveID(ctx context.Context, spec FrameSpec) (cdp.FrameID, error) {
	p := fs.p
	if spec.FrameID != "" {
		return cdp.FrameID(spec.FrameID), nil
	}
	if spec.Selector != "" {
		// The iframe's ref from a snapshot, or a CSS selector.
		el, _, err := p.locate(ctx, NormalizeTarget(spec.Selector))
		if err != nil {
			return "", err
		}
		if el == nil {
			return "", Errorf(KindElementNotFound, "no iframe matches %q", spec.Selector).WithHint("list the frames with the frame step's list option")
		}
		defer el.release()
		d, err := cdp.Call(ctx, el.sess, dom.DescribeNode, dom.DescribeNodeParams{ObjectID: el.ObjectID})
		if err != nil {
			return "", err
		}
		if d.Node.FrameID == "" {
			return "", Errorf(KindStepValidation, "%q is a <%s>, not an iframe or frame", spec.Selector, strings.ToLower(d.Node.NodeName))
		}
		return d.Node.FrameID, nil
	}
	children, err := p.childFrames(ctx)
	if err != nil {
		return "", err
	}
	if spec.Index != nil {
		if *spec.Index < 0 || *spec.Index >= len(children) {
			return "", Errorf(KindElementNotFound, "frame index %d is out of range: the current frame has %d child frames", *spec.Index, len(children))
		}
		return children[*spec.Index].ID, nil
	}
	if spec.Name != "" {
		var names []string
		for _, c := range children {
			if c.Name == spec.Name {
				return c.ID, nil
			}
			names = append(names, fmt.Sprintf("%q", c.Name))
		}
		return "", Errorf(KindElementNotFound, "no child frame is named %q (names: %s)", spec.Name, strings.Join(names, ", "))
	}
	return "", Errorf(KindStepValidation, "frame needs a selector, index, name, frameId, or \"top\"")
}
