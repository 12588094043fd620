package browser

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// TestPDFDirectorySwappedWhileRendering swaps the directory a PDF goes to
// for a symbolic link to another directory while Chrome renders it (the
// page's beforeprint handler asks the server to do it): the file must not
// land outside the output directory.
func TestPDFDirectorySwappedWhileRendering(t *testing.T) {
	dir := useOutputDir(t)
	outside := t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	var swapped atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/swap" {
			if err := os.Rename(sub, sub+".old"); err == nil && os.Symlink(outside, sub) == nil {
				swapped.Store(true)
			}
			w.Write([]byte("ok"))
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<p>report</p><script>
addEventListener('beforeprint', () => { const x = new XMLHttpRequest(); x.open('POST', '/swap', false); x.send(); });
</script>`))
	}))
	t.Cleanup(srv.Close)
	p := openTestTab(t)
	if _, err := p.Navigate(testCtx(t), srv.URL+"/", WaitLoad); err != nil {
		t.Fatal(err)
	}
	res, err := p.Camera().PDF(testCtx(t), PDFRequest{OutputDir: dir, Path: "sub/report.pdf"})
	if !swapped.Load() {
		t.Fatalf("the directory was not swapped during rendering (beforeprint did not run): %+v %v", res, err)
	}
	assertEmptyDir(t, outside)
	if err == nil {
		t.Fatalf("the PDF was reported written to %s although its directory now leads outside the output directory", res.Path)
	}
	if KindOf(err) != KindStepValidation || !strings.Contains(err.Error(), "changed while") {
		t.Errorf("the refusal does not say what happened: %v", err)
	}
}

func assertEmptyDir(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Fatalf("a capture escaped into %s: %v", dir, names)
	}
}

// TestCapturesReplaceHardLinks puts hard links to files outside the
// output directory where a screenshot and a PDF are written: the outside
// files keep their content, the captures get files of their own.
func TestCapturesReplaceHardLinks(t *testing.T) {
	dir := useOutputDir(t)
	outside := t.TempDir()
	p := loadHTML(t, `<p>hello</p>`)
	for _, name := range []string{"shot.png", "doc.pdf"} {
		victim := filepath.Join(outside, name)
		os.WriteFile(victim, []byte("precious"), 0o644)
		if err := os.Link(victim, filepath.Join(dir, name)); err != nil {
			t.Fatalf("make a hard link: %v", err)
		}
	}
	shoot(t, p, ScreenshotRequest{OutputDir: dir, Path: "shot.png"})
	if _, err := p.Camera().PDF(testCtx(t), PDFRequest{OutputDir: dir, Path: "doc.pdf"}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"shot.png", "doc.pdf"} {
		if data, _ := os.ReadFile(filepath.Join(outside, name)); string(data) != "precious" {
			t.Errorf("%s: the file outside was overwritten through a hard link (%d bytes now)", name, len(data))
		}
		info, err := os.Stat(filepath.Join(dir, name))
		if err != nil || info.Size() < 100 {
			t.Errorf("%s: no capture in the output dir: %v", name, err)
		}
	}
}

// TestUploadRefusesHardLinksAndReadsTheCheckedFile uploads a hard link to
// a file outside the allowed directories (refused), and swaps an uploaded
// file for a symbolic link to a secret before the page reads it: the page
// gets the content that was checked.
func TestUploadRefusesHardLinksAndReadsTheCheckedFile(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.txt")
	os.WriteFile(secret, []byte("secret"), 0o644)
	paths := uploadFiles(t, "a.txt", "alpha")
	allowed := filepath.Dir(paths[0])
	hard := filepath.Join(allowed, "hard.txt")
	if err := os.Link(secret, hard); err != nil {
		t.Fatalf("make a hard link: %v", err)
	}
	p, _ := openFixture(t, "upload.html")
	_, err := p.Upload(testCtx(t), Target{Selector: "#file"}, []string{hard}, UploadOptions{AllowedDirs: []string{allowed}})
	if KindOf(err) != KindStepValidation || !strings.Contains(err.Error(), "hard link") {
		t.Fatalf("a hard link to a file outside: %v", err)
	}
	if got := js(t, p, "document.getElementById('file').files.length"); got != "0" {
		t.Fatalf("a refused hard link reached the page: %s", got)
	}
	upload(t, p, Target{Label: "Attachment"}, paths[0])
	os.Remove(paths[0])
	if err := os.Symlink(secret, paths[0]); err != nil {
		t.Fatal(err)
	}
	got := js(t, p, `document.getElementById('file').files[0].text().catch((e) => 'error: ' + e.name)`)
	if got != `"alpha"` {
		t.Fatalf("after the uploaded file was swapped for a link to a secret, the page read %s", got)
	}
}
