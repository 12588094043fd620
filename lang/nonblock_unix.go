//go:build unix

package lang

import "syscall"

// oNonblock keeps opening a named pipe from waiting for a writer.
const oNonblock = syscall.O_NONBLOCK
