package browser

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"math"

	"path/filepath"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"

	"github.com/cdp-skill/cdp-skill/browser/state"
	"github.com/cdp-skill/cdp-skill/browser/suggest"
)

// MaxScreenshotSide is the largest image side, in device pixels, a
// screenshot may have (spec §17.1).
const MaxScreenshotSide = 16384

// Rect is an area of the page in CSS pixels, in page (document)
// coordinates.
type Rect struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// ScreenshotRequest says what Camera.Screenshot captures and where it
// writes it. At most one of FullPage, Region and Element is set; none
// means the viewport.
type ScreenshotRequest struct {
	// Path is where to write, inside the output directory ("" = a unique
	// file in the state dir).
	Path string
	// OutputDir is the output directory ("" = the working directory).
	OutputDir string
	// Format is png, jpeg or webp; "" takes it from Path's extension, or
	// png.
	Format string
	// Quality (0-100) applies to jpeg and webp.
	Quality *int
	// OmitBackground makes the page's default white background
	// transparent (png, webp).
	OmitBackground bool
	// FullPage captures the whole scrollable page.
	FullPage bool
	// Region captures an area of the page.
	Region *Rect
	// Element captures an element's box, grown by Padding CSS pixels on
	// each side and clipped to the page.
	Element Target
	Padding float64
	// Timeout bounds the wait for Element (default DefaultActionTimeout).
	Timeout time.Duration
}

// ScreenshotResult is the file a screenshot step wrote.
type ScreenshotResult struct {
	// Path is absolute.
	Path string `json:"path"`
	// Width and Height are the image's pixels, read from the file (CSS
	// pixels times the device scale factor).
	Width  int    `json:"width"`
	Height int    `json:"height"`
	Bytes  int    `json:"bytes"`
	Format string `json:"format"`
	// Clip is the captured area of the page (CSS pixels) for full-page,
	// region and element captures.
	Clip *Rect `json:"clip,omitempty"`
	// Warnings are notes for the step result.
	Warnings []string `json:"-"`
}

// Camera makes pictures of the tab: screenshots (the viewport, the full
// page, a region or an element) and PDF prints. Reach it by Page.Camera.
type Camera struct {
	p *Page
}

// Screenshot captures the viewport, the full page, a region or an
// element, writes the image inside the output directory (or the state dir)
// and reports its real pixel size.
func (c *Camera) Screenshot(ctx context.Context, r ScreenshotRequest) (*ScreenshotResult, error) {
	format, err := r.format()
	if err != nil {
		return nil, err
	}
	if err := r.validate(); err != nil {
		return nil, err
	}
	out, err := OutputFile{Path: r.Path, Dir: r.OutputDir, Kind: "screenshot", Ext: "." + format, Exts: r.extensions(format)}.Open()
	if err != nil {
		return nil, err
	}
	defer out.Close()
	clip, beyond, err := c.clip(ctx, r)
	if err != nil {
		return nil, err
	}
	res := &ScreenshotResult{Path: out.Path, Format: format, Clip: clip, Warnings: r.warnings(format)}
	o := ScreenshotOptions{Format: format, OmitBackground: r.OmitBackground, BeyondViewport: beyond}
	if r.Quality != nil {
		o.Quality = max(*r.Quality, 1)
	}
	if clip != nil {
		o.Clip = &page.Viewport{X: clip.X, Y: clip.Y, Width: clip.Width, Height: clip.Height, Scale: 1}
	}
	data, err := c.Image(ctx, o)
	if err != nil {
		return nil, err
	}
	info, err := decodeImageInfo(bufio.NewReader(bytes.NewReader(data)))
	if err != nil {
		return nil, fmt.Errorf("screenshot: Chrome returned an image that does not decode: %w", err)
	}
	if err := out.Write(data); err != nil {
		return nil, err
	}
	res.Bytes = len(data)
	res.Width, res.Height = info.Width, info.Height
	return res, nil
}

