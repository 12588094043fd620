package mcpserver

import (
	"context"
	"sync"
)

// sequencer runs the calls on one tab in the order they arrived: a call
// takes its ticket when it is read off the connection (before the SDK
// hands it to a goroutine of its own) and waits for its turn when its
// handler starts. Calls on different tabs (different keys) do not wait for
// each other, and a call that names no tab (compile, tabs list) waits for
// nothing.
type sequencer struct {
	mu      sync.Mutex
	next    uint64
	queues  map[string][]uint64 // by tab: the tickets not yet done, in arrival order
	keyOf   map[uint64]string
	changed chan struct{} // closed (and replaced) when a ticket is done
}

func newSequencer() *sequencer {
	return &sequencer{queues: map[string][]uint64{}, keyOf: map[uint64]string{}, changed: make(chan struct{})}
}

// arrive takes the next ticket for a call on tab key.
func (s *sequencer) arrive(key string) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.next++
	seq := s.next
	s.queues[key] = append(s.queues[key], seq)
	s.keyOf[seq] = key
	return seq
}

// turn waits until every earlier call on the ticket's tab is done, or ctx
// ends.
func (s *sequencer) turn(ctx context.Context, seq uint64) error {
	for {
		s.mu.Lock()
		key, known := s.keyOf[seq]
		q := s.queues[key]
		if !known || key == "" || len(q) == 0 || q[0] == seq { // a call naming no tab waits for none
			s.mu.Unlock()
			return nil
		}
		ch := s.changed
		s.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// done retires a ticket; calling it again does nothing.
func (s *sequencer) done(seq uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	key, ok := s.keyOf[seq]
	if !ok {
		return
	}
	delete(s.keyOf, seq)
	q := s.queues[key]
	for i, v := range q {
		if v == seq {
			q = append(q[:i], q[i+1:]...)
			break
		}
	}
	if len(q) == 0 {
		delete(s.queues, key)
	} else {
		s.queues[key] = q
	}
	close(s.changed)
	s.changed = make(chan struct{})
}
