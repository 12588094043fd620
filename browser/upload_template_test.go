package browser

import (
	"net/http"
	"os"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// openUploadsInCrossSiteFrame opens a page that embeds upload.html from
// another site (an out-of-process frame) and scopes the step to it.
func openUploadsInCrossSiteFrame(t *testing.T) *Page {
	t.Helper()
	other := browsertest.ServeOn(t, "127.0.0.2", http.FileServer(http.FS(os.DirFS("testdata"))))
	base := servePages(t, map[string]string{"page.html": `<!doctype html><title>Support</title>
<h1>Support</h1><p>Attach your files in the form below (another site's widget).</p>
<iframe name="uploads" src="` + other + `act/upload.html" style="width: 600px; height: 500px"></iframe>`})
	p := openTestTab(t)
	ctx := testCtx(t)
	if _, err := p.Navigate(ctx, base+"page.html", WaitLoad); err != nil {
		t.Fatal(err)
	}
	info, _, err := p.Frames().Switch(ctx, FrameSpec{Name: "uploads"})
	if err != nil {
		t.Fatal(err)
	}
	if !info.OutOfProcess {
		t.Fatalf("the uploads frame is not out of process: %+v", info)
	}
	js(t, p, "window.changes = 0, document.addEventListener('change', () => window.changes++, true), 0")
	return p
}

// An upload through a button that opens the file chooser, inside a
// cross-site frame: the chooser opens in the frame's own process, and the
// files reach the input it belongs to, which the page reads once.
func TestUploadThroughFileChooserInCrossSiteFrame(t *testing.T) {
	paths := uploadFiles(t, "invoice.txt", "total 42")
	p := openUploadsInCrossSiteFrame(t)
	res := upload(t, p, Target{Text: "Upload a file"}, paths[0])
	if res.Via != "chooser" || res.Count != 1 || res.Uploaded[0] != "invoice.txt" {
		t.Fatalf("chooser in a frame: %+v", res)
	}
	if got := pageTexts(t, p, "hidden-file"); got != `["total 42"]` {
		t.Fatalf("the page read %s", got)
	}
	if got := js(t, p, "window.changes"); got != "1" {
		t.Fatalf("change events = %s, want 1", got)
	}
}

// The direct path in a cross-site frame: the file input is set in the
// frame's process and the page reads the file once.
func TestUploadFileInputInCrossSiteFrame(t *testing.T) {
	paths := uploadFiles(t, "photo.txt", "pixels")
	p := openUploadsInCrossSiteFrame(t)
	res := upload(t, p, Target{Label: "Attachment"}, paths[0])
	if res.Via != "input" || res.Uploaded[0] != "photo.txt" || res.Element == nil {
		t.Fatalf("input in a frame: %+v", res)
	}
	if got := pageTexts(t, p, "file"); got != `["pixels"]` {
		t.Fatalf("the page read %s", got)
	}
	if got := js(t, p, "window.changes"); got != "1" {
		t.Fatalf("change events = %s, want 1", got)
	}
}
