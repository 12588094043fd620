//go:build !unix

package state

import "os"

// oNoFollowNonblock is not available here: files are never written in
// place (links reports 0), so it is never relied on.
const oNoFollowNonblock = 0

// links cannot tell the number of hard links here: 0, so a file is
// replaced, never written in place.
func links(os.FileInfo) uint64 { return 0 }
