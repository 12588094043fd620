package browser

import (
	"strings"
	"testing"
)

func TestSnapshotShowsEveryFrame(t *testing.T) {
	site := newFrameSite(t)
	p := openTestTab(t)
	ctx := testCtx(t)
	if _, err := p.Navigate(ctx, site.Top+"index.html", WaitLoad); err != nil {
		t.Fatal(err)
	}
	s, err := p.Snapshot(ctx, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", s.YAML)
	for _, want := range []string{`textbox "Same field"`, `heading "Partner"`, `textbox "Full name"`, `button "Tilted button"`, "[url=" + site.Cross + "outer.html]"} {
		if !strings.Contains(s.YAML, want) {
			t.Errorf("snapshot lacks %s", want)
		}
	}
}
