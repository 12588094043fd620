package browser

import (
	"bytes"
	"compress/zlib"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
	"github.com/cdp-skill/cdp-skill/browser/state"
)

// useOutputDir returns a fresh output directory (the runtime passes the
// one CDP_SKILL_OUTPUT_DIR names; package browser reads no environment).
func useOutputDir(t *testing.T) string {
	t.Helper()
	return t.TempDir()
}

func shoot(t *testing.T, p *Page, r ScreenshotRequest) *ScreenshotResult {
	t.Helper()
	res, err := p.Camera().Screenshot(testCtx(t), r)
	if err != nil {
		t.Fatalf("screenshot %+v: %v", r, err)
	}
	if !filepath.IsAbs(res.Path) {
		t.Fatalf("path %q is not absolute", res.Path)
	}
	return res
}

// decodePNG reads a PNG the test wrote and checks that the reported size
// is the image's.
func decodePNG(t *testing.T, res *ScreenshotResult) image.Image {
	t.Helper()
	data, err := os.ReadFile(res.Path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("decode %s: %v", res.Path, err)
	}
	if b := img.Bounds(); b.Dx() != res.Width || b.Dy() != res.Height || len(data) != res.Bytes {
		t.Fatalf("reported %d×%d (%d bytes), the file is %d×%d (%d bytes)", res.Width, res.Height, res.Bytes, b.Dx(), b.Dy(), len(data))
	}
	return img
}

func capJSInt(t *testing.T, p *Page, expr string) int {
	t.Helper()
	f, err := strconv.ParseFloat(js(t, p, expr), 64)
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return int(f)
}

func capRGB(c color.Color) [3]uint32 {
	r, g, b, _ := c.RGBA()
	return [3]uint32{r >> 8, g >> 8, b >> 8}
}

func TestScreenshotViewportAndFullPage(t *testing.T) {
	dir := useOutputDir(t)
	p, _ := openFixture(t, "capture.html")
	res := shoot(t, p, ScreenshotRequest{OutputDir: dir, Path: "shots/view.png"})
	if res.Path != filepath.Join(dir, "shots", "view.png") || res.Format != "png" || res.Clip != nil {
		t.Fatalf("viewport shot: %+v", res)
	}
	decodePNG(t, res)
	if w, h := capJSInt(t, p, "innerWidth"), capJSInt(t, p, "innerHeight"); res.Width != w || res.Height != h {
		t.Errorf("viewport shot is %d×%d, the viewport %d×%d", res.Width, res.Height, w, h)
	}

	full := shoot(t, p, ScreenshotRequest{OutputDir: dir, Path: "full.png", FullPage: true})
	img := decodePNG(t, full)
	if h := capJSInt(t, p, "document.documentElement.scrollHeight"); full.Height != h || h != 2400 {
		t.Errorf("full page height %d, scrollHeight %d", full.Height, h)
	}
	if w := capJSInt(t, p, "document.documentElement.scrollWidth"); full.Width != w {
		t.Errorf("full page width %d, scrollWidth %d", full.Width, w)
	}
	if got := capRGB(img.At(100, 1050)); got != [3]uint32{0, 0, 255} {
		t.Errorf("the blue block below the fold is %v in the full-page shot", got)
	}

	// The device scale factor multiplies the pixels.
	if _, err := p.Emulation().SetViewport(testCtx(t), ViewportRequest{Width: 800, Height: 600, DeviceScaleFactor: 2}); err != nil {
		t.Fatal(err)
	}
	hidpi := shoot(t, p, ScreenshotRequest{OutputDir: dir, FullPage: true})
	decodePNG(t, hidpi)
	if h := capJSInt(t, p, "document.documentElement.scrollHeight * devicePixelRatio"); hidpi.Height != h || h != 4800 {
		t.Errorf("full page at scale 2: height %d, want %d", hidpi.Height, h)
	}
	if !strings.HasPrefix(hidpi.Path, filepath.Join(state.Dir(), "screenshots")+string(filepath.Separator)) {
		t.Errorf("a shot without path went to %s, not the state dir", hidpi.Path)
	}
}

