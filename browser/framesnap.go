package browser

import (
	"context"
	"errors"
	"hash/fnv"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/runtime"
)

// frameMark starts the line the engine renders under an iframe it could
// not look into: each frame is snapshotted by its own engine, in its own
// context or out-of-process session, and spliced in here (FRAME_MARK in
// snapshot.js).
const frameMark = "\x01cdpframe "

// maxFrameDepth bounds the nesting of frames a snapshot looks into.
const maxFrameDepth = 8

// frameURLLimit bounds the URL shown on an iframe's line.
const frameURLLimit = 120

var refInYAML = lazyRegexp(`\[ref=(s[0-9]+e[0-9]+)\]`)

// frameSubOptions are the options a frame's own snapshot is taken with:
// the parent's, for the whole frame document, under the parent's id.
func frameSubOptions(o SnapshotOptions) SnapshotOptions {
	o.Root, o.Since, o.ResetRefs, o.Internal, o.NoHeader = "body", "", false, true, true
	return o
}

// spliceFrames replaces the frame markers of s, rendered in the current
// frame under the engine's slot key, by the snapshots of the frames they
// stand for. A frame that cannot be read keeps its iframe line, marked.
func (p *Page) spliceFrames(ctx context.Context, s *Snapshot, key string, sub SnapshotOptions, depth int) {
	if s.Frames == 0 {
		return
	}
	ids := p.slotFrames(ctx, key, s.Frames)
	for i := range ids {
		if i < len(s.Unloaded) && s.Unloaded[i] {
			ids[i] = "" // nothing to show: no probe
		}
	}
	if !strings.Contains(s.YAML, frameMark) {
		return
	}
	parent := p.frameIn(ctx)
	refs := p.frameRefsFor(ctx, ids)
	lines := strings.Split(s.YAML, "\n")
	out := make([]string, 0, len(lines))
	for _, line := range lines {
		k := strings.Index(line, frameMark)
		if k < 2 || len(out) == 0 {
			if k < 0 {
				out = append(out, line)
			}
			continue
		}
		pad := line[:k-2] // the frame's content sits where the marker is
		slot, _ := strconv.Atoi(line[k+len(frameMark):])
		var ref frameProbe
		if slot >= 0 && slot < len(refs) {
			ref = refs[slot]
		}
		fs, err := p.boundedFrameSnapshot(ctx, parent, ref, sub, depth)
		last := len(out) - 1
		head := strings.TrimSuffix(out[last], ":")
		if fs != nil && fs.URL != "" {
			head += " [url=" + clipURL(fs.URL) + "]"
		}
		if err != nil || fs == nil {
			mark := " [not loaded]"
			if errors.Is(err, errFrameBusy) {
				mark = " [loading]"
			}
			out[last] = head + mark
			continue
		}
		p.noteFrameOwner(ref.ref, head)
		body := strings.TrimRight(fs.YAML, "\n")
		if body == "" {
			out[last] = head
			continue
		}
		out[last] = head + ":"
		for _, l := range strings.Split(body, "\n") {
			out = append(out, pad+l)
		}
		s.Refs += fs.Refs
		s.Elements = append(s.Elements, fs.Elements...)
		if len(fs.RefsMap) > 0 {
			if s.RefsMap == nil {
				s.RefsMap = make(map[string]RefInfo, len(fs.RefsMap))
			}
			maps.Copy(s.RefsMap, fs.RefsMap)
		}
		s.News = s.News.add(fs.News)
		s.Truncated = s.Truncated || fs.Truncated
	}
	s.YAML = strings.Join(out, "\n")
}

func clipURL(u string) string {
	if len(u) <= frameURLLimit {
		return u
	}
	return u[:frameURLLimit-1] + "…"
}

// Bounds of one frame's snapshot. Chrome holds every call into an
// out-of-process frame while a navigation in it is pending (until the new
// document commits, however long its server takes): a snapshot shows
// such a frame as loading instead of waiting for it. A frame that was
// busy at the last snapshot of the page gets the short bound.
const (
	frameSnapshotBound     = 2 * time.Second
	busyFrameSnapshotBound = 300 * time.Millisecond
)

