package lang

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// MaxSourceBytes bounds a recipe or module file: far above any recipe,
// far below what would tie up the process reading (a device such as
// /dev/zero never ends).
const MaxSourceBytes = 4 << 20

// ErrSourceTooLarge is wrapped by ReadSource's error for a file over
// MaxSourceBytes.
var ErrSourceTooLarge = errors.New("recipe file too large")

// ReadSource reads a recipe or module file, at most MaxSourceBytes: a
// larger file (or one without end) is refused with an error saying so.
func ReadSource(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readLimited(f, path)
}

// readModule is ReadSource for a file load() reads next to the recipe: a
// file with several hard links is refused (one can make a file from
// outside the recipe's directory look like one inside, as uploads refuse).
func readModule(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil && hardLinks(info) > 1 {
		return nil, fmt.Errorf("%w: %s has %d hard links, and a hard link can make a file from outside the recipe's directory look like one inside; copy the file instead", ErrLoadDenied, path, hardLinks(info))
	}
	return readLimited(f, path)
}

// readLimited reads f (named path), at most MaxSourceBytes.
func readLimited(f *os.File, path string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(f, MaxSourceBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxSourceBytes {
		return nil, fmt.Errorf("%w: %s has more than %d MiB; a recipe is a short program: split it into modules loaded with load()", ErrSourceTooLarge, path, MaxSourceBytes>>20)
	}
	return data, nil
}
