package runtime

import (
	"fmt"
	"unicode/utf8"
)

// MaxSpillFile bounds a file the answer spills a value to under the state
// dir (a step's output, the result, the full snapshot): a page function
// that returns 200 MB must not write 200 MB per command.
const MaxSpillFile = 16 << 20

// capSpill returns the part of data a spill file keeps and, when it had to
// cut, the note that says so.
func capSpill(data []byte) ([]byte, string) {
	if len(data) <= MaxSpillFile {
		return data, ""
	}
	kept := data[:MaxSpillFile]
	for len(kept) > 0 && !utf8.Valid(kept[len(kept)-min(len(kept), utf8.UTFMax):]) {
		kept = kept[:len(kept)-1]
	}
	return kept, fmt.Sprintf("the value is %d bytes; its file keeps the first %d (a spill file keeps at most %d MiB) and the rest was not kept: ask for a part of it (slice it in the page function or recipe) or write it with outputPath", len(data), len(kept), MaxSpillFile>>20)
}

// maxContextTitle and maxContextURL bound the title and URL every answer
// repeats in its context: a page with a 2 MB title must not make each
// answer 2 MB.
const (
	maxContextTitle = 500
	maxContextURL   = 4096
)

// clipContext cuts s at n bytes (on a UTF-8 boundary) and says how to read
// all of it with expr.
func clipContext(s string, n int, what, expr string) string {
	if len(s) <= n {
		return s
	}
	return fmt.Sprintf("%s… [%s cut at %d of %d bytes; read all of it with {\"pageFunction\":%q}]", boundedstr(s, n), what, n, len(s), expr)
}
