package browser

import (
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
)

// decode unmarshals a raw CDP event payload.
func decode(raw jsonv2.Value, out any) error {
	return jsonv2.Unmarshal(raw, out, marshalOptions)
}
