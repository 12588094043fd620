//go:build !linux

package state

// ProcessStopped cannot tell here: false.
func ProcessStopped(pid int) bool { return false }
