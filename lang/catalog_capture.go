package lang

// pathParam names the file a capture step writes.
var pathParam = Param{Name: "path", Type: "string", Doc: "file to write, inside the output directory (CDP_SKILL_OUTPUT_DIR, default the working directory); default: a unique file in the state dir"}

func init() {
	register(
		&Action{Name: "screenshot", Positional: "string",
			Params: []Param{
				pathParam,
				{Name: "fullPage", Type: "bool", Doc: "the whole scrollable page (at most 16384 pixels a side)"},
				{Name: "region", Type: "dict", Doc: "an area in page CSS pixels: {x, y, width, height}"},
				{Name: "selector", Type: "string", Doc: "capture this element's box", Target: true},
				{Name: "ref", Type: "string", Doc: "capture the box of the element with this ref", Target: true},
				{Name: "text", Type: "string", Doc: "capture the element with this text or accessible name", Target: true},
				{Name: "exact", Type: "bool", Doc: "text must match the whole string", Target: true},
				{Name: "padding", Type: "number", Doc: "CSS pixels added around the element (clipped to the page)"},
				{Name: "format", Type: "string", Doc: "png (default) | jpeg | webp; default from the path's extension"},
				{Name: "quality", Type: "int", Doc: "0-100, for jpeg and webp"},
				{Name: "omitBackground", Type: "bool", Doc: "transparent instead of the default white background (png, webp)"},
			},
			Doc: "capture the viewport, the full page, a region or an element to an image file; reports path, width and height in pixels (device scale factor included), bytes and format"},
		&Action{Name: "pdf", Positional: "string",
			Params: []Param{
				pathParam,
				{Name: "landscape", Type: "bool", Doc: "landscape orientation"},
				{Name: "scale", Type: "number", Doc: "rendering scale, 0.1 to 2 (default 1)"},
				{Name: "pageRanges", Type: "string", Doc: "pages to print, e.g. \"1-3, 5\""},
				{Name: "margin", Type: "number|string|dict", Doc: "inches (or \"1cm\", \"10mm\", \"96px\") for every side, or {top, bottom, left, right}; default 0.4in"},
				{Name: "format", Type: "string", Doc: "paper: Letter (default), Legal, Tabloid, Ledger, A0-A6"},
				{Name: "paperWidth", Type: "number|string", Doc: "paper width in inches (or with a unit)"},
				{Name: "paperHeight", Type: "number|string", Doc: "paper height in inches (or with a unit)"},
				{Name: "headerTemplate", Type: "string", Doc: "HTML of the header; classes date, title, url, pageNumber, totalPages are filled in"},
				{Name: "footerTemplate", Type: "string", Doc: "HTML of the footer (same classes)"},
				{Name: "displayHeaderFooter", Type: "bool", Doc: "show header and footer (default: when a template is given)"},
				{Name: "printBackground", Type: "bool", Doc: "print background colors and images (default true)"},
				{Name: "preferCSSPageSize", Type: "bool", Doc: "use the page's CSS @page size"},
			},
			Doc: "print the page to a PDF file; reports path, pages (counted in the file) and bytes"},
		&Action{Name: "cookies", Positional: "string",
			Params: []Param{
				{Name: "get", Type: "bool|string|dict", Doc: "read cookies: true (the page's), a URL, or {url, urls, domain, name, all}"},
				{Name: "set", Type: "dict|list", Doc: "cookies to set: {name, value, url or domain, path, expires (epoch seconds), httpOnly, secure, sameSite}; without url or domain, the page's URL"},
				{Name: "clear", Type: "bool|string|dict", Doc: "delete cookies: true (the page's), a URL or domain, or {url, urls, domain, name, all}"},
			},
			Doc: "read, set or delete cookies (clear runs first, then set, then get); \"get\" or true reads the page's cookies; values over 200 characters are cut"},
		&Action{Name: "viewport", Verb: "Resized", Positional: "string", Visual: true,
			Params: []Param{
				{Name: "preset", Type: "string", Doc: "device preset, e.g. iphone-14, ipad-pro-11, pixel-7, galaxy-s23, desktop-hd, macbook-pro-14; phones and tablets have -landscape variants"},
				{Name: "width", Type: "int", Doc: "CSS pixels"},
				{Name: "height", Type: "int", Doc: "CSS pixels"},
				{Name: "deviceScaleFactor", Type: "number", Doc: "device pixels per CSS pixel (default 1)"},
				{Name: "mobile", Type: "bool", Doc: "mobile mode: meta viewport, overlay scrollbars"},
				{Name: "hasTouch", Type: "bool", Doc: "touch events and pointer: coarse"},
				{Name: "isLandscape", Type: "bool", Doc: "landscape orientation (picks a preset's landscape variant)"},
				{Name: "userAgent", Type: "string", Doc: "user agent to send (phone and tablet presets send a mobile one)"},
				{Name: "reset", Type: "bool", Doc: "clear the emulation"},
			},
			Doc: "emulate a device (\"iphone-14\") or a viewport size ({width, height, …}), or \"reset\"; lasts until the command ends"},
		&Action{Name: "geolocation", Positional: "string",
			Params: []Param{
				{Name: "latitude", Type: "number", Doc: "degrees, -90 to 90"},
				{Name: "longitude", Type: "number", Doc: "degrees, -180 to 180"},
				{Name: "accuracy", Type: "number", Doc: "metres (default 10)"},
				{Name: "clear", Type: "bool", Doc: "remove the override and return the permission this command granted (even on a page since left) to prompting"},
			},
			Doc: "make navigator.geolocation report a position and grant the permission (for the page's origin; every origin on a blank tab), or \"clear\"; lasts until the command ends"},
	)
}
