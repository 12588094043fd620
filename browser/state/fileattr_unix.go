//go:build unix

package state

import (
	"os"
	"syscall"
)

// oNoFollowNonblock opens without following a final symbolic link and
// without waiting for the other end of a FIFO.
const oNoFollowNonblock = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// links returns the number of hard links to the file st describes (0 when
// not known: such a file is never written in place).
func links(st os.FileInfo) uint64 {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return uint64(s.Nlink)
	}
	return 0
}
