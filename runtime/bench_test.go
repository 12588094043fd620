package runtime

import (
	"context"
	"testing"
)

// BenchmarkClickCapture is one in-process command that clicks a button on
// a small page, under each capture preset; the difference to "none" is the
// cost the post-command capture adds to a click.
//
//	go test ./runtime -run '^$' -bench ClickCapture -benchtime 30x
func BenchmarkClickCapture(b *testing.B) {
	o := testOptions(b)
	base := pagesURL(b)
	ctx := context.Background()
	_, open := RunJSON(ctx, []byte(`{"steps":[{"openTab":"`+base+`feedback.html"}]}`), o)
	if !open.OK() {
		b.Fatalf("openTab: %s", open.JSON())
	}
	defer RunJSON(ctx, []byte(`{"steps":[{"closeTab":"`+open.Tab+`"}]}`), o)
	for _, preset := range []string{"none", "minimal", "compact", "full"} {
		command := []byte(`{"tab":"` + open.Tab + `","capture":"` + preset + `","steps":[{"click":"#submit-order"}]}`)
		b.Run(preset, func(b *testing.B) {
			for b.Loop() {
				if _, out := RunJSON(ctx, command, o); !out.OK() {
					b.Fatalf("click: %s", out.JSON())
				}
			}
		})
	}
}

// BenchmarkPooledStep is a command as the resident process runs it: a kept
// pool of connections and tab sessions, the screenshot deferred past the
// answer. "noop" is the fixed cost of a command on a warm tab.
//
//	go test ./runtime -run '^$' -bench PooledStep -benchtime 50x
func BenchmarkPooledStep(b *testing.B) {
	o := testOptions(b)
	o.Pool = NewPool()
	defer o.Pool.Close()
	o.DeferScreenshot = true
	base := pagesURL(b)
	ctx := context.Background()
	_, open := RunJSON(ctx, []byte(`{"steps":[{"openTab":"`+base+`feedback.html"}]}`), o)
	if !open.OK() {
		b.Fatalf("openTab: %s", open.JSON())
	}
	open.Finish()
	defer RunJSON(ctx, []byte(`{"steps":[{"closeTab":"`+open.Tab+`"}]}`), o)
	for _, c := range []struct{ name, command string }{
		{"noop", `{"tab":"` + open.Tab + `","capture":"none","steps":[{"sleep":0}]}`},
		{"click-compact", `{"tab":"` + open.Tab + `","capture":"compact","steps":[{"click":"#submit-order"}]}`},
		{"click-full", `{"tab":"` + open.Tab + `","steps":[{"click":"#submit-order"}]}`},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				_, out := RunJSON(ctx, []byte(c.command), o)
				if !out.OK() {
					b.Fatalf("%s: %s", c.name, out.JSON())
				}
				out.Finish()
			}
		})
	}
}
