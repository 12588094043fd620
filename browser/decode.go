package browser

import (
	"encoding/json"

	"github.com/cdp-skill/cdp-skill/browser/cdpconn"
)

// decode unmarshals a raw CDP event payload (cdpconn.Decode).
var decode = cdpconn.Decode

func jsonMarshal(v any) (string, error) {
	data, err := json.Marshal(v)
	return string(data), err
}

func jsonUnmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }
