package cmd

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cdp-skill/cdp-skill/lang"
	"github.com/cdp-skill/cdp-skill/runtime"
)

// EnvMetricsFile names the JSONL file that receives one line per command.
const EnvMetricsFile = "CDP_METRICS_FILE"

// afterCommand writes the debug log (--debug) and the metrics line
// (CDP_METRICS_FILE). Failures here never change the command's result.
func (a *app) afterCommand(input []byte, req *lang.Request, out *runtime.Output, start time.Time) {
	data := out.JSON()
	if a.debug {
		if path, err := writeDebugLog("log", input, req, out); err != nil {
			a.log.Debug("debug log not written", "err", err)
		} else {
			a.log.Debug("debug log", "path", path)
		}
	}
	a.writeMetrics(input, data, stepCount(req, out), start)
}

// stepCount is the number of steps a command had, for the metrics line.
func stepCount(req *lang.Request, out *runtime.Output) int {
	if req != nil {
		return len(req.Steps)
	}
	return len(out.Steps)
}

// writeMetrics appends the command's line to CDP_METRICS_FILE when set.
func (a *app) writeMetrics(input, answer []byte, steps int, start time.Time) {
	if path := os.Getenv(EnvMetricsFile); path != "" {
		writeMetrics(path, map[string]any{
			"ts":           start.UTC().Format(time.RFC3339Nano),
			"input_bytes":  len(input),
			"output_bytes": len(answer),
			"steps":        steps,
			"time_ms":      time.Since(start).Milliseconds(),
		})
	}
}

var logSeq = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\d{3,})-`) })

// writeDebugLog writes {seq}-{tab}-{actions}.{status}.json into dir. The
// request holds what was typed (passwords too): the directory is made
// 0700 and each file 0600, created new (never written through a link).
func writeDebugLog(dir string, input []byte, req *lang.Request, out *runtime.Output) (string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	entries, _ := os.ReadDir(dir)
	next := 1
	for _, e := range entries {
		if m := logSeq().FindStringSubmatch(e.Name()); m != nil {
			if n, _ := strconv.Atoi(m[1]); n >= next {
				next = n + 1
			}
		}
	}
	var actions []string
	if req != nil {
		for _, st := range req.Steps {
			actions = append(actions, st.Key)
		}
	} else {
		for _, st := range out.Steps {
			actions = append(actions, st.Action)
		}
	}
	name := fmt.Sprintf("%03d", next)
	if out.Tab != "" {
		name += "-" + sanitize(out.Tab)
	}
	if len(actions) > 0 {
		shown := actions[:min(3, len(actions))]
		name += "-" + strings.Join(shown, "-")
		if len(actions) > 3 {
			name += fmt.Sprintf("-plus%d", len(actions)-3)
		}
	}
	name += "." + out.Status + ".json"
	var request any = string(input)
	if v, err := lang.DecodeJSON(input); err == nil {
		request = v
	}
	record := map[string]any{"timestamp": time.Now().UTC().Format(time.RFC3339Nano), "request": request, "response": json.RawMessage(out.JSON())}
	data, err := json.MarshalIndent(record, "", "  ")
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, name)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return "", err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return path, err
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, s)
}

func writeMetrics(path string, m map[string]any) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return
	}
	line, err := json.Marshal(m)
	if err != nil {
		return
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	f.Write(append(line, '\n'))
}
