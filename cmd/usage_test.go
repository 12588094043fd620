package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestUsageErrorsAnswerJSON (issue 31, Low): a command line cobra refuses
// (an unknown flag, a bad flag value, run without its file) answers on
// stdout with a VALIDATION error as every other command does, exit 2.
func TestUsageErrorsAnswerJSON(t *testing.T) {
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"--bogus", "x"}, "unknown flag: --bogus"},
		{[]string{"run"}, "accepts 1 arg"},
		{[]string{"run", "r.star", "--timeout", "soon"}, "soon"},
		{[]string{"chrome", "stop", "--port", "abc"}, `"abc"`},
	} {
		var stdout, stderr bytes.Buffer
		code := Execute(context.Background(), tc.args, strings.NewReader(""), &stdout, &stderr)
		var out struct {
			Status string
			Error  struct{ Type, Message string }
		}
		if code != 2 || json.Unmarshal(stdout.Bytes(), &out) != nil || out.Status != "error" || out.Error.Type != "VALIDATION" || !strings.Contains(out.Error.Message, tc.says) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", tc.args, code, stdout.String(), stderr.String())
		}
	}
}