func TestScreenshotRegionAndElement(t *testing.T) {
	dir := useOutputDir(t)
	p, _ := openFixture(t, "capture.html")
	region := shoot(t, p, ScreenshotRequest{OutputDir: dir, Path: "region.png", Region: &Rect{X: 10, Y: 1010, Width: 150, Height: 60}})
	img := decodePNG(t, region)
	if region.Width != 150 || region.Height != 60 || capRGB(img.At(0, 0)) != [3]uint32{0, 0, 255} || capRGB(img.At(149, 59)) != [3]uint32{0, 0, 255} {
		t.Fatalf("region below the fold: %+v corner %v", region, capRGB(img.At(0, 0)))
	}
	// Page coordinates hold when the page is scrolled.
	js(t, p, "scrollTo(0, 900)")
	top := shoot(t, p, ScreenshotRequest{OutputDir: dir, Path: "top.png", Region: &Rect{X: 0, Y: 0, Width: 100, Height: 50}})
	if got := capRGB(decodePNG(t, top).At(50, 25)); got != [3]uint32{255, 0, 0} {
		t.Errorf("region at the top of the scrolled page is %v, want red", got)
	}

	el := shoot(t, p, ScreenshotRequest{OutputDir: dir, Path: "box.png", Element: Target{Selector: "#box"}, Padding: 10})
	img = decodePNG(t, el)
	if el.Width != 140 || el.Height != 100 || *el.Clip != (Rect{X: 290, Y: 1490, Width: 140, Height: 100}) {
		t.Fatalf("element with padding: %+v clip %+v", el, el.Clip)
	}
	if capRGB(img.At(70, 50)) != [3]uint32{0, 128, 0} || capRGB(img.At(3, 3)) != [3]uint32{255, 255, 255} {
		t.Errorf("element shot: centre %v, padding %v", capRGB(img.At(70, 50)), capRGB(img.At(3, 3)))
	}
	edge := shoot(t, p, ScreenshotRequest{OutputDir: dir, Path: "edge.png", Element: Target{Selector: "#edge"}, Padding: 20})
	if *edge.Clip != (Rect{X: 0, Y: 2280, Width: 80, Height: 80}) || edge.Width != 80 || edge.Height != 80 {
		t.Errorf("padding is not clipped to the page: %+v clip %+v", edge, edge.Clip)
	}
	s, err := p.Snapshot(testCtx(t), SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	byRef := shoot(t, p, ScreenshotRequest{OutputDir: dir, Path: "ref.png", Element: Target{Ref: refOf(t, s.YAML, `button "Green box"`)}})
	if byRef.Width != 120 || byRef.Height != 80 {
		t.Errorf("element by ref: %+v", byRef)
	}
	_, err = p.Camera().Screenshot(testCtx(t), ScreenshotRequest{OutputDir: dir, Element: Target{Selector: "#hidden"}})
	if KindOf(err) != KindElementNotFound || !strings.Contains(err.Error(), "no size") {
		t.Errorf("hidden element: %v", err)
	}
}

func TestScreenshotElementInFrame(t *testing.T) {
	dir := useOutputDir(t)
	base := servePages(t, map[string]string{
		"outer.html": `<!doctype html><style>body{margin:0}</style><div style="height:300px"></div>` +
			`<iframe id="f" src="/inner.html" style="position:absolute;left:100px;top:300px;width:400px;height:200px;border:0"></iframe>`,
		"inner.html": `<!doctype html><style>body{margin:0}</style><div id="dot" style="margin:30px 0 0 50px;width:40px;height:20px;background:rgb(0,0,255)"></div>`,
	})
	p := openTestTab(t)
	ctx := testCtx(t)
	if _, err := p.Navigate(ctx, base+"outer.html", WaitLoad); err != nil {
		t.Fatal(err)
	}
	if _, _, err := p.Frames().Switch(ctx, FrameSpec{Selector: "#f"}); err != nil {
		t.Fatal(err)
	}
	res := shoot(t, p, ScreenshotRequest{OutputDir: dir, Path: "dot.png", Element: Target{Selector: "#dot"}, Padding: 2})
	img := decodePNG(t, res)
	if *res.Clip != (Rect{X: 148, Y: 328, Width: 44, Height: 24}) || capRGB(img.At(22, 12)) != [3]uint32{0, 0, 255} || capRGB(img.At(0, 0)) != [3]uint32{255, 255, 255} {
		t.Errorf("element in a frame: clip %+v centre %v corner %v", res.Clip, capRGB(img.At(22, 12)), capRGB(img.At(0, 0)))
	}
}

func TestScreenshotFormatsAndTransparency(t *testing.T) {
	dir := useOutputDir(t)
	p := loadHTML(t, `<!doctype html><style>html,body{margin:0}</style><div style="width:50px;height:50px;background:red"></div>`)
	w, h := capJSInt(t, p, "innerWidth"), capJSInt(t, p, "innerHeight")
	for _, tc := range []struct {
		req    ScreenshotRequest
		format string
	}{
		{ScreenshotRequest{OutputDir: dir, Path: "a.jpg"}, "jpeg"},
		{ScreenshotRequest{OutputDir: dir, Path: "b", Format: "jpeg", Quality: ptr(40)}, "jpeg"},
		{ScreenshotRequest{OutputDir: dir, Path: "c.webp", Quality: ptr(50)}, "webp"},
		{ScreenshotRequest{OutputDir: dir, Path: "d.webp"}, "webp"},
		{ScreenshotRequest{OutputDir: dir, Path: "e.webp", OmitBackground: true}, "webp"},
	} {
		res := shoot(t, p, tc.req)
		info, err := readImageInfo(res.Path)
		if err != nil || res.Format != tc.format || info.Format != tc.format || res.Width != w || res.Height != h {
			t.Errorf("%+v: %+v, file %+v %v", tc.req, res, info, err)
		}
		if filepath.Ext(res.Path) == "" {
			t.Errorf("%s has no extension", res.Path)
		}
	}
	clear := shoot(t, p, ScreenshotRequest{OutputDir: dir, Path: "clear.png", OmitBackground: true})
	img := decodePNG(t, clear)
	if _, _, _, a := img.At(200, 200).RGBA(); a != 0 {
		t.Errorf("omitBackground: the background has alpha %d", a)
	}
	if _, _, _, a := img.At(10, 10).RGBA(); a != 0xffff {
		t.Errorf("omitBackground: the red block has alpha %d", a)
	}
	if _, _, _, a := decodePNG(t, shoot(t, p, ScreenshotRequest{OutputDir: dir, Path: "opaque.png"})).At(200, 200).RGBA(); a != 0xffff {
		t.Errorf("the background stayed transparent after omitBackground (alpha %d)", a)
	}
	_, err := p.Camera().Screenshot(testCtx(t), ScreenshotRequest{OutputDir: dir, Path: "x.png", Format: "jpeg"})
	if KindOf(err) != KindStepValidation {
		t.Errorf("extension and format disagree: %v", err)
	}
}

func TestScreenshotPathOutsideOutputDirIsRefused(t *testing.T) {
	dir := useOutputDir(t)
	outside := t.TempDir()
	p := loadHTML(t, `<p>hello</p>`)
	os.Symlink(outside, filepath.Join(dir, "link"))
	os.Symlink(filepath.Join(outside, "new.png"), filepath.Join(dir, "dangling.png"))
	for _, path := range []string{
		filepath.Join(outside, "abs.png"),
		"../" + filepath.Base(outside) + "/rel.png",
		"link/through.png",
		"dangling.png",
	} {
		_, err := p.Camera().Screenshot(testCtx(t), ScreenshotRequest{OutputDir: dir, Path: path})
		if KindOf(err) != KindStepValidation || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), OutputDirEnv) {
			t.Errorf("%s: %v", path, err)
		}
	}
	entries, _ := os.ReadDir(outside)
	if len(entries) != 0 {
		t.Fatalf("a refused screenshot wrote into %s: %v", outside, entries)
	}
	res := shoot(t, p, ScreenshotRequest{OutputDir: dir, Path: "sub/dir/"})
	if filepath.Dir(res.Path) != filepath.Join(dir, "sub", "dir") || filepath.Ext(res.Path) != ".png" {
		t.Errorf("a directory path: %s", res.Path)
	}
	inside := shoot(t, p, ScreenshotRequest{OutputDir: dir, Path: filepath.Join(dir, "abs.png")})
	if inside.Path != filepath.Join(dir, "abs.png") {
		t.Errorf("an absolute path inside: %s", inside.Path)
	}
}

