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
	f, err := openRegular(path)
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
	f, err := openRegular(path)
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

// ErrNotRegular is wrapped by the error of reading a recipe or module
// that is not a regular file.
var ErrNotRegular = errors.New("not a regular file")

// openRegular opens path for reading when it is a regular file. A named
// pipe would block open() until something writes to it, and a device
// never ends: both are refused before the open. The open does not block
// (O_NONBLOCK) and the file opened is checked again, so a pipe swapped in
// after the first check is refused too.
func openRegular(path string) (*os.File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, notRegular(path, st.Mode())
	}
	f, err := os.OpenFile(path, os.O_RDONLY|oNonblock, 0)
	if err != nil {
		return nil, err
	}
	if st, err = f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = notRegular(path, st.Mode())
		}
		return nil, err
	}
	return f, nil
}

// notRegular is the error of a recipe path that names what mode is.
func notRegular(path string, mode os.FileMode) error {
	what := "a special file"
	switch {
	case mode&os.ModeNamedPipe != 0:
		what = "a named pipe (FIFO)"
	case mode.IsDir():
		what = "a directory"
	case mode&os.ModeDevice != 0:
		what = "a device"
	case mode&os.ModeSocket != 0:
		what = "a socket"
	}
	return fmt.Errorf("%w: %s is %s; give the path of a .star file (a pipe or device is not read, as it can block or never end)", ErrNotRegular, path, what)
}
