package browser

import (
	"context"
	"sync"
)

// feedGate lets a reader wait until every event its counted subscriptions
// (Session.SubscribeCounted) have received was handled: after a round
// trip to the tab, that is every event Chrome sent before the answer.
type feedGate struct {
	mu    sync.Mutex
	feeds []*netFeed
	// changed is closed (and replaced) whenever an event was handled.
	changed chan struct{}
}

// add counts one subscription, given its received count.
func (g *feedGate) add(received func() int64) *netFeed {
	g.mu.Lock()
	defer g.mu.Unlock()
	f := &netFeed{received: received}
	g.feeds = append(g.feeds, f)
	return f
}

// handled records that one event of f was handled and wakes the waiters.
func (g *feedGate) handled(f *netFeed) {
	f.read.Add(1)
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
		targets[i] = f.received()
	}
	g.mu.Unlock()
	for {
		g.mu.Lock()
		drained := true
		for i, f := range feeds {
			if f.read.Load() < targets[i] {
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
