package cmd

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkStepMCPvsCLI measures one agent step, seen from the client,
// through `cdp-skill mcp` and through a CLI invocation, interleaved on the
// same tab, and reports both medians: a click with the compact capture,
// and a no-op step (the fixed cost of a call).
//
//	CI=true go test ./cmd -run '^$' -bench StepMCPvsCLI -benchtime 40x
func BenchmarkStepMCPvsCLI(b *testing.B) {
	cs := mcpSession(b)
	tab := openCounter(b, cs, nil)
	for _, c := range []struct {
		name string
		args map[string]any
	}{
		{"click-compact", map[string]any{"tab": tab, "capture": "compact", "steps": []any{map[string]any{"click": "#add"}}}},
		{"noop", map[string]any{"tab": tab, "capture": "none", "steps": []any{map[string]any{"sleep": 0}}}},
	} {
		b.Run(c.name, func(b *testing.B) { benchStep(b, cs, c.args) })
	}
}

func benchStep(b *testing.B, cs *mcp.ClientSession, args map[string]any) {
	data, _ := json.Marshal(args)
	command := string(data)
	dir := b.TempDir()
	var viaMCP, viaCLI []time.Duration
	step := func() {
		start := time.Now()
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "interact", Arguments: args})
		viaMCP = append(viaMCP, time.Since(start))
		if err != nil || res.IsError {
			b.Fatalf("mcp step: %v %v", err, res)
		}
		start = time.Now()
		r := cli(b, dir, nil, command)
		viaCLI = append(viaCLI, time.Since(start))
		if r.code != 0 {
			b.Fatalf("cli step: %s", r.stdout)
		}
	}
	step() // warm both paths
	viaMCP, viaCLI = nil, nil
	b.ResetTimer()
	for b.Loop() {
		step()
	}
	b.ReportMetric(ms(median(viaMCP)), "mcp-median-ms")
	b.ReportMetric(ms(median(viaCLI)), "cli-median-ms")
}

func median(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