// errFrameBusy says a frame did not answer within its snapshot's bound.
var errFrameBusy = errors.New("the frame did not answer in time (it is loading a new page)")

// boundedFrameSnapshot is frameSnapshot within the frame's bound.
func (p *Page) boundedFrameSnapshot(ctx context.Context, parent *frameRef, probe frameProbe, sub SnapshotOptions, depth int) (*Snapshot, error) {
	if probe.err != nil || probe.ref == nil {
		return p.frameSnapshot(ctx, parent, probe, sub, depth)
	}
	id := probe.ref.id
	bound := frameSnapshotBound
	p.mu.Lock()
	if p.busyFrames[id] {
		bound = busyFrameSnapshotBound
	}
	p.mu.Unlock()
	fctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	fs, err := p.frameSnapshot(fctx, parent, probe, sub, depth)
	busy := err != nil && fctx.Err() != nil && ctx.Err() == nil
	p.mu.Lock()
	if busy {
		if p.busyFrames == nil {
			p.busyFrames = map[cdp.FrameID]bool{}
		}
		p.busyFrames[id] = true
	} else if err == nil {
		delete(p.busyFrames, id)
	}
	p.mu.Unlock()
	if busy {
		return fs, errFrameBusy
	}
	return fs, err
}

// frameSnapshot snapshots the frame id, a child of parent, through its own
// engine, with its own frames spliced in.
func (p *Page) frameSnapshot(ctx context.Context, parent *frameRef, probe frameProbe, sub SnapshotOptions, depth int) (*Snapshot, error) {
	ref, err := probe.ref, probe.err
	if err != nil {
		return nil, err
	}
	ref.parent = parent
	ctx = inFrame(ctx, ref)
	fs, err := p.snapshotHere(ctx, sub, "")
	if err != nil {
		return nil, err
	}
	ref.url = fs.URL
	p.noteFrameRefs(ref, fs.YAML)
	if depth < maxFrameDepth {
		p.spliceFrames(ctx, fs, "snapshot", sub, depth+1)
	} else {
		fs.YAML = markDeepFrames(fs.YAML)
	}
	return fs, nil
}

// markDeepFrames replaces the engine's frame markers in a snapshot of a
// frame at the deepest level read by a note on the iframe's line: the
// frames under it are not read, and the agent is told how to read them.
func markDeepFrames(yaml string) string {
	if !strings.Contains(yaml, frameMark) {
		return yaml
	}
	lines := strings.Split(yaml, "\n")
	out := lines[:0]
	for _, line := range lines {
		if !strings.Contains(line, frameMark) {
			out = append(out, line)
			continue
		}
		if n := len(out); n > 0 {
			head := strings.TrimSuffix(out[n-1], ":")
			note := " [not read: nested more than " + strconv.Itoa(maxFrameDepth) + " frames deep"
			if m := refInYAML().FindStringSubmatch(head); m != nil {
				note += `; read it with {"frame": "` + m[1] + `"} then a snapshot`
			}
			out[n-1] = head + note + "]"
		}
	}
	return strings.Join(out, "\n")
}

// frameProbe is where a frame's JavaScript runs, or why it cannot.
type frameProbe struct {
	ref *frameRef
	err error
}

// frameRefsFor finds where each frame's JavaScript runs, all at once (a
// frame still loading costs one wait, not one each). A frame that had no
// context at an earlier probe of this page is not waited for again.
func (p *Page) frameRefsFor(ctx context.Context, ids []cdp.FrameID) []frameProbe {
	out := make([]frameProbe, len(ids))
	if !slices.ContainsFunc(ids, func(id cdp.FrameID) bool { return id != "" }) {
		for i := range out {
			out[i].err = Errorf(KindContextDestroyed, "the frame is not loaded")
		}
		return out
	}
	// Attach to out-of-process frames once, before the probes run at once.
	p.attachFrames(ctx)
	var wg sync.WaitGroup
	for i, id := range ids {
		if id == "" {
			out[i].err = Errorf(KindContextDestroyed, "the iframe holds no frame")
			continue
		}
		wait := frameProbeWait
		p.mu.Lock()
		if p.slowFrames[id] {
			wait = 0
		}
		p.mu.Unlock()
		wg.Add(1)
		go func(i int, id cdp.FrameID) {
			defer wg.Done()
			out[i].ref, out[i].err = p.frameRefWait(ctx, id, wait)
			p.mu.Lock()
			if p.slowFrames == nil {
				p.slowFrames = map[cdp.FrameID]bool{}
			}
			if out[i].err != nil {
				p.slowFrames[id] = true
			} else {
				delete(p.slowFrames, id)
			}
			p.mu.Unlock()
		}(i, id)
	}
	wg.Wait()
	return out
}

