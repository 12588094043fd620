package runtime

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestHugeTitleAndURLDoNotSwellEveryAnswer (issue 31, item 8): a page
// whose title is 2 MB and whose URL is 100 KB long gets answers of a few
// KB; the context says each was cut and how to read all of it.
func TestHugeTitleAndURLDoNotSwellEveryAnswer(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[{"openTab":"`+base+`one.html"},{"pageFunction":"document.title = 'T'.repeat(2000000); history.replaceState(null, '', '?q=' + 'u'.repeat(100000)); 1"}]}`)
	closeTabAfter(t, out)
	mustOK(t, out)
	for i, o := range []*Output{out, runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"scroll":"bottom"}]}`)} {
		mustOK(t, o)
		data := o.JSON()
		if len(data) > 64<<10 {
			t.Fatalf("answer %d is %d bytes", i+1, len(data))
		}
		c := o.Context
		if !strings.Contains(c.Title, "title cut at 500 of 2000000 bytes") || !strings.Contains(c.Title, "document.title") {
			t.Errorf("answer %d: the title does not say it was cut: %.200q", i+1, c.Title)
		}
		if !strings.Contains(c.URL, "URL cut at") || !strings.Contains(c.URL, "location.href") {
			t.Errorf("answer %d: the URL does not say it was cut: %.200q", i+1, c.URL)
		}
	}
}

// TestSpillFilesAreCapped (issue 31, item 8): a page function returning
// 20 MB writes a spill file of at most MaxSpillFile bytes, and the answer
// says the file keeps only the first part.
func TestSpillFilesAreCapped(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[{"openTab":"`+base+`one.html"},{"pageFunction":"'x'.repeat(20 * 1024 * 1024)"}]}`)
	closeTabAfter(t, out)
	mustOK(t, out)
	var sp SpilledValue
	raw, _ := json.Marshal(out.Steps[1].Output)
	if err := json.Unmarshal(raw, &sp); err != nil || sp.File == "" {
		t.Fatalf("the output was not spilled: %.300s", raw)
	}
	fi, err := os.Stat(sp.File)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() > MaxSpillFile {
		t.Errorf("the spill file is %d bytes", fi.Size())
	}
	if sp.Bytes != 20<<20 || !strings.Contains(sp.Cut, "keeps the first") {
		t.Errorf("the answer does not say the file was cut: %+v", sp)
	}
}
