//go:build !unix

package browser

// oNoFollow is not available here; the output directory check resolves
// links before the file is opened.
const oNoFollow = 0

// oNonblock is not available here.
const oNonblock = 0
