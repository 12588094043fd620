package browser

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/runtime"
)

// contextTracker follows the default execution context of every frame a
// session's renderer hosts (Runtime.executionContextCreated and friends).
type contextTracker struct {
	mu       sync.Mutex
	byFrame  map[cdp.FrameID]runtime.ExecutionContextID
	byUnique map[string]frameContext
	// documents counts each frame's default contexts: one per document
	// the frame has had since the session attached.
	documents map[cdp.FrameID]int
	// newDocument is closed (and replaced) when a frame gets a new
	// document.
	newDocument chan struct{}
	// done is closed when the subscriptions end (the session detached).
	done chan struct{}
	// stop drops the subscriptions (its goroutine then ends).
	stop func()
}

// frameContext is a context and the frame it belongs to.
type frameContext struct {
	frame cdp.FrameID
	id    runtime.ExecutionContextID
}

// trackContexts subscribes before Runtime.enable so the contexts that exist
// already are reported too.
//
// Runtime.executionContextsCleared is not followed: its events come on
// another queue than the created ones, so under load a clear could be
// applied after the contexts created right after it, losing them for good.
// A frame's new context replaces its old entry, and entries of frames that
// are gone are never asked for (frame ids are not reused).
func trackContexts(s *Session) *contextTracker {
	t := &contextTracker{byFrame: map[cdp.FrameID]runtime.ExecutionContextID{}, byUnique: map[string]frameContext{}, documents: map[cdp.FrameID]int{},
		newDocument: make(chan struct{}), done: make(chan struct{})}
	created, stopC := s.Subscribe("Runtime.executionContextCreated")
	destroyed, stopD := s.Subscribe("Runtime.executionContextDestroyed")
	t.stop = func() { stopC(); stopD() }
	go func() {
		defer close(t.done)
		for {
			select {
			case raw, ok := <-created:
				if !ok {
					return
				}
				var ev runtime.EventExecutionContextCreated
				if decode(raw, &ev) != nil || ev.Context == nil {
					continue
				}
				var aux struct {
					FrameID   cdp.FrameID `json:"frameId"`
					IsDefault bool        `json:"isDefault"`
				}
				if json.Unmarshal(ev.Context.AuxData, &aux) == nil && aux.IsDefault && aux.FrameID != "" {
					t.mu.Lock()
					t.byFrame[aux.FrameID] = ev.Context.ID
					t.byUnique[ev.Context.UniqueID] = frameContext{aux.FrameID, ev.Context.ID}
					t.documents[aux.FrameID]++
					close(t.newDocument)
					t.newDocument = make(chan struct{})
					t.mu.Unlock()
				}
			case raw, ok := <-destroyed:
				if !ok {
					return
				}
				var ev runtime.EventExecutionContextDestroyed
				if decode(raw, &ev) != nil {
					continue
				}
				t.mu.Lock()
				// The frame's entry goes only if it is still this context
				// (its next one may have been reported first).
				if fc, ok := t.byUnique[ev.ExecutionContextUniqueID]; ok {
					if t.byFrame[fc.frame] == fc.id {
						delete(t.byFrame, fc.frame)
					}
					delete(t.byUnique, ev.ExecutionContextUniqueID)
				}
				t.mu.Unlock()
			}
		}
	}()
	return t
}

// context returns the default context of frame, if this renderer hosts it.
func (t *contextTracker) context(frame cdp.FrameID) (runtime.ExecutionContextID, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	id, ok := t.byFrame[frame]
	return id, ok
}

// waitDocuments waits until frame has had another count of documents
// than n and reports whether it did: false when ctx ends or the session's
// events end (it detached) first.
func (t *contextTracker) waitDocuments(ctx context.Context, frame cdp.FrameID, n int) bool {
	for {
		t.mu.Lock()
		got, next := t.documents[frame], t.newDocument
		t.mu.Unlock()
		if got != n {
			return true
		}
		select {
		case <-next:
		case <-t.done:
			return t.documentsOf(frame) != n
		case <-ctx.Done():
			return false
		}
	}
}

// documentsOf counts the documents frame has had since the session
// attached (each has its own default context).
func (t *contextTracker) documentsOf(frame cdp.FrameID) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.documents[frame]
}
