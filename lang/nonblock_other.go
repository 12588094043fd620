//go:build !unix

package lang

// oNonblock is not needed here: there are no named pipes in the file
// system to wait on.
const oNonblock = 0
