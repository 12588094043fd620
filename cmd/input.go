package cmd

import (
	"errors"
	"io"
	"os"
	"strings"
	"time"
)

// maxInput bounds a JSON command read from stdin.
const maxInput = 16 << 20

// stdinWait is how long to wait for the first byte of piped input: an agent
// harness may leave stdin open with nothing to say, and we must not hang.
const stdinWait = 100 * time.Millisecond

// readCommand returns the JSON command: the argument(s) when given, else
// stdin unless it is a terminal.
func readCommand(args []string, stdin io.Reader) ([]byte, error) {
	if len(args) > 0 {
		return []byte(strings.Join(args, " ")), nil
	}
	if f, ok := stdin.(*os.File); ok {
		st, err := f.Stat()
		if err != nil || st.Mode()&os.ModeCharDevice != 0 {
			return nil, nil
		}
	}
	return readWithFirstByteTimeout(stdin, stdinWait)
}

// readWithFirstByteTimeout reads r to EOF. When no byte arrives within
// wait it returns nothing (the caller reports the missing command); once data
// flows, a producer gets 10 s to finish.
func readWithFirstByteTimeout(r io.Reader, wait time.Duration) ([]byte, error) {
	type chunk struct {
		data []byte
		err  error
	}
	ch := make(chan chunk, 64)
	go func() {
		for {
			buf := make([]byte, 64<<10)
			n, err := r.Read(buf)
			ch <- chunk{buf[:n], err}
			if err != nil {
				return
			}
		}
	}()
	var data []byte
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		select {
		case c := <-ch:
			if len(data) == 0 && len(c.data) > 0 {
				timer.Reset(10 * time.Second)
			}
			data = append(data, c.data...)
			if len(data) > maxInput {
				return nil, errors.New("the command is larger than 16 MiB")
			}
			if errors.Is(c.err, io.EOF) {
				return data, nil
			}
			if c.err != nil {
				return nil, c.err
			}
		case <-timer.C:
			if len(data) == 0 {
				return nil, nil
			}
			return nil, errors.New("stdin did not finish sending the command within 10s; pass the JSON as an argument instead")
		}
	}
}