// screenshotFormats maps file extensions to formats.
var screenshotFormats = map[string]string{".png": "png", ".jpg": "jpeg", ".jpeg": "jpeg", ".webp": "webp"}

// screenshotExts are the file extensions a screenshot may have, png first.
var screenshotExts = []string{".png", ".jpg", ".jpeg", ".webp"}

// extensions returns the extensions the path may end in: those of format
// when the request names one, else every image extension (the extension
// then decides the format).
func (r ScreenshotRequest) extensions(format string) []string {
	if strings.TrimSpace(r.Format) == "" {
		return screenshotExts
	}
	var exts []string
	for _, ext := range screenshotExts {
		if screenshotFormats[ext] == format {
			exts = append(exts, ext)
		}
	}
	return exts
}

// format normalizes the format, taking it from the path's extension when
// not given.
func (r ScreenshotRequest) format() (string, error) {
	f := strings.ToLower(strings.TrimSpace(r.Format))
	if f == "jpg" {
		f = "jpeg"
	}
	switch f {
	case "", "png", "jpeg", "webp":
	default:
		return "", Errorf(KindStepValidation, "screenshot format %q is not png, jpeg or webp", r.Format)
	}
	fromExt, known := screenshotFormats[strings.ToLower(filepath.Ext(r.Path))]
	switch {
	case f == "" && known:
		return fromExt, nil
	case f == "":
		return "png", nil
	case known && fromExt != f:
		return "", Errorf(KindStepValidation, "screenshot path %q has the extension of %s, but format is %s", r.Path, fromExt, f).
			WithHint("make them agree (or leave format out: the extension decides)")
	}
	return f, nil
}

// validate checks that at most one capture mode is set and the numbers
// make sense.
func (r ScreenshotRequest) validate() error {
	modes := 0
	for _, set := range []bool{r.FullPage, r.Region != nil, !r.Element.IsZero()} {
		if set {
			modes++
		}
	}
	switch {
	case modes > 1:
		return Errorf(KindStepValidation, "screenshot takes one of fullPage, region or an element (selector/ref/text), not several")
	case r.Quality != nil && (*r.Quality < 0 || *r.Quality > 100):
		return Errorf(KindStepValidation, "screenshot quality must be 0 to 100, not %d", *r.Quality)
	case r.Padding < 0 || math.IsNaN(r.Padding):
		return Errorf(KindStepValidation, "screenshot padding must be 0 or more, not %g", r.Padding)
	case r.Padding > 0 && r.Element.IsZero():
		return Errorf(KindStepValidation, "screenshot padding applies to an element capture").WithHint("give selector or ref with padding")
	case r.Region != nil && (r.Region.Width <= 0 || r.Region.Height <= 0):
		return Errorf(KindStepValidation, "screenshot region needs a positive width and height, got %g×%g", r.Region.Width, r.Region.Height).
			WithHint("give the region's x, y, width and height in page CSS pixels, e.g. 0, 0, 800, 600")
	}
	return nil
}

// warnings notes options the format ignores.
func (r ScreenshotRequest) warnings(format string) []string {
	var w []string
	if r.Quality != nil && format == "png" {
		w = append(w, "quality applies to jpeg and webp; the png is lossless")
	}
	if r.OmitBackground && format == "jpeg" {
		w = append(w, "jpeg has no transparency: omitBackground is ignored (use png or webp)")
	}
	return w
}

// pageMetrics are the page's size and scroll position in CSS pixels, and
// its device scale factor.
type pageMetrics struct {
	content  Rect
	viewport Rect
	dpr      float64
}

