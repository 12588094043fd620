package browser

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDownloadLinkClickReportsTheSavedFile clicks a link that downloads a
// CSV: the click does not wait for a navigation that never commits (no
// warning, not navigated), the file lands in the output directory's
// downloads folder under its suggested name, a second copy gets a new name,
// and a hostile suggested name is sanitised and kept inside.
func TestDownloadLinkClickReportsTheSavedFile(t *testing.T) {
	p, s := openShopWith(t, ConnectOptions{AllowDownloads: true})
	out := t.TempDir()
	for i, want := range []string{"report.csv", "report (1).csv"} {
		mark := p.Downloads().Mark()
		res := clickSel(t, p, "#csv")
		if res.Navigated || res.Warning != "" {
			t.Errorf("click %d on a download link: navigated %v, warning %q", i+1, res.Navigated, res.Warning)
		}
		list := p.Downloads().AwaitAfter(testCtx(t), mark, out)
		if len(list) != 1 || list[0].State != "completed" || list[0].SuggestedFilename != "report.csv" {
			t.Fatalf("download %d: %+v", i+1, list)
		}
		path := filepath.Join(out, "downloads", want)
		data, err := os.ReadFile(path)
		if list[0].Path != path || list[0].Size != 17 || err != nil || string(data) != "id,name\n1,Kettle\n" {
			t.Errorf("download %d: want %s with the CSV, got %+v (%q, %v)", i+1, path, list[0], data, err)
		}
	}
	if n := len(s.saw("/export.csv")); n != 2 {
		t.Errorf("the server sent the file %d times, want 2", n)
	}
	mark := p.Downloads().Mark()
	clickSel(t, p, "#evil")
	list := p.Downloads().AwaitAfter(testCtx(t), mark, out)
	if len(list) != 1 || list[0].State != "completed" {
		t.Fatalf("the hostile download: %+v", list)
	}
	name := filepath.Base(list[0].Path)
	if filepath.Dir(list[0].Path) != filepath.Join(out, "downloads") || strings.HasPrefix(name, ".") || strings.ContainsAny(name, `\/`) {
		t.Errorf("a hostile name was not sanitised: %s", list[0].Path)
	}
	var u string
	p.CallInto(testCtx(t), &u, `() => location.pathname`)
	if u != "/" {
		t.Errorf("the page left for %s", u)
	}
}

// TestWaitForDownloadCoversIndirectDownloads lets the page start a
// download on its own a moment later: Downloads.WaitNext returns it once it
// completed, and a second wait finds nothing new.
func TestWaitForDownloadCoversIndirectDownloads(t *testing.T) {
	p, _ := openShopWith(t, ConnectOptions{AllowDownloads: true})
	out := t.TempDir()
	since := time.Now()
	var ok bool
	p.CallInto(testCtx(t), &ok, `() => { setTimeout(() => document.getElementById('csv').click(), 200); return true }`)
	dl, err := p.Downloads().WaitNext(testCtx(t), since, out)
	if err != nil {
		t.Fatal(err)
	}
	if dl.Path != filepath.Join(out, "downloads", "report.csv") || dl.Size != 17 {
		t.Errorf("the download: %+v", dl)
	}
	ctx, cancel := context.WithTimeout(testCtx(t), time.Second)
	defer cancel()
	if _, err := p.Downloads().WaitNext(ctx, since, out); KindOf(err) != KindTimeout {
		t.Errorf("a second wait: want a timeout, got %v", err)
	}
}

// TestWaitForDownloadSaysDownloadsAreRefused: by default a download is
// refused, and the wait says how to allow it.
func TestWaitForDownloadSaysDownloadsAreRefused(t *testing.T) {
	p, _ := openShop(t)
	since := time.Now()
	clickSel(t, p, "#csv")
	_, err := p.Downloads().WaitNext(testCtx(t), since, t.TempDir())
	if KindOf(err) != KindStepValidation || !strings.Contains(err.Error(), "refused") || !strings.Contains(err.Error(), DownloadsEnv+"=allow") {
		t.Errorf("want a refusal naming %s, got %v", DownloadsEnv, err)
	}
}
