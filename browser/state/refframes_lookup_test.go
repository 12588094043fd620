package state

import (
	"reflect"
	"testing"
)

// LookupAll answers as Lookup does for each ref: the latest frame that
// recorded it, and nothing for a ref of the top document.
func TestRefFramesLookupAll(t *testing.T) {
	var r RefFrames
	r.Add([]string{"A"}, "https://ads.example/", []string{"s1e4", "s1e5"})
	r.Add([]string{"A", "B"}, "https://ads.example/inner", []string{"s1e6"})
	r.Add([]string{"C"}, "https://video.example/", []string{"s1e5", "s1e7"})
	refs := []string{"s1e1", "s1e4", "s1e5", "s1e6", "s1e7"}
	got := r.LookupAll(refs)
	want := map[string]FrameRefs{}
	for _, ref := range refs {
		if f, ok := r.Lookup(ref); ok {
			want[ref] = f
		}
	}
	if !reflect.DeepEqual(got, want) || len(got) != 4 || got["s1e5"].URL != "https://video.example/" {
		t.Errorf("LookupAll = %+v, want %+v", got, want)
	}
}
