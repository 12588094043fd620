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
	// Under the lock, the counter is rewritten in place: a rename per
	// snapshot costs milliseconds on some file systems.
	root, err := OpenRoot()
	if err != nil {
		return 0, err
	}
	defer root.Close()
	f, err := root.OpenFile("snapshots.counter", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return 0, fmt.Errorf("snapshot counter: %w", err)
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() || Links(info) > 1 {
		return 0, fmt.Errorf("snapshot counter %s is not a plain file", filepath.Join(Dir(), "snapshots.counter"))
	}
	buf := make([]byte, 32)
	k, _ := f.ReadAt(buf, 0)
	n, _ := strconv.Atoi(strings.TrimSpace(string(buf[:k])))
	n = max(n, atLeast) + 1
	out := []byte(strconv.Itoa(n) + "\n")
	if _, err := f.WriteAt(out, 0); err != nil {
		return 0, fmt.Errorf("snapshot counter: %w", err)
	}
	if err := f.Truncate(int64(len(out))); err != nil {
		return 0, fmt.Errorf("snapshot counter: %w", err)
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