// layoutMetrics reads the page's layout metrics and device pixel ratio.
func (c *Camera) layoutMetrics(ctx context.Context) (pageMetrics, error) {
	lm, err := cdp.Call(ctx, c.p.sess, page.GetLayoutMetrics, cdp.Empty{})
	if err != nil {
		return pageMetrics{}, fmt.Errorf("screenshot: layout metrics: %w", err)
	}
	var m pageMetrics
	if cs := lm.CSSContentSize; cs != nil {
		m.content = Rect{Width: cs.Width, Height: cs.Height}
	}
	if vv := lm.CSSVisualViewport; vv != nil {
		m.viewport = Rect{X: vv.PageX, Y: vv.PageY, Width: vv.ClientWidth, Height: vv.ClientHeight}
	}
	res, err := cdp.Call(ctx, c.p.sess, runtime.Evaluate, runtime.EvaluateParams{Expression: "devicePixelRatio", ReturnByValue: ptr(true)})
	if err != nil {
		return m, fmt.Errorf("screenshot: device pixel ratio: %w", err)
	}
	m.dpr = 1
	if res.Result != nil {
		json.Unmarshal(res.Result.Value, &m.dpr)
	}
	return m, nil
}

// clip computes the clip of the request (nil for the viewport)
// and whether it reaches beyond the viewport.
func (c *Camera) clip(ctx context.Context, r ScreenshotRequest) (*Rect, bool, error) {
	if !r.FullPage && r.Region == nil && r.Element.IsZero() {
		return nil, false, nil
	}
	var el Rect
	if !r.Element.IsZero() {
		var err error
		if el, err = c.elementBox(ctx, r.Element, r.Timeout); err != nil {
			return nil, false, err
		}
	}
	m, err := c.layoutMetrics(ctx)
	if err != nil {
		return nil, false, err
	}
	box, mode, hint := r.area(el, m)
	clip, ok := intersectRect(box, m.content)
	if !ok {
		return nil, false, Errorf(KindStepValidation, "the %s (%s) lies outside the page (%g×%g CSS pixels)", mode, box, m.content.Width, m.content.Height)
	}
	clip = roundRect(clip)
	if w, h := clip.Width*m.dpr, clip.Height*m.dpr; w > MaxScreenshotSide || h > MaxScreenshotSide {
		return nil, false, Errorf(KindStepValidation, "the %s screenshot would be %.0f×%.0f pixels (%g×%g CSS pixels at device scale factor %g), more than the %d-pixel limit per side",
			mode, w, h, clip.Width, clip.Height, m.dpr, MaxScreenshotSide).WithAdvice(hint)
	}
	return &clip, !rectInside(m.viewport, clip), nil
}

// area returns the page area the request captures (el is the element's
// box in the viewport), the mode's name and what to do when it is too big.
func (r ScreenshotRequest) area(el Rect, m pageMetrics) (Rect, string, *suggest.Hint) {
	switch {
	case r.FullPage:
		return m.content, "full page", suggest.New("capture the viewport (%s) or a part with region (%s)", viewportShot, regionShot)
	case r.Region != nil:
		return *r.Region, "region", suggest.New("capture a smaller region")
	}
	box := Rect{X: el.X + m.viewport.X - r.Padding, Y: el.Y + m.viewport.Y - r.Padding, Width: el.Width + 2*r.Padding, Height: el.Height + 2*r.Padding}
	return box, "element", suggest.New("capture a part of it with region (%s), or the viewport (%s)", regionShot, viewportShot)
}

// viewportShot and regionShot are the screenshots a capture too big to
// take is told to take instead.
var (
	viewportShot = suggest.Step{Name: "screenshot", Value: true}
	regionShot   = suggest.Step{Name: "screenshot", Value: suggest.Args{{Key: "region", Value: suggest.Args{
		{Key: "x", Value: 0}, {Key: "y", Value: 0}, {Key: "width", Value: 800}, {Key: "height", Value: 600}}}}}
)

// String formats the rectangle for messages.
func (r Rect) String() string {
	return fmt.Sprintf("x %g, y %g, %g×%g", r.X, r.Y, r.Width, r.Height)
}

