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

// guardMemory stops the program of m when the process's heap passes its
// limit (after a collection confirms it), until ctx ends, unless another
// running program made more large values (that one's guard stops it). The
// budget checked before each large value (memAccount.charge) keeps one
// allocation from taking the process past the limit; this bounds what a
// loop of small appends can take.
func guardMemory(ctx context.Context, m *memAccount) {
	t := time.NewTicker(memoryCheckEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if heapBytes() <= m.limit {
			continue
		}
		goruntime.GC()
		if used := heapBytes(); used > m.limit && m.isHog() {
			m.threads.cancel(fmt.Sprintf("the program used more than %d MiB of memory (%s); build smaller values, or raise the limit", m.limit>>20, EnvMaxMemory))
			return
		}
	}
}