func TestScreenshotFullPageTooTall(t *testing.T) {
	dir := useOutputDir(t)
	p := loadHTML(t, `<div style="height:20000px">tall</div>`)
	_, err := p.Camera().Screenshot(testCtx(t), ScreenshotRequest{OutputDir: dir, Path: "tall.png", FullPage: true})
	if KindOf(err) != KindStepValidation || !strings.Contains(err.Error(), "16384") || !strings.Contains(err.Error(), "region") {
		t.Fatalf("too tall: %v", err)
	}
}

func TestImageHeaders(t *testing.T) {
	vp8l := append([]byte("RIFF\x00\x00\x00\x00WEBPVP8L\x00\x00\x00\x00\x2f"), 0x3f, 0x40, 0x1f, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0)
	w, h, err := webpSize(vp8l)
	if err != nil || w != 64 || h != 126 {
		t.Errorf("VP8L: %d×%d %v", w, h, err)
	}
	vp8x := append([]byte("RIFF\x00\x00\x00\x00WEBPVP8X\x0a\x00\x00\x00\x10\x00\x00\x00"), 0xff, 0x02, 0x00, 0x1f, 0x01, 0x00, 0, 0)
	w, h, err = webpSize(vp8x)
	if err != nil || w != 768 || h != 288 {
		t.Errorf("VP8X: %d×%d %v", w, h, err)
	}
}

