package browser

import (
	"encoding/json"

	"github.com/cdp-skill/cdp-skill/browser/cdpconn"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
)

// decode unmarshals a raw CDP event payload.
func decode(raw jsonv2.Value, out any) error {
	return jsonv2.Unmarshal(raw, out, cdpconn.MarshalOptions)
}

func jsonMarshal(v any) (string, error) {
	data, err := json.Marshal(v)
	return string(data), err
}

func jsonUnmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }
