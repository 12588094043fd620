package browser

import (
	"bytes"
	"compress/zlib"
	"context"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
)

// PaperSize is a paper format in inches.
type PaperSize struct {
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// PaperSizes are the paper formats pdf accepts by name (lower case).
var PaperSizes = map[string]PaperSize{
	"letter":  {8.5, 11},
	"legal":   {8.5, 14},
	"tabloid": {11, 17},
	"ledger":  {17, 11},
	"a0":      {33.1, 46.8},
	"a1":      {23.4, 33.1},
	"a2":      {16.54, 23.4},
	"a3":      {11.7, 16.54},
	"a4":      {8.27, 11.7},
	"a5":      {5.83, 8.27},
	"a6":      {4.13, 5.83},
}

// Margins are page margins in inches (nil = Chrome's default, 0.4 in).
type Margins struct {
	Top, Bottom, Left, Right *float64
}

// PDFRequest tunes Page.printToPDF (spec §17.3) and says where to write.
type PDFRequest struct {
	// Path is where to write, inside the output directory ("" = a unique
	// file in the state dir).
	Path string
	// OutputDir is the output directory ("" = the working directory).
	OutputDir string
	Landscape bool
	// Scale of the rendering, 0.1 to 2 (0 = 1).
	Scale float64
	// PageRanges such as "1-3, 5" (one based).
	PageRanges string
	Margin     Margins
	// Format names a paper size (A4, Letter, …); PaperWidth and
	// PaperHeight (inches) set one. Default: Letter.
	Format                  string
	PaperWidth, PaperHeight float64
	HeaderTemplate          string
	FooterTemplate          string
	// DisplayHeaderFooter defaults to true when a template is given.
	DisplayHeaderFooter *bool
	// PrintBackground defaults to true.
	PrintBackground   *bool
	PreferCSSPageSize bool
}

// PDFResult is the file a pdf step wrote.
type PDFResult struct {
	// Path is absolute.
	Path string `json:"path"`
	// Pages is counted from the PDF's page objects.
	Pages int `json:"pages"`
	Bytes int `json:"bytes"`
}

// PDF prints the page to a PDF, checks the file's structure and
// writes it inside the output directory (or the state dir).
func (c *Camera) PDF(ctx context.Context, r PDFRequest) (*PDFResult, error) {
	params, err := r.params()
	if err != nil {
		return nil, err
	}
	out, err := OutputFile{Path: r.Path, Dir: r.OutputDir, Kind: "pdf", Ext: ".pdf", Exts: []string{".pdf"}}.Open()
	if err != nil {
		return nil, err
	}
	defer out.Close()
	res, err := cdp.Call(ctx, c.p.sess, page.PrintToPDF, params)
	if err != nil {
		return nil, pdfError(err)
	}
	pages, err := CheckPDF(res.Data)
	if err != nil {
		return nil, Errorf(KindExecution, "pdf: Chrome returned a broken file: %v", err)
	}
	if err := out.Write(res.Data); err != nil {
		return nil, err
	}
	return &PDFResult{Path: out.Path, Pages: pages, Bytes: len(res.Data)}, nil
}

// pdfError explains the printToPDF failures an agent can fix.
func pdfError(err error) error {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "Page range"), strings.Contains(msg, "page range"):
		return Errorf(KindStepValidation, "pdf: %v", err).WithHint(`pageRanges is like "1-3, 5", one based, within the document's pages`)
	case strings.Contains(msg, "PrintToPDF is not implemented"):
		return Errorf(KindExecution, "pdf: %v", err).WithHint("printing to PDF needs headless Chrome; open the tab with headless: true")
	}
	return fmt.Errorf("pdf: %w", err)
}

// params validates the request and builds the CDP parameters.
func (r PDFRequest) params() (page.PrintToPDFParams, error) {
	pp := page.PrintToPDFParams{
		Landscape:         ptr(r.Landscape),
		PrintBackground:   ptr(true),
		PageRanges:        strings.TrimSpace(r.PageRanges),
		HeaderTemplate:    r.HeaderTemplate,
		FooterTemplate:    r.FooterTemplate,
		PreferCSSPageSize: ptr(r.PreferCSSPageSize),
	}
	if r.PrintBackground != nil {
		pp.PrintBackground = r.PrintBackground
	}
	header := r.HeaderTemplate != "" || r.FooterTemplate != ""
	pp.DisplayHeaderFooter = ptr(header)
	if r.DisplayHeaderFooter != nil {
		pp.DisplayHeaderFooter = r.DisplayHeaderFooter
	}
	if r.Scale != 0 && (r.Scale < 0.1 || r.Scale > 2) {
		return pp, Errorf(KindStepValidation, "pdf scale must be between 0.1 and 2, not %g", r.Scale)
	}
	pp.Scale = r.Scale
	if err := r.paper(&pp); err != nil {
		return pp, err
	}
	for _, m := range []struct {
		name string
		v    *float64
		dst  **float64
	}{{"top", r.Margin.Top, &pp.MarginTop}, {"bottom", r.Margin.Bottom, &pp.MarginBottom}, {"left", r.Margin.Left, &pp.MarginLeft}, {"right", r.Margin.Right, &pp.MarginRight}} {
		if m.v != nil && (*m.v < 0 || math.IsNaN(*m.v)) {
			return pp, Errorf(KindStepValidation, "pdf margin %s must be 0 or more, not %g", m.name, *m.v)
		}
		*m.dst = m.v
	}
	return pp, nil
}

// paper sets the paper size from Format or PaperWidth/PaperHeight.
func (r PDFRequest) paper(pp *page.PrintToPDFParams) error {
	if r.PaperWidth < 0 || r.PaperHeight < 0 {
		return Errorf(KindStepValidation, "pdf paperWidth and paperHeight must be positive")
	}
	if r.Format == "" {
		pp.PaperWidth, pp.PaperHeight = r.PaperWidth, r.PaperHeight
		return nil
	}
	if r.PaperWidth != 0 || r.PaperHeight != 0 {
		return Errorf(KindStepValidation, "pdf takes format or paperWidth/paperHeight, not both")
	}
	size, ok := PaperSizes[strings.ToLower(strings.TrimSpace(r.Format))]
	if !ok {
		names := make([]string, 0, len(PaperSizes))
		for n := range PaperSizes {
			names = append(names, strings.ToUpper(n[:1])+n[1:])
		}
		sort.Strings(names)
		return Errorf(KindStepValidation, "pdf format %q is not a known paper size; known: %s", r.Format, strings.Join(names, ", ")).
			WithHint("or give paperWidth and paperHeight in inches")
	}
	pp.PaperWidth, pp.PaperHeight = size.Width, size.Height
	return nil
}

var (
	// pageObject matches a page dictionary's type, not /Pages.
	pageObject = lazyRegexp(`/Type\s*/Page\b`)
	pageCount  = lazyRegexp(`/Type\s*/Pages\b[^>]*?/Count\s+(\d+)|/Count\s+(\d+)[^>]*?/Type\s*/Pages\b`)
	objStream  = lazyRegexp(`/Type\s*/ObjStm\b`)
)

// CheckPDF checks a PDF's structure (header, cross-reference table or
// stream, end marker) and returns its page count, counted from its page
// objects, those inside compressed object streams included.
func CheckPDF(data []byte) (int, error) {
	switch {
	case !bytes.HasPrefix(data, []byte("%PDF-")):
		return 0, fmt.Errorf("no %%PDF- header")
	case !bytes.Contains(data[max(0, len(data)-1024):], []byte("%%EOF")):
		return 0, fmt.Errorf("no %%%%EOF marker at the end")
	case !bytes.Contains(data, []byte("startxref")):
		return 0, fmt.Errorf("no startxref")
	case !bytes.Contains(data, []byte("xref")) && !bytes.Contains(data, []byte("/XRef")):
		return 0, fmt.Errorf("no cross-reference table or stream")
	}
	n := len(pageObject().FindAllIndex(data, -1))
	for _, s := range objectStreams(data) {
		n += len(pageObject().FindAllIndex(s, -1))
	}
	if n == 0 {
		n = declaredPages(data)
	}
	if n == 0 {
		return 0, fmt.Errorf("no page objects")
	}
	return n, nil
}

// declaredPages reads the largest /Count of a /Pages node.
func declaredPages(data []byte) int {
	best := 0
	for _, m := range pageCount().FindAllSubmatch(data, -1) {
		for _, g := range m[1:] {
			if n, err := strconv.Atoi(string(g)); err == nil && n > best {
				best = n
			}
		}
	}
	return best
}

// objectStreams returns the decompressed content of the PDF's object
// streams (/Type /ObjStm), which may hold page dictionaries.
func objectStreams(data []byte) [][]byte {
	var out [][]byte
	for _, loc := range objStream().FindAllIndex(data, -1) {
		start := bytes.LastIndex(data[:loc[0]], []byte(" obj"))
		rel := bytes.Index(data[loc[1]:], []byte("stream"))
		if start < 0 || rel < 0 {
			continue
		}
		dict := data[start : loc[1]+rel]
		body := skipEOL(data[loc[1]+rel+len("stream"):])
		end := bytes.Index(body, []byte("endstream"))
		if end < 0 {
			continue
		}
		raw := body[:end]
		if !bytes.Contains(dict, []byte("/FlateDecode")) {
			out = append(out, raw)
			continue
		}
		if inflated, err := inflate(raw); err == nil {
			out = append(out, inflated)
		}
	}
	return out
}

// skipEOL drops the end of line after the stream keyword.
func skipEOL(b []byte) []byte {
	switch {
	case bytes.HasPrefix(b, []byte("\r\n")):
		return b[2:]
	case bytes.HasPrefix(b, []byte("\n")), bytes.HasPrefix(b, []byte("\r")):
		return b[1:]
	}
	return b
}

// inflate decompresses a FlateDecode stream, keeping what was read when
// the stream ends early.
func inflate(raw []byte) ([]byte, error) {
	zr, err := zlib.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	out, err := io.ReadAll(io.LimitReader(zr, 64<<20))
	if len(out) > 0 {
		return out, nil
	}
	return nil, err
}