// intersectRect returns the overlap of a and b, and whether it is not empty.
func intersectRect(a, b Rect) (Rect, bool) {
	x0, y0 := math.Max(a.X, b.X), math.Max(a.Y, b.Y)
	x1, y1 := math.Min(a.X+a.Width, b.X+b.Width), math.Min(a.Y+a.Height, b.Y+b.Height)
	if x1 <= x0 || y1 <= y0 {
		return Rect{}, false
	}
	return Rect{X: x0, Y: y0, Width: x1 - x0, Height: y1 - y0}, true
}

// rectInside reports whether r lies inside outer (a pixel of slack).
func rectInside(outer, r Rect) bool {
	return r.X >= outer.X-1 && r.Y >= outer.Y-1 && r.X+r.Width <= outer.X+outer.Width+1 && r.Y+r.Height <= outer.Y+outer.Height+1
}

// roundRect snaps a rectangle outward to whole CSS pixels.
func roundRect(r Rect) Rect {
	x0, y0 := math.Floor(r.X+1e-6), math.Floor(r.Y+1e-6)
	x1, y1 := math.Ceil(r.X+r.Width-1e-6), math.Ceil(r.Y+r.Height-1e-6)
	return Rect{X: x0, Y: y0, Width: x1 - x0, Height: y1 - y0}
}

// elementBoxJS scrolls the element into view when it is not in it, and
// then waits for a rendered frame (so lazy content can paint), and returns
// its box in the frame's viewport.
const elementBoxJS = `async (el) => {
  const r = el.getBoundingClientRect();
  if (r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth) {
    return {x: r.left, y: r.top, width: r.width, height: r.height};
  }
  if (el.scrollIntoViewIfNeeded) el.scrollIntoViewIfNeeded(true); else el.scrollIntoView({block: 'center', inline: 'center'});
  await new Promise((done) => { requestAnimationFrame(() => requestAnimationFrame(done)); setTimeout(done, 100); });
  const s = el.getBoundingClientRect();
  return {x: s.left, y: s.top, width: s.width, height: s.height};
}`

// elementBox finds the element and returns its box in the top level
// viewport.
func (c *Camera) elementBox(ctx context.Context, t Target, timeout time.Duration) (Rect, error) {
	el, err := c.p.waitElement(ctx, t, timeout)
	if err != nil {
		return Rect{}, err
	}
	defer el.release()
	var box Rect
	if err := el.Call(ctx, &box, elementBoxJS); err != nil {
		return Rect{}, fmt.Errorf("screenshot %s: measure it: %w", t, err)
	}
	if box.Width <= 0 || box.Height <= 0 {
		return Rect{}, Errorf(KindElementNotFound, "%s has no size to capture (%g×%g): it is hidden or empty", t, box.Width, box.Height).
			WithHint("capture a visible element, or the region around it")
	}
	top, err := c.p.toTop(ctx, Point{X: box.X, Y: box.Y})
	if err != nil {
		return Rect{}, fmt.Errorf("screenshot %s: %w", t, err)
	}
	return Rect{X: top.X, Y: top.Y, Width: box.Width, Height: box.Height}, nil
}

// imageInfo is what an image file's header says.
type imageInfo struct {
	Format        string
	Width, Height int
}

// decodeImageInfo reads an image header from r.
func decodeImageInfo(r *bufio.Reader) (imageInfo, error) {
	head, _ := r.Peek(30)
	var cfg image.Config
	var err error
	switch {
	case bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")):
		cfg, err = png.DecodeConfig(r)
		return imageInfo{Format: "png", Width: cfg.Width, Height: cfg.Height}, err
	case bytes.HasPrefix(head, []byte{0xff, 0xd8}):
		cfg, err = jpeg.DecodeConfig(r)
		return imageInfo{Format: "jpeg", Width: cfg.Width, Height: cfg.Height}, err
	case len(head) >= 12 && string(head[:4]) == "RIFF" && string(head[8:12]) == "WEBP":
		w, h, err := webpSize(head)
		return imageInfo{Format: "webp", Width: w, Height: h}, err
	}
	return imageInfo{}, errors.New("not a png, jpeg or webp image")
}

