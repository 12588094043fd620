//go:build unix

package confine

import "syscall"

// oNonblock keeps opening a FIFO from waiting for a writer (a file that
// is not regular is then refused).
const oNonblock = syscall.O_NONBLOCK

// oNoFollow makes opening a file fail when its name is a symbolic link.
const oNoFollow = syscall.O_NOFOLLOW