func TestPDFPagesAndOptions(t *testing.T) {
	dir := useOutputDir(t)
	p, _ := openFixture(t, "print.html")
	ctx := testCtx(t)
	res, err := p.Camera().PDF(ctx, PDFRequest{OutputDir: dir, Path: "doc.pdf"})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(res.Path)
	if err != nil || res.Path != filepath.Join(dir, "doc.pdf") || res.Pages != 3 || res.Bytes != len(data) || !bytes.HasPrefix(data, []byte("%PDF-")) {
		t.Fatalf("pdf: %+v (read: %v)", res, err)
	}
	two, err := p.Camera().PDF(ctx, PDFRequest{OutputDir: dir, Path: "two", PageRanges: "2-3", Format: "A4", Landscape: true, Margin: Margins{Top: ptr(1.0)}})
	if err != nil || two.Pages != 2 || filepath.Ext(two.Path) != ".pdf" {
		t.Fatalf("page ranges: %+v %v", two, err)
	}
	data, _ = os.ReadFile(two.Path)
	box := regexp.MustCompile(`/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)`).FindSubmatch(data)
	if box == nil {
		t.Fatal("no MediaBox")
	}
	if w, _ := strconv.ParseFloat(string(box[1]), 64); w < 840 || w > 843 {
		t.Errorf("A4 landscape MediaBox is %s×%s points", box[1], box[2])
	}
	if _, err := p.Camera().PDF(ctx, PDFRequest{OutputDir: dir, Format: "B7"}); KindOf(err) != KindStepValidation || !strings.Contains(err.Error(), "A4") {
		t.Errorf("unknown paper: %v", err)
	}
	if _, err := p.Camera().PDF(ctx, PDFRequest{OutputDir: dir, PageRanges: "7-9"}); err == nil {
		t.Error("a page range beyond the document printed")
	}
	if _, err := p.Camera().PDF(ctx, PDFRequest{OutputDir: dir, Path: "/etc/nope.pdf"}); KindOf(err) != KindStepValidation {
		t.Errorf("pdf outside the output dir: %v", err)
	}
}

