package browser

import (
	"context"
	"sync"

	"github.com/cdp-skill/cdp-skill/browser/cdpconn"
)

// feedGate lets a reader wait until every event its counted subscriptions
// (Session.SubscribeCounted) have received was handled: after a round
// trip to the tab, that is every event Chrome sent before the answer.
type feedGate struct {
	mu    sync.Mutex
	feeds []*cdpconn.Feed
	// changed is closed (and replaced) whenever an event was handled.
	changed chan struct{}
}

// add counts one subscription, given its received count.
func (g *feedGate) add(received func() int64) *cdpconn.Feed {
	g.mu.Lock()
	defer g.mu.Unlock()
	f := &cdpconn.Feed{Received: received}
	g.feeds = append(g.feeds, f)
	return f
}

// handled records that one event of f was handled and wakes the waiters.
func (g *feedGate) handled(f *cdpconn.Feed) {
	f.Read.Add(1)
	g.mu.Lock()
	if g.changed != nil {
		close(g.changed)
		g.changed = nil
	}
	g.mu.Unlock()
}

// wait returns once every event received before the call was handled
// (events that arrive meanwhile are not waited for), or when ctx ends.
func (g *feedGate) wait(ctx context.Context) {
	g.mu.Lock()
	feeds := g.feeds
	targets := make([]int64, len(feeds))
	for i, f := range feeds {
		targets[i] = f.Received()
	}
	g.mu.Unlock()
	for {
		g.mu.Lock()
		drained := true
		for i, f := range feeds {
			if f.Read.Load() < targets[i] {
				drained = false
			}
		}
		if drained {
			g.mu.Unlock()
			return
		}
		if g.changed == nil {
			g.changed = make(chan struct{})
		}
		changed := g.changed
		g.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			return
		}
	}
}
