//go:build unix

package lang

import (
	"os"
	"syscall"
)

// hardLinks is the number of hard links of the file info describes.
func hardLinks(info os.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
