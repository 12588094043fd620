package cmd

import (
	"os"

	"github.com/gofrs/flock"
)

// socketLock is the lock file beside a resident socket: whoever holds it
// serves (or is cleaning up) that socket. The holder removes the file when
// it ends, so the state dir does not collect one per settings ever used.
type socketLock struct {
	*flock.Flock
	sock string
}

// lockSocket takes the lock of sock without waiting; ok is false when
// another process holds it. A lock taken on a file that its previous
// holder removed meanwhile is no lock (a third process may create and lock
// a new file at the path): it is let go and taken again on the file now
// there.
func lockSocket(sock string) (l *socketLock, ok bool) {
	path := sock + ".lock"
	for range 3 {
		fl := flock.New(path, flock.SetPermissions(0o600))
		if got, err := fl.TryLock(); err != nil || !got {
			fl.Close()
			return nil, false
		}
		held, err := fl.Stat()
		onDisk, err2 := os.Stat(path)
		if err == nil && err2 == nil && os.SameFile(held, onDisk) {
			return &socketLock{Flock: fl, sock: sock}, true
		}
		fl.Close()
	}
	return nil, false
}

// release removes the lock file (while still holding it) and lets go.
func (l *socketLock) release() {
	os.Remove(l.Path())
	l.Close()
}

// removeStale removes the socket and lock file of a resident process that
// ended without cleaning up (killed): only when no process holds the lock,
// so a live one's files are never touched.
func removeStale(sock string) {
	l, ok := lockSocket(sock)
	if !ok {
		return
	}
	os.Remove(sock)
	l.release()
}
