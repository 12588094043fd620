package stepopt

import (
	"encoding/json"
	"fmt"
	"math"
)

// Headers are HTTP headers to set, {name: value}; a value is a string or
// a number ("" removes the header where the route sends a request on).
type Headers map[string]string

// DecodeOption reads a dict of strings or numbers.
func (h *Headers) DecodeOption(v any) error {
	o, err := object(v, `a dict such as {"X-Test": "1"}`)
	if err != nil {
		return err
	}
	out := make(Headers, len(o.Keys))
	for _, k := range o.Keys {
		switch x := o.Values[k].(type) {
		case string:
			out[k] = x
		case int64, float64:
			out[k], _ = textOf(x)
		default:
			return fmt.Errorf("%s must be a string, not %s", k, shape(x))
		}
	}
	*h = out
	return nil
}

// Fulfill is a route's answer without the network: {status, headers,
// contentType, and one of body, json or file}.
type Fulfill struct {
	// Status is the HTTP status (0: 200).
	Status int
	// Headers are the response headers.
	Headers Headers
	// ContentType is the Content-Type ("" : from json, file or text).
	ContentType string
	// Body is the body given as body, or json's value as JSON.
	Body []byte
	// JSON says Body is json's value.
	JSON bool
	// File is the file to answer with (read by the caller, which knows
	// the directories it may read).
	File string
}

// DecodeOption reads the fulfill dict.
func (f *Fulfill) DecodeOption(v any) error {
	o, err := object(v, "a dict {status, headers, body | json | file, contentType}")
	if err != nil {
		return err
	}
	bodies := 0
	for _, k := range []string{"body", "json", "file"} {
		if _, given := o.Get(k); given {
			bodies++
		}
	}
	if bodies > 1 {
		return fmt.Errorf("takes one of body, json or file")
	}
	var body string
	err = decodeKeys(o, key{"status", f.status}, key{"headers", f.headers},
		key{"body", str(&body)}, key{"json", f.json}, key{"file", str(&f.File)},
		key{"contentType", str(&f.ContentType)})
	if err != nil {
		return err
	}
	if body != "" {
		f.Body = []byte(body)
	}
	if j, given := o.Get("json"); given && j == nil {
		f.Body, f.JSON = []byte("null"), true
	}
	return nil
}

func (f *Fulfill) status(v any) error {
	n, isNum := numberOf(v)
	if !isNum || n != math.Trunc(n) || n < 100 || n > 599 {
		return fmt.Errorf("must be an HTTP status (100–599), not %s", shape(v))
	}
	f.Status = int(n)
	return nil
}

func (f *Fulfill) headers(v any) error { return f.Headers.DecodeOption(v) }

func (f *Fulfill) json(v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("cannot be sent as JSON: %v", err)
	}
	f.Body, f.JSON = data, true
	return nil
}
