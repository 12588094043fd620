//go:build linux

package state

import (
	"bytes"
	"os"
	"strconv"
)

// ProcessStopped reports whether process pid is stopped (SIGSTOP, a
// terminal's Ctrl-Z, a debugger): it holds what it held and answers
// nothing until resumed.
func ProcessStopped(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// pid (comm) state …: comm may hold spaces and parentheses.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 || i+2 >= len(data) {
		return false
	}
	s := data[i+2]
	return s == 'T' || s == 't'
}
