package runtime

import (
	"context"
	"fmt"
	goruntime "runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.starlark.net/starlark"
)

// EnvMaxMemory names the environment variable that sets how much memory
// (MiB of live Go heap) a program may use before it is stopped.
const EnvMaxMemory = "CDP_SKILL_MAX_MEMORY_MB"

// defaultMaxMemory is the memory a program may use: far above what any
// browser task needs, far below what would take the machine (or a
// resident process serving other agents) down.
const defaultMaxMemory = 1 << 30

// memoryCheckEvery is how often the guard samples the heap.
const memoryCheckEvery = 10 * time.Millisecond

// maxMemory returns the limit in bytes: mb MiB (CDP_SKILL_MAX_MEMORY_MB),
// or the default when it is not a positive number.
func maxMemory(mb string) uint64 {
	if n, err := strconv.ParseUint(strings.TrimSpace(mb), 10, 32); err == nil && n > 0 {
		return n << 20
	}
	return defaultMaxMemory
}

// heapBytes is the Go heap's object bytes (live, and dead ones not yet
// swept).
func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// threadSet is the Starlark threads a program runs (its main thread and
// hook threads), so a guard can stop them all.
type threadSet struct {
	mu      sync.Mutex
	threads map[*starlark.Thread]struct{}
	// stopped is the reason the guard gave, once it stopped them.
	stopped string
}

func (ts *threadSet) add(th *starlark.Thread) func() {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.threads == nil {
		ts.threads = map[*starlark.Thread]struct{}{}
	}
	ts.threads[th] = struct{}{}
	if ts.stopped != "" {
		th.Cancel(ts.stopped)
	}
	return func() {
		ts.mu.Lock()
		defer ts.mu.Unlock()
		delete(ts.threads, th)
	}
}

func (ts *threadSet) cancel(reason string) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.stopped = reason
	for th := range ts.threads {
		th.Cancel(reason)
	}
}

// guardMemory stops the program's threads when the process's heap passes
// limit (after a collection confirms it), until ctx ends. Starlark has no
// allocation budget of its own; this bounds what a loop of appends or a
// few huge strings can take. In a process running several programs at
// once (the resident process) every program running Starlark code when the
// heap is over the limit is stopped.
func guardMemory(ctx context.Context, ts *threadSet, limit uint64) {
	t := time.NewTicker(memoryCheckEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if heapBytes() <= limit {
			continue
		}
		goruntime.GC()
		if used := heapBytes(); used > limit {
			ts.cancel(fmt.Sprintf("the program used more than %d MiB of memory (%s); build smaller values, or raise the limit", limit>>20, EnvMaxMemory))
			return
		}
	}
}