func TestCheckPDF(t *testing.T) {
	var objStm bytes.Buffer
	zw := zlib.NewWriter(&objStm)
	fmt.Fprint(zw, "3 0 4 40 << /Type /Page /Parent 2 0 R >> << /Type /Page /Parent 2 0 R >>")
	zw.Close()
	var pdf bytes.Buffer
	fmt.Fprintf(&pdf, "%%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R 4 0 R 5 0 R] /Count 3 >>\nendobj\n")
	fmt.Fprintf(&pdf, "5 0 obj\n<< /Type /Page /Parent 2 0 R >>\nendobj\n")
	fmt.Fprintf(&pdf, "6 0 obj\n<< /Type /ObjStm /N 2 /First 8 /Filter /FlateDecode /Length %d >>\nstream\n", objStm.Len())
	pdf.Write(objStm.Bytes())
	fmt.Fprintf(&pdf, "\nendstream\nendobj\n7 0 obj\n<< /Type /XRef /Size 8 >>\nstream\n\nendstream\nendobj\nstartxref\n400\n%%%%EOF\n")
	if n, err := CheckPDF(pdf.Bytes()); err != nil || n != 3 {
		t.Fatalf("object streams: %d pages, %v", n, err)
	}
	for name, broken := range map[string][]byte{
		"no header": bytes.TrimPrefix(pdf.Bytes(), []byte("%PDF-")),
		"truncated": pdf.Bytes()[:pdf.Len()/2],
		"no xref":   []byte("%PDF-1.4\n1 0 obj << /Type /Page >> endobj\n%%EOF\n"),
	} {
		if _, err := CheckPDF(broken); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestCookieSetGetClear(t *testing.T) {
	p, base := openFixture(t, "mobile.html")
	ctx := testCtx(t)
	// Cookies are per host, not per port: start from none on 127.0.0.1.
	if _, err := p.Storage().Cookies(ctx, CookieRequest{Clear: &CookieFilter{}}); err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("v", 300)
	res, err := p.Storage().Cookies(ctx, CookieRequest{Set: []CookieInput{
		{Name: "sid", Value: "abc"},
		{Name: "secret", Value: "hidden", HTTPOnly: true, SameSite: "lax"},
		{Name: "long", Value: long},
		{Name: "elsewhere", Value: "x", URL: "http://other.test/"},
	}})

	if err != nil || res.Set != 4 {
		t.Fatalf("set: %+v %v", res, err)
	}
	if got := js(t, p, "document.cookie"); !strings.Contains(got, "sid=abc") || strings.Contains(got, "secret") || strings.Contains(got, "elsewhere") {
		t.Fatalf("document.cookie = %s", got)
	}
	mine, err := p.Storage().Cookies(ctx, CookieRequest{})
	if err != nil || *mine.Count != 3 {
		t.Fatalf("get: %+v %v", mine, err)
	}
	byName := map[string]CookieInfo{}
	for _, c := range mine.Cookies {
		byName[c.Name] = c
	}
	if c := byName["secret"]; !c.HTTPOnly || c.Value != "hidden" || c.SameSite != "Lax" || !c.Session {
		t.Errorf("httpOnly cookie: %+v", c)
	}
	if c := byName["long"]; !c.Truncated || len([]rune(c.Value)) != MaxCookieValue+1 || c.Size != 304 {
		t.Errorf("long cookie: truncated=%v len=%d size=%d", c.Truncated, len(c.Value), c.Size)
	}
	other, _ := p.Storage().Cookies(ctx, CookieRequest{Get: &CookieFilter{URLs: []string{"http://other.test/"}}})
	if *other.Count != 1 || other.Cookies[0].Name != "elsewhere" {
		t.Errorf("get by url: %+v", other)
	}
	named, _ := p.Storage().Cookies(ctx, CookieRequest{Get: &CookieFilter{Name: "sid"}})
	if *named.Count != 1 || named.Cookies[0].Value != "abc" {
		t.Errorf("get by name: %+v", named)
	}
	cleared, err := p.Storage().Cookies(ctx, CookieRequest{Clear: &CookieFilter{}, Get: &CookieFilter{}})
	if err != nil || cleared.Cleared != 3 || *cleared.Count != 0 || js(t, p, "document.cookie") != `""` {
		t.Fatalf("clear: %+v %v cookie=%s", cleared, err, js(t, p, "document.cookie"))
	}
	dom, _ := p.Storage().Cookies(ctx, CookieRequest{Clear: &CookieFilter{Domain: "other.test"}, Get: &CookieFilter{URLs: []string{"http://other.test/"}}})
	if dom.Cleared != 1 || *dom.Count != 0 {
		t.Errorf("clear by domain: %+v", dom)
	}
	for _, bad := range []CookieInput{{Value: "no name"}, {Name: "x", SameSite: "sometimes"}} {
		if _, err := p.Storage().Cookies(ctx, CookieRequest{Set: []CookieInput{bad}}); KindOf(err) != KindStepValidation {
			t.Errorf("bad cookie %+v: %v", bad, err)
		}
	}
	blank := openTestTab(t)
	if _, err := blank.Storage().Cookies(ctx, CookieRequest{Set: []CookieInput{{Name: "a", Value: "b"}}}); KindOf(err) != KindStepValidation || !strings.Contains(err.Error(), "url") {
		t.Errorf("a cookie without url on a blank tab: %v", err)
	}
	if res, err := blank.Storage().Cookies(ctx, CookieRequest{Set: []CookieInput{{Name: "a", Value: "b", URL: base}}, Get: &CookieFilter{URLs: []string{base}}}); err != nil || *res.Count != 1 {
		t.Errorf("a cookie with url on a blank tab: %+v %v", res, err)
	}
	if res, err := blank.Storage().Cookies(ctx, CookieRequest{Clear: &CookieFilter{URLs: []string{base}}}); err != nil || res.Cleared != 1 {
		t.Errorf("clear by url: %+v %v", res, err)
	}
}

func TestViewportPresetEmulatesDevice(t *testing.T) {
	dir := useOutputDir(t)
	p, _ := openFixture(t, "mobile.html")
	ctx := testCtx(t)
	before := js(t, p, "[innerWidth, devicePixelRatio, navigator.userAgent]")
	res, err := p.Emulation().SetViewport(ctx, ViewportRequest{Preset: "iPhone_14"})
	if err != nil || res.Name != "iphone-14" || res.Width != 390 || res.Height != 844 || res.DeviceScaleFactor != 3 || !res.Mobile || !res.HasTouch {
		t.Fatalf("iphone-14: %+v %v", res, err)
	}
	if got := js(t, p, "[screen.width, innerWidth, devicePixelRatio, /iPhone/.test(navigator.userAgent), matchMedia('(pointer: coarse)').matches, navigator.maxTouchPoints > 0]"); got != "[390,390,3,true,true,true]" {
		t.Errorf("the page sees %s", got)
	}
	shot := shoot(t, p, ScreenshotRequest{OutputDir: dir})
	if shot.Width != 1170 || shot.Height != 2532 {
		t.Errorf("iphone-14 screenshot is %d×%d", shot.Width, shot.Height)
	}
	for _, r := range []ViewportRequest{{Preset: "iphone-14-landscape"}, {Preset: "iphone-14", IsLandscape: ptr(true)}} {
		res, err = p.Emulation().SetViewport(ctx, r)
		if err != nil || res.Width != 844 || res.Height != 390 || !res.IsLandscape || res.Name != "iphone-14-landscape" {
			t.Fatalf("%+v: %+v %v", r, res, err)
		}
		if got := js(t, p, "[innerWidth, screen.orientation.type]"); got != `[844,"landscape-primary"]` {
			t.Errorf("landscape: the page sees %s", got)
		}
	}
	if _, err = p.Emulation().SetViewport(ctx, ViewportRequest{Width: 500, Height: 400, DeviceScaleFactor: 2}); err != nil {
		t.Fatal(err)
	}
	if got := js(t, p, "[innerWidth, innerHeight, devicePixelRatio, /iPhone/.test(navigator.userAgent)]"); got != "[500,400,2,false]" {
		t.Errorf("custom viewport: the page sees %s", got)
	}
	if res, err = p.Emulation().SetViewport(ctx, ViewportRequest{Reset: true}); err != nil || !res.Reset {
		t.Fatalf("reset: %+v %v", res, err)
	}
	if got := js(t, p, "[innerWidth, devicePixelRatio, navigator.userAgent]"); got != before {
		t.Errorf("after reset the page sees %s, before %s", got, before)
	}
}

// TestViewportPresetsAndErrors: an unknown preset is refused with close
// names, and so are bad sizes (the presets themselves are tested in
// browser/device).
func TestViewportPresetsAndErrors(t *testing.T) {
	if d, err := LookupDevice("Galaxy S23"); err != nil || d.Name != "galaxy-s23" {
		t.Errorf("spaces and case: %+v %v", d, err)
	}
	_, err := LookupDevice("iphone-99")
	if KindOf(err) != KindStepValidation || !strings.Contains(err.Error(), "close names: iphone-") {
		t.Errorf("unknown preset: %v", err)
	}
	p := openTestTab(t)
	for _, r := range []ViewportRequest{{Width: 100}, {Width: 100000, Height: 10}, {Preset: "nokia-3310"}} {
		if _, err := p.Emulation().SetViewport(testCtx(t), r); KindOf(err) != KindStepValidation {
			t.Errorf("%+v: %v", r, err)
		}
	}
}

const geoJS = `new Promise((resolve) => navigator.geolocation.getCurrentPosition(
  (p) => resolve({acc: p.coords.accuracy, lat: p.coords.latitude, lon: p.coords.longitude}),
  (e) => resolve({error: e.code}), {timeout: 5000}))`

func TestGeolocationOverride(t *testing.T) {
	p, base := openFixture(t, "mobile.html")
	ctx := testCtx(t)
	res, err := p.Emulation().SetGeolocation(ctx, Geolocation{Latitude: 48.8584, Longitude: 2.2945, Accuracy: 25})
	if err != nil || res.Permission != "granted" || res.Origin != strings.TrimSuffix(base, "/") {
		t.Fatalf("set: %+v %v", res, err)
	}
	if got := js(t, p, geoJS); got != `{"acc":25,"lat":48.8584,"lon":2.2945}` {
		t.Fatalf("the page located itself at %s", got)
	}
	if _, err := p.Emulation().ClearGeolocation(ctx); err != nil {
		t.Fatal(err)
	}
	var after map[string]any
	json.Unmarshal([]byte(js(t, p, geoJS)), &after)
	if after["lat"] != nil || after["error"] == nil {
		t.Errorf("after clear the page got %v", after)
	}
	if _, err := p.Emulation().SetGeolocation(ctx, Geolocation{Latitude: 91, Longitude: 0}); KindOf(err) != KindStepValidation {
		t.Errorf("latitude 91: %v", err)
	}

	// On a blank tab the permission covers the page loaded next (from
	// another origin than the one cleared above).
	other := browsertest.Serve(t, os.DirFS("testdata"))
	blank := openTestTab(t)
	res, err = blank.Emulation().SetGeolocation(ctx, Geolocation{Latitude: -33.8568, Longitude: 151.2153})
	if err != nil || res.Origin != "*" || *res.Accuracy != DefaultGeoAccuracy {
		t.Fatalf("blank tab: %+v %v", res, err)
	}
	if _, err := blank.Navigate(ctx, other+"act/mobile.html", WaitLoad); err != nil {
		t.Fatal(err)
	}
	if got := js(t, blank, geoJS); got != `{"acc":10,"lat":-33.8568,"lon":151.2153}` {
		t.Errorf("after navigating the page located itself at %s", got)
	}
}

// treeFiles reads every file under dir, by relative path (directories
// read as "<dir>").
func treeFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if d.IsDir() {
			files[rel] = "<dir>"
			return nil
		}
		data, err := os.ReadFile(path)
		files[rel] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestCaptureRefusesForeignExtensionsAndHiddenPaths(t *testing.T) {
	dir := useOutputDir(t)
	for name, content := range map[string]string{
		"main.go": "package main\n", "go.mod": "module x\n", "notes.txt": "notes\n", ".env": "TOKEN=1\n",
		".git/config": "[core]\n", ".git/HEAD": "ref: refs/heads/main\n", "sub/.hidden.png": "not a png",
	} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A link with an image name to a source file is refused too.
	if err := os.Symlink("main.go", filepath.Join(dir, "alias.png")); err != nil {
		t.Fatal(err)
	}
	before := treeFiles(t, dir)
	p := loadHTML(t, `<p>hello</p>`)
	ctx := testCtx(t)
	for _, tc := range []struct {
		req  ScreenshotRequest
		want string
	}{
		{ScreenshotRequest{OutputDir: dir, Path: "main.go"}, ".png, .jpg, .jpeg or .webp"},
		{ScreenshotRequest{OutputDir: dir, Path: "notes.txt", Format: "png"}, ".png"},
		{ScreenshotRequest{OutputDir: dir, Path: "go.mod", Format: "jpeg"}, ".jpg or .jpeg"},
		{ScreenshotRequest{OutputDir: dir, Path: "doc.pdf"}, ".png, .jpg, .jpeg or .webp"},
		{ScreenshotRequest{OutputDir: dir, Path: "alias.png"}, ".png, .jpg, .jpeg or .webp"},
		{ScreenshotRequest{OutputDir: dir, Path: ".env"}, "hidden"},
		{ScreenshotRequest{OutputDir: dir, Path: ".git/config"}, "hidden"},
		{ScreenshotRequest{OutputDir: dir, Path: ".git/HEAD.png"}, "hidden"},
		{ScreenshotRequest{OutputDir: dir, Path: ".git"}, "hidden"},
		{ScreenshotRequest{OutputDir: dir, Path: ".git/"}, "hidden"},
		{ScreenshotRequest{OutputDir: dir, Path: "sub/.hidden.png"}, "hidden"},
		{ScreenshotRequest{OutputDir: dir, Path: "sub/../.git/new.png"}, "hidden"},
		{ScreenshotRequest{OutputDir: dir, Path: filepath.Join(dir, ".git", "abs.png")}, "hidden"},
	} {
		_, err := p.Camera().Screenshot(ctx, tc.req)
		if KindOf(err) != KindStepValidation || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("screenshot %+v: %v (want %q)", tc.req, err, tc.want)
		}
	}
	for _, path := range []string{"go.mod", "main.go", "page.png", ".git/config", ".git/", ".pdf", "sub/.x/doc.pdf"} {
		_, err := p.Camera().PDF(ctx, PDFRequest{OutputDir: dir, Path: path})
		want := ".pdf"
		if strings.Contains(path, "/.") || strings.HasPrefix(path, ".") {
			want = "hidden"
		}
		if KindOf(err) != KindStepValidation || !strings.Contains(err.Error(), want) {
			t.Errorf("pdf %q: %v (want %q)", path, err, want)
		}
	}
	after := treeFiles(t, dir)
	for name, content := range after {
		if was, ok := before[name]; !ok {
			t.Errorf("a refused capture wrote %s", name)
		} else if was != content {
			t.Errorf("a refused capture overwrote %s", name)
		}
	}
	if t.Failed() {
		t.FailNow()
	}

	// Image and PDF names still work, and a name without extension gets one.
	for path, want := range map[string]string{"a.png": "a.png", "b.JPG": "b.JPG", "c.jpeg": "c.jpeg", "d.webp": "d.webp", "e": "e.png", "shots/f": "shots/f.png", "./g.png": "g.png"} {
		if res := shoot(t, p, ScreenshotRequest{OutputDir: dir, Path: path}); res.Path != filepath.Join(dir, want) {
			t.Errorf("screenshot %q went to %s", path, res.Path)
		}
	}
	if res := shoot(t, p, ScreenshotRequest{OutputDir: dir, Path: "h", Format: "jpeg"}); res.Path != filepath.Join(dir, "h.jpeg") {
		t.Errorf("jpeg without extension went to %s", res.Path)
	}
	for path, want := range map[string]string{"doc.pdf": "doc.pdf", "Doc.PDF": "Doc.PDF", "report": "report.pdf"} {
		res, err := p.Camera().PDF(ctx, PDFRequest{OutputDir: dir, Path: path})
		if err != nil || res.Path != filepath.Join(dir, want) {
			t.Errorf("pdf %q: %+v %v", path, res, err)
		}
	}
}

// geoPermissionJS reads the geolocation permission the page sees.
const geoPermissionJS = `navigator.permissions.query({name: "geolocation"}).then((s) => s.state)`

func TestGeolocationClearRevokesTheGrantOfABlankTab(t *testing.T) {
	ctx := testCtx(t)
	first := browsertest.Serve(t, os.DirFS("testdata"))
	second := browsertest.Serve(t, os.DirFS("testdata"))
	p := openTestTab(t)
	res, err := p.Emulation().SetGeolocation(ctx, Geolocation{Latitude: 48.8584, Longitude: 2.2945})
	if err != nil || res.Origin != "*" {
		t.Fatalf("set on a blank tab: %+v %v", res, err)
	}
	if _, err := p.Navigate(ctx, first+"act/mobile.html", WaitLoad); err != nil {
		t.Fatal(err)
	}
	cleared, err := p.Emulation().ClearGeolocation(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if cleared.Origin != "*" || cleared.Permission != "prompt" || !cleared.Cleared {
		t.Errorf("clear reset the permission of %q, not of every origin: %+v", cleared.Origin, cleared)
	}
	// A page from another origin gets neither the position nor the
	// permission.
	for _, pg := range []string{first, second} {
		if _, err := p.Navigate(ctx, pg+"act/mobile.html", WaitLoad); err != nil {
			t.Fatal(err)
		}
		if got := js(t, p, geoPermissionJS); got == `"granted"` {
			t.Errorf("%s: after clear the page still has the permission", pg)
		}
		var after map[string]any
		json.Unmarshal([]byte(js(t, p, geoJS)), &after)
		if after["lat"] != nil || after["error"] == nil {
			t.Errorf("%s: after clear the page got %v", pg, after)
		}
	}
}

func TestGeolocationRefusesToGuessTheOrigin(t *testing.T) {
	ctx := testCtx(t)
	base := browsertest.Serve(t, os.DirFS("testdata"))
	p := openTestTab(t)
	if _, err := p.Navigate(ctx, base+"act/mobile.html", WaitLoad); err != nil {
		t.Fatal(err)
	}
	// Another tab of the same browser context watches the permission.
	watch := openTestTab(t)
	if _, err := watch.Navigate(ctx, base+"act/other.html", WaitLoad); err != nil {
		t.Fatal(err)
	}
	// Detaching the page's session makes reading its URL fail while the
	// browser session still works.
	if _, err := cdp.Call(ctx, p.Browser.Session(), target.DetachFromTarget, target.DetachFromTargetParams{SessionID: p.sess.ID()}); err != nil {
		t.Fatal(err)
	}
	if res, err := p.Emulation().SetGeolocation(ctx, Geolocation{Latitude: 1, Longitude: 2}); err == nil {
		t.Fatalf("set without a readable URL: %+v", res)
	}
	if got := js(t, watch, geoPermissionJS); got == `"granted"` {
		t.Errorf("a failed read of the URL granted the permission to every origin")
	}
}
