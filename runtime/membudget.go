package runtime

import (
	"fmt"
	goruntime "runtime"
	"strings"
	"sync"
	"sync/atomic"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// memCheckFrom is the size from which an operation's result is checked
// against the budget before it is made (smaller ones cost nothing extra).
const memCheckFrom = 1 << 20

// slotBytes is what one element of a list or tuple takes.
const slotBytes = 16

// memAccount is one program's memory budget: the largest value it may
// make and the process heap it may push that value into; big counts the
// bytes of the large values it made, which names the program that
// allocated when the process runs over its limit (guardMemory).
type memAccount struct {
	name    string
	limit   uint64
	threads *threadSet
	big     atomic.Uint64
}

// memAccounts are the programs running in this process.
var memAccounts = struct {
	sync.Mutex
	set map[*memAccount]struct{}
}{set: map[*memAccount]struct{}{}}

// register adds m to the running programs until the returned func is called.
func (m *memAccount) register() func() {
	memAccounts.Lock()
	defer memAccounts.Unlock()
	memAccounts.set[m] = struct{}{}
	return func() {
		memAccounts.Lock()
		defer memAccounts.Unlock()
		delete(memAccounts.set, m)
	}
}

// isHog says whether m made the most large values of the programs running
// (true for every program when none made any).
func (m *memAccount) isHog() bool {
	memAccounts.Lock()
	defer memAccounts.Unlock()
	mine := m.big.Load()
	for o := range memAccounts.set {
		if o.big.Load() > mine {
			return false
		}
	}
	return true
}

// MemoryError is the failure of an operation that would take a program past
// its memory budget.
type MemoryError struct {
	// What is the operation ("operator *", "join").
	What string
	// Bytes is the size of the value it would make; Limit the budget.
	Bytes, Limit uint64
	// InUse is the process heap when the value did not fit beside it (0
	// when the value alone is over the limit).
	InUse uint64
}

func (e *MemoryError) Error() string {
	mib := func(n uint64) uint64 { return (n + 1<<20 - 1) >> 20 }
	if e.InUse == 0 {
		return fmt.Sprintf("%s would make a value of about %d MiB: the program would use more than %d MiB of memory; build smaller values, or raise the limit (%s)", e.What, mib(e.Bytes), e.Limit>>20, EnvMaxMemory)
	}
	return fmt.Sprintf("%s would make a value of about %d MiB while %d MiB are in use: the program would use more than %d MiB of memory; build smaller values, or raise the limit (%s)", e.What, mib(e.Bytes), mib(e.InUse), e.Limit>>20, EnvMaxMemory)
}

// charge checks, before what makes a value of n bytes, that the value fits
// the budget beside what the process holds.
func (m *memAccount) charge(what string, n uint64) error {
	if n < memCheckFrom {
		return nil
	}
	if n > m.limit {
		return &MemoryError{What: what, Bytes: n, Limit: m.limit}
	}
	if used := heapBytes(); used+n > m.limit {
		goruntime.GC()
		if used = heapBytes(); used+n > m.limit {
			return &MemoryError{What: what, Bytes: n, Limit: m.limit, InUse: used}
		}
	}
	m.big.Add(n)
	return nil
}

// mulSize is a*b, saturated.
func mulSize(a, b uint64) uint64 {
	if a != 0 && b > ^uint64(0)/a {
		return ^uint64(0)
	}
	return a * b
}

// lenOf is the length of x when it has one (-1 otherwise).
func lenOf(x starlark.Value) int {
	if l, ok := x.(interface{ Len() int }); ok {
		return l.Len()
	}
	return -1
}

// intBytes is the size of an int's magnitude.
func intBytes(i starlark.Int) uint64 {
	if _, ok := i.Int64(); ok {
		return 8
	}
	return uint64(i.BigInt().BitLen()/8 + 8)
}

// repeatCount is n as a count (saturated; 0 when negative or not an int).
func repeatCount(n starlark.Value) uint64 {
	i, ok := n.(starlark.Int)
	if !ok {
		return 0
	}
	if i.Sign() <= 0 {
		return 0
	}
	if u, ok := i.Uint64(); ok {
		return u
	}
	return ^uint64(0)
}

// elemBytes is the size of one element of a repeated or concatenated x.
func elemBytes(x starlark.Value) uint64 {
	switch x.(type) {
	case starlark.String, starlark.Bytes:
		return 1
	}
	return slotBytes
}

// binarySize estimates the bytes x op y makes.
func binarySize(op syntax.Token, x, y starlark.Value) uint64 {
	switch op {
	case syntax.STAR:
		if xi, ok := x.(starlark.Int); ok {
			if yi, ok := y.(starlark.Int); ok {
				return intBytes(xi) + intBytes(yi)
			}
			x, y = y, x
		}
		if n := lenOf(x); n > 0 {
			return mulSize(mulSize(uint64(n), elemBytes(x)), repeatCount(y))
		}
	case syntax.PLUS, syntax.PIPE:
		nx, ny := lenOf(x), lenOf(y)
		if nx > 0 && ny > 0 {
			return uint64(nx+ny) * elemBytes(x)
		}
	case syntax.PERCENT:
		if s, ok := x.(starlark.String); ok {
			return formatSize(string(s), "%", y)
		}
	}
	return 0
}

// formatSize bounds the size of a format string with its arguments: every
// placeholder may print the largest argument.
func formatSize(format, mark string, args ...starlark.Value) uint64 {
	var largest uint64
	for _, a := range args {
		if t, ok := a.(starlark.Tuple); ok {
			for _, e := range t {
				largest = max(largest, printedSize(e))
			}
			continue
		}
		largest = max(largest, printedSize(a))
	}
	return uint64(len(format)) + mulSize(uint64(strings.Count(format, mark)), largest)
}

// printedSize bounds how long str(v) is, cheaply: the sizes of shared
// parts are counted once per reference (a value built by nesting a list
// in itself twice, forty times, prints 2^40 elements).
func printedSize(v starlark.Value) uint64 {
	memo := map[starlark.Value]uint64{}
	var size func(v starlark.Value, depth int) uint64
	size = func(v starlark.Value, depth int) uint64 {
		if depth > 1000 {
			return ^uint64(0) >> 2 // refused by the nesting check anyway
		}
		switch x := v.(type) {
		case starlark.String:
			return uint64(len(x)) + 2
		case starlark.Bytes:
			return uint64(len(x))*4 + 3
		case starlark.Int:
			return intBytes(x) * 3
		case starlark.Tuple:
			var n uint64 = 2
			for _, e := range x {
				n = satAdd(n, satAdd(size(e, depth+1), 2))
			}
			return n
		case *starlark.List, *starlark.Dict, *starlark.Set:
			if n, ok := memo[v]; ok {
				return n
			}
			memo[v] = 5 // "[...]" while inside itself
			var n uint64 = 2
			iter := x.(starlark.Iterable).Iterate()
			var e starlark.Value
			for iter.Next(&e) {
				n = satAdd(n, satAdd(size(e, depth+1), 2))
				if d, ok := x.(*starlark.Dict); ok {
					if val, found, _ := d.Get(e); found {
						n = satAdd(n, satAdd(size(val, depth+1), 2))
					}
				}
			}
			iter.Done()
			memo[v] = n
			return n
		}
		return 32
	}
	return size(v, 0)
}

func satAdd(a, b uint64) uint64 {
	if a+b < a {
		return ^uint64(0)
	}
	return a + b
}
