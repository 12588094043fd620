//go:build !unix

package confine

// oNonblock is not available here.
const oNonblock = 0

// oNoFollow is not available here; the output directory check resolves
// links before the file is opened.
const oNoFollow = 0