// webpSize reads the canvas size from the first chunk of a WebP file
// (lossy VP8, lossless VP8L or extended VP8X).
func webpSize(head []byte) (int, int, error) {
	if len(head) < 30 {
		return 0, 0, io.ErrUnexpectedEOF
	}
	chunk, data := string(head[12:16]), head[20:]
	switch chunk {
	case "VP8 ":
		if data[3] != 0x9d || data[4] != 0x01 || data[5] != 0x2a {
			return 0, 0, errors.New("webp: bad VP8 start code")
		}
		w := binary.LittleEndian.Uint16(data[6:8]) & 0x3fff
		h := binary.LittleEndian.Uint16(data[8:10]) & 0x3fff
		return int(w), int(h), nil
	case "VP8L":
		if data[0] != 0x2f {
			return 0, 0, errors.New("webp: bad VP8L signature")
		}
		b1, b2, b3, b4 := int(data[1]), int(data[2]), int(data[3]), int(data[4])
		return 1 + ((b2&0x3f)<<8 | b1), 1 + ((b4&0x0f)<<10 | b3<<2 | (b2&0xc0)>>6), nil
	case "VP8X":
		w := int(data[4]) | int(data[5])<<8 | int(data[6])<<16
		h := int(data[7]) | int(data[8])<<8 | int(data[9])<<16
		return w + 1, h + 1, nil
	}
	return 0, 0, fmt.Errorf("webp: unknown chunk %q", chunk)
}

// ScreenshotOptions tune a screenshot.
type ScreenshotOptions struct {
	// Format is png (default), jpeg or webp.
	Format  string
	Quality int
	// Clip captures a region of the page (CSS pixels, page coordinates
	// when BeyondViewport).
	Clip           *page.Viewport
	BeyondViewport bool
	// OmitBackground makes the default white background transparent (png).
	OmitBackground bool
}

// SaveImage captures the viewport (or a clip) and writes it to path (a
// symbolic or hard link at path is replaced, not written through).
func (c *Camera) SaveImage(ctx context.Context, path string, o ScreenshotOptions) (int, error) {
	data, err := c.Image(ctx, o)
	if err != nil {
		return 0, err
	}
	if err := state.WriteFileAtomic(path, data, 0o600); err != nil {
		return 0, fmt.Errorf("screenshot: %w", err)
	}
	return len(data), nil
}

// Image captures the viewport (or a clip) and returns the image.
func (c *Camera) Image(ctx context.Context, o ScreenshotOptions) ([]byte, error) {
	params := page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatPng, OptimizeForSpeed: ptr(true)}
	switch o.Format {
	case "", "png":
	case "jpeg", "jpg":
		params.Format = page.CaptureScreenshotFormatJpeg
	case "webp":
		params.Format = page.CaptureScreenshotFormatWebp
	default:
		return nil, Errorf(KindStepValidation, "screenshot format %q is not png, jpeg or webp", o.Format)
	}
	if o.Quality > 0 && params.Format != page.CaptureScreenshotFormatPng {
		params.Quality = ptr(int64(o.Quality))
	}
	if o.Clip != nil {
		params.Clip = o.Clip
	}
	if o.BeyondViewport {
		params.CaptureBeyondViewport = ptr(true)
	}
	if o.OmitBackground && params.Format != page.CaptureScreenshotFormatJpeg {
		if err := c.p.emu.setTransparentBackground(ctx, true); err == nil {
			defer c.p.emu.setTransparentBackground(context.WithoutCancel(ctx), false)
		}
	}
	res, err := cdp.Call(ctx, c.p.sess, page.CaptureScreenshot, params)
	if err != nil {
		return nil, fmt.Errorf("screenshot: %w", err)
	}
	return res.Data, nil
}
