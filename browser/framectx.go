package browser

import (
	"context"
	"sync"
	"time"
)

// A step's frame travels with the step, in its context, never on the Page:
// two steps on one Page (two goroutines, an MCP session beside a recipe)
// each act in their own frame. The runtime starts every step with
// Frames.Enter, which puts the command's selection (nil: the top
// document) in the step's context; every engine and evaluation call reads
// its frame from the context it is given (frameOf), so a lookup that
// searches other frames runs each of its calls in a context of that frame
// (inFrame) and nothing is restored afterwards.

// stepFrame is the frame a step acts in. It starts as the command's
// selection; a lookup that finds the step's target in another frame (a ref
// taken there, a text found there) moves the step there for the rest of
// the step (moveTo), and nothing outside the step sees it.
type stepFrame struct {
	mu sync.Mutex
	// frame is where the step acts now (nil: the top document).
	frame *frameRef
	// home is the frame the step started in: its command's selection.
	home *frameRef
	// searchedAt is when a lookup of this step last searched the frames.
	searchedAt time.Time
}

type stepFrameKey struct{}

// inFrame returns ctx for calls that run in f (nil: the top document):
// every engine and evaluation call under it runs in f, and a lookup under
// it that moves to another frame moves this context's step only.
func inFrame(ctx context.Context, f *frameRef) context.Context {
	return context.WithValue(ctx, stepFrameKey{}, &stepFrame{frame: f, home: f})
}

// stepFrameOf returns the step frame ctx carries (nil when none: the top
// document, and lookups cannot move).
func stepFrameOf(ctx context.Context) *stepFrame {
	s, _ := ctx.Value(stepFrameKey{}).(*stepFrame)
	return s
}

// frameOf is the frame calls under ctx run in (nil: the top document).
func frameOf(ctx context.Context) *frameRef {
	s := stepFrameOf(ctx)
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.frame
}

// moveTo makes the rest of ctx's step act in f: its target is there. A
// context with no step frame (a caller that did not start a step) is
// given one by Frames.Enter; moveTo reports whether it moved.
func moveTo(ctx context.Context, f *frameRef) bool {
	s := stepFrameOf(ctx)
	if s == nil {
		return false
	}
	s.mu.Lock()
	s.frame = f
	s.mu.Unlock()
	return true
}

// replaceFrame makes a step that acts in f act in g instead (f moved to
// another renderer while the step ran).
func replaceFrame(ctx context.Context, f, g *frameRef) {
	s := stepFrameOf(ctx)
	if s == nil {
		return
	}
	s.mu.Lock()
	if s.frame == f {
		s.frame = g
	}
	if s.home == f {
		s.home = g
	}
	s.mu.Unlock()
}

// searchedRecently reports whether ctx's step searched the frames within
// the last d, and marks now as its last search when not.
func searchedRecently(ctx context.Context, d time.Duration) bool {
	s := stepFrameOf(ctx)
	if s == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if time.Since(s.searchedAt) < d {
		return true
	}
	s.searchedAt = time.Now()
	return false
}

// frameIn is the frame calls on p under ctx run in (nil: the top
// document). A step's frame of another page (a step that acts on another
// tab than its command's) is p's top document.
func (p *Page) frameIn(ctx context.Context) *frameRef {
	f := frameOf(ctx)
	if f == nil || f.page != p {
		return nil
	}
	return f
}
