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
