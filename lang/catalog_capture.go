package lang

import (
	"github.com/cdp-skill/cdp-skill/lang/stepopt"
)

// Output names the file a capture step writes.
type Output struct {
	Path string `step:"path" doc:"file to write, inside the output directory (CDP_SKILL_OUTPUT_DIR, default the working directory); default: a unique file in the state dir" example:"\"page.png\""`
}

// ScreenshotOptions are screenshot's parameters.
type ScreenshotOptions struct {
	Output
	FullPage       bool          `step:"fullPage" doc:"the whole scrollable page (at most 16384 pixels a side)"`
	Region         *stepopt.Rect `step:"region" type:"dict" doc:"an area in page CSS pixels: {x, y, width, height}" example:"{\"x\": 0, \"y\": 0, \"width\": 800, \"height\": 600}"`
	Target         `keys:"selector ref text exact" docs:"selector=capture this element's box;ref=capture the box of the element with this ref;text=capture the element with this text or accessible name;exact=text must match the whole string"`
	Padding        float64 `step:"padding" doc:"CSS pixels added around the element (clipped to the page)" example:"8"`
	Format         string  `step:"format" doc:"png (default) | jpeg | webp; default from the path's extension" example:"\"jpeg\""`
	Quality        *int    `step:"quality" doc:"0-100, for jpeg and webp" example:"80"`
	OmitBackground bool    `step:"omitBackground" doc:"transparent instead of the default white background (png, webp)"`
}

// PDFOptions are pdf's parameters.
type PDFOptions struct {
	Output
	Landscape           bool           `step:"landscape" doc:"landscape orientation"`
	Scale               float64        `step:"scale" doc:"rendering scale, 0.1 to 2 (default 1)" example:"0.8"`
	PageRanges          string         `step:"pageRanges" doc:"pages to print, e.g. \"1-3, 5\"" example:"\"1-3, 5\""`
	Margin              stepopt.Margin `step:"margin" type:"number|string|dict" doc:"inches (or \"1cm\", \"10mm\", \"96px\") for every side, or {top, bottom, left, right}; default 0.4in" example:"\"1cm\""`
	Format              string         `step:"format" doc:"paper: Letter (default), Legal, Tabloid, Ledger, A0-A6" example:"\"A4\""`
	PaperWidth          stepopt.Length `step:"paperWidth" type:"number|string" doc:"paper width in inches (or with a unit)" example:"8.5"`
	PaperHeight         stepopt.Length `step:"paperHeight" type:"number|string" doc:"paper height in inches (or with a unit)" example:"\"297mm\""`
	HeaderTemplate      string         `step:"headerTemplate" doc:"HTML of the header; classes date, title, url, pageNumber, totalPages are filled in" example:"\"<span class=title></span>\""`
	FooterTemplate      string         `step:"footerTemplate" doc:"HTML of the footer (same classes)" example:"\"<span class=pageNumber></span>\""`
	DisplayHeaderFooter *bool          `step:"displayHeaderFooter" doc:"show header and footer (default: when a template is given)"`
	PrintBackground     bool           `step:"printBackground" doc:"print background colors and images" default:"true"`
	PreferCSSPageSize   bool           `step:"preferCSSPageSize" doc:"use the page's CSS @page size"`
}

// CookiesOptions are cookies's parameters.
type CookiesOptions struct {
	Get   stepopt.CookieSelect `step:"get" type:"bool|string|dict" doc:"read cookies: true (the page's), a URL, or {url, urls, domain, name, all}" example:"true"`
	Set   stepopt.Cookies      `step:"set" type:"dict|list" doc:"cookies to set: {name, value, url or domain, path, expires (epoch seconds), httpOnly, secure, sameSite}; without url or domain, the page's URL" example:"[{\"name\": \"sid\", \"value\": \"abc\"}]"`
	Clear stepopt.CookieSelect `step:"clear" type:"bool|string|dict" doc:"delete cookies: true (the page's), a URL or domain, or {url, urls, domain, name, all}" example:"\"example.com\""`
}

// ViewportOptions are viewport's parameters.
type ViewportOptions struct {
	Preset            string  `step:"preset" doc:"device preset, e.g. iphone-14, ipad-pro-11, pixel-7, galaxy-s23, desktop-hd, macbook-pro-14; phones and tablets have -landscape variants" example:"\"iphone-14\""`
	Width             int     `step:"width" doc:"CSS pixels" example:"1280"`
	Height            int     `step:"height" doc:"CSS pixels" example:"800"`
	DeviceScaleFactor float64 `step:"deviceScaleFactor" doc:"device pixels per CSS pixel (default 1)" example:"2"`
	Mobile            *bool   `step:"mobile" doc:"mobile mode: meta viewport, overlay scrollbars"`
	HasTouch          *bool   `step:"hasTouch" doc:"touch events and pointer: coarse"`
	IsLandscape       *bool   `step:"isLandscape" doc:"landscape orientation (picks a preset's landscape variant)"`
	UserAgent         string  `step:"userAgent" doc:"user agent to send (phone and tablet presets send a mobile one)" example:"\"Mozilla/5.0 (X11; Linux x86_64)\""`
	Reset             bool    `step:"reset" doc:"clear the emulation"`
}

// GeolocationOptions are geolocation's parameters.
type GeolocationOptions struct {
	Latitude  *float64 `step:"latitude" doc:"degrees, -90 to 90" example:"48.8584"`
	Longitude *float64 `step:"longitude" doc:"degrees, -180 to 180" example:"2.2945"`
	Accuracy  float64  `step:"accuracy" doc:"metres (default 10)" example:"25"`
	Clear     bool     `step:"clear" doc:"remove the override and return the permission this command granted (even on a page since left) to prompting"`
}

func init() {
	register(
		&Action{Name: "screenshot", Positional: "string", Options: ScreenshotOptions{},
			Example: `{"screenshot": {"path": "page.png", "fullPage": true}}`,
			Doc:     "capture the viewport, the full page, a region or an element to an image file; reports path, width and height in pixels (device scale factor included), bytes and format"},
		&Action{Name: "pdf", Positional: "string", Options: PDFOptions{},
			Example: `{"pdf": {"path": "page.pdf", "format": "A4"}}`,
			Doc:     "print the page to a PDF file; reports path, pages (counted in the file) and bytes"},
		&Action{Name: "cookies", Positional: "string", Options: CookiesOptions{},
			Example: `{"cookies": "get"}`,
			Doc:     "read, set or delete cookies (clear runs first, then set, then get); \"get\" or true reads the page's cookies; values over 200 characters are cut"},
		&Action{Name: "viewport", Verb: "Resized", Positional: "string", Visual: true, Options: ViewportOptions{},
			Example: `{"viewport": "iphone-14"}`,
			Doc:     "emulate a device (\"iphone-14\") or a viewport size ({width, height, …}), or \"reset\"; lasts until the command ends"},
		&Action{Name: "geolocation", Positional: "string", Options: GeolocationOptions{},
			Example: `{"geolocation": {"latitude": 48.8584, "longitude": 2.2945}}`,
			Doc:     "make navigator.geolocation report a position and grant the permission (for the page's origin; every origin on a blank tab), or \"clear\"; lasts until the command ends"},
	)
}
