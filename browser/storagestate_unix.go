//go:build unix

package browser

import "syscall"

// oNoFollow makes opening a file fail when its name is a symbolic link.
const oNoFollow = syscall.O_NOFOLLOW