// slotGroup is the object group of the iframe handles slotFrames reads,
// released in one call.
const slotGroup = "cdp-skill-slots"

// slotFrames maps the engine's frame slots (the iframe elements a snapshot
// marked, in slot order) to the frames they hold.
func (p *Page) slotFrames(ctx context.Context, key string, n int) []cdp.FrameID {
	ids := make([]cdp.FrameID, n)
	res, sess, err := p.engineEvaluate(ctx, runtime.EvaluateParams{
		Expression:  "window.__cdpSkill && " + epTakeSlots.js() + " ? " + epTakeSlots.js() + "(" + jsString(key) + ") : []",
		ObjectGroup: slotGroup,
	})
	if err != nil || res.ExceptionDetails != nil || res.Result == nil || res.Result.ObjectID == "" {
		return ids
	}
	defer func() {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), releaseWait)
		defer cancel()
		cdp.Call(rctx, sess, runtime.ReleaseObjectGroup, runtime.ReleaseObjectGroupParams{ObjectGroup: slotGroup})
	}()
	props, err := cdp.Call(ctx, sess, runtime.GetProperties, runtime.GetPropertiesParams{ObjectID: res.Result.ObjectID, OwnProperties: ptr(true)})
	if err != nil {
		return ids
	}
	var wg sync.WaitGroup
	for _, prop := range props.Result {
		i, err := strconv.Atoi(prop.Name)
		if err != nil || i < 0 || i >= n || prop.Value == nil || prop.Value.ObjectID == "" {
			continue
		}
		wg.Add(1)
		go func(i int, id runtime.RemoteObjectID) {
			defer wg.Done()
			d, err := cdp.Call(ctx, sess, dom.DescribeNode, dom.DescribeNodeParams{ObjectID: id})
			if err == nil && d.Node != nil {
				ids[i] = d.Node.FrameID
			}
		}(i, prop.Value.ObjectID)
	}
	wg.Wait()
	return ids
}

// spliceCapture splices the frames into the post-command snapshots (the
// viewport one with its elements, for the diff). changeLog is the frames'
// change logs' part (SnapshotOptions.ChangeLog).
func (p *Page) spliceCapture(ctx context.Context, c *Capture, changeLog string) {
	if c.Viewport != nil && c.Viewport.Frames > 0 {
		p.spliceFrames(ctx, c.Viewport, "viewport", SnapshotOptions{ViewportOnly: true, Internal: true, Elements: true, NoHeader: true, Root: "body", ChangeLog: changeLog}, 1)
		c.Viewport.URL = ""
	}
	if c.Full != nil && c.Full.Frames > 0 {
		p.spliceFrames(ctx, c.Full, "full", SnapshotOptions{Internal: true, NoHeader: true, Root: "body"}, 1)
		c.Full.URL = ""
	}
	p.saveRefFrames()
}

// framesUnchanged is "since" for a page with frames, which the engine
// cannot judge alone: the hash of the whole spliced snapshot is kept with
// the snapshot id, and a later snapshot that hashes the same answers
// unchanged (under the earlier id, whose refs still hold).
func (p *Page) framesUnchanged(ctx context.Context, s *Snapshot, since string) *Snapshot {
	h := fnv.New64a()
	h.Write([]byte(s.Hash + "\n" + s.YAML))
	sum := strconv.FormatUint(h.Sum64(), 16)
	if since != "" {
		var prev string
		if p.engineCall(ctx, &prev, epFrameHash, since) == nil && prev == sum {
			return &Snapshot{Unchanged: true, SnapshotID: since}
		}
	}
	if s.SnapshotID != "" {
		p.engineCall(ctx, nil, epFrameHash, s.SnapshotID, sum)
	}
	return nil
}
