package state

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// maxOwnedSnaps bounds the snapshot numbers a tab state remembers (for
// saying which tab a foreign ref came from).
const maxOwnedSnaps = 200

// ReserveSnapshot takes the next snapshot number from the counter all tabs
// share (at least atLeast+1), so that no two tabs ever issue the same
// snapshot number, and hence the same ref: a ref of one tab is unknown in
// every other.
func ReserveSnapshot(ctx context.Context, atLeast int) (int, error) {
	lctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	lock, err := Path("snapshots.lock")
	if err != nil {
		return 0, err
	}
	unlock, err := Lock(lctx, lock)
	if err != nil {
		return 0, fmt.Errorf("snapshot counter: %w", err)
	}
	defer unlock()
	p := filepath.Join(Dir(), "snapshots.counter")
	n := 0
	if data, err := readFileNoEscape(p); err == nil {
		n, _ = strconv.Atoi(strings.TrimSpace(string(data)))
	}
	n = max(n, atLeast) + 1
	if err := WriteFileAtomic(p, []byte(strconv.Itoa(n)+"\n"), 0o600); err != nil {
		return 0, err
	}
	return n, nil
}

// Own records that the tab issued snapshot number n.
func (s *TabState) Own(n int) {
	if slices.Contains(s.Snaps, n) {
		return
	}
	s.Snaps = append(s.Snaps, n)
	if len(s.Snaps) > maxOwnedSnaps {
		s.Snaps = s.Snaps[len(s.Snaps)-maxOwnedSnaps:]
	}
}

// SnapshotOwner returns the target id of the tab that issued snapshot
// number n ("" when no tab state says so).
func SnapshotOwner(n int) string {
	entries, err := os.ReadDir(filepath.Join(Dir(), "tabs"))
	if err != nil {
		return ""
	}
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || !IsTargetID(id) {
			continue
		}
		if s, err := LoadTabState(id); err == nil && slices.Contains(s.Snaps, n) {
			return id
		}
	}
	return ""
}
