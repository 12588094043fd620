package state

import (
	"context"
	"sync"
	"testing"
)

// TestReserveSnapshotIsUniqueAcrossTabs reserves numbers from many
// goroutines at once (as parallel agents on different tabs do): no number
// is handed out twice.
func TestReserveSnapshotIsUniqueAcrossTabs(t *testing.T) {
	useDir(t, t.TempDir())
	var mu sync.Mutex
	seen := map[int]bool{}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 25 {
				n, err := ReserveSnapshot(context.Background(), 0)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				if seen[n] {
					t.Errorf("snapshot number %d handed out twice", n)
				}
				seen[n] = true
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if n, _ := ReserveSnapshot(context.Background(), 500); n != 501 {
		t.Errorf("a tab whose counter is ahead (500) got %d", n)
	}
}

// BenchmarkReserveSnapshot measures what binding refs to tabs adds to a
// snapshot: a file lock and a counter write.
func BenchmarkReserveSnapshot(b *testing.B) {
	useDir(b, b.TempDir())
	for b.Loop() {
		if _, err := ReserveSnapshot(context.Background(), 0); err != nil {
			b.Fatal(err)
		}
	}
}

// useDir makes dir the state directory until the test ends.
func useDir(tb testing.TB, dir string) {
	previous := SetDir(dir)
	tb.Cleanup(func() { SetDir(previous) })
}
