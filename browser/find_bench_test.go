package browser

import (
	"context"
	"testing"
)

// BenchmarkFindByText is one text or label lookup (the engine's find, one
// round trip) on big pages: what every text-targeted action pays per
// actionability attempt.
//
//	go test ./browser -run '^$' -bench FindByText -benchtime 20x
func BenchmarkFindByText(b *testing.B) {
	ctx := context.Background()
	spec := openTestTab(b)
	navigateTo(b, goSpecURL(b))(spec)
	base := servePages(b, map[string]string{"big.html": bigFormPage()})
	form := openTestTab(b)
	navigateTo(b, base+"big.html")(form)
	for _, c := range []struct {
		name string
		p    *Page
		t    Target
	}{
		{"GoSpec/heading", spec, Target{Text: "Method sets"}},
		{"GoSpec/sentence", spec, Target{Text: "the zero value for its type"}},
		{"GoSpec/absent", spec, Target{Text: "no such words anywhere"}},
		{"BigForm/label", form, Target{Label: "Field 2500"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				el, _, err := c.p.locate(ctx, c.t)
				if err != nil && KindOf(err) != KindAmbiguousTarget {
					b.Fatal(err)
				}
				if el != nil {
					c.p.release(ctx, el.ObjectID)
				}
			}
		})
	}
}
