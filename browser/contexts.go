package browser

import (
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
	byUnique map[string]cdp.FrameID
}

// trackContexts subscribes before Runtime.enable so the contexts that exist
// already are reported too.
func trackContexts(s *Session) *contextTracker {
	t := &contextTracker{byFrame: map[cdp.FrameID]runtime.ExecutionContextID{}, byUnique: map[string]cdp.FrameID{}}
	created, _ := s.Subscribe("Runtime.executionContextCreated")
	destroyed, _ := s.Subscribe("Runtime.executionContextDestroyed")
	cleared, _ := s.Subscribe("Runtime.executionContextsCleared")
	go func() {
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
					t.byUnique[ev.Context.UniqueID] = aux.FrameID
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
				if f, ok := t.byUnique[ev.ExecutionContextUniqueID]; ok {
					delete(t.byFrame, f)
					delete(t.byUnique, ev.ExecutionContextUniqueID)
				}
				t.mu.Unlock()
			case _, ok := <-cleared:
				if !ok {
					return
				}
				t.mu.Lock()
				t.byFrame = map[cdp.FrameID]runtime.ExecutionContextID{}
				t.byUnique = map[string]cdp.FrameID{}
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
