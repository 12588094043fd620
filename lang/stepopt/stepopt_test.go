package stepopt

import (
	"reflect"
	"strings"
	"testing"
)

// TestStrings: one string or a list of strings; anything else refused
// with what it was.
func TestStrings(t *testing.T) {
	for _, c := range []struct {
		in   any
		want Strings
		err  string
	}{
		{in: "Shift", want: Strings{"Shift"}},
		{in: []any{"xhr", "fetch"}, want: Strings{"xhr", "fetch"}},
		{in: []any{}, want: Strings{}},
		{in: []any{"a", int64(1)}, err: "found int in the list"},
		{in: int64(3), err: "not int"},
		{in: map[string]any{}, err: "not dict"},
		{in: true, err: "not bool"},
	} {
		var s Strings
		err := s.DecodeOption(c.in)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%v: %v, want %q", c.in, err, c.err)
		case c.err == "" && (err != nil || !reflect.DeepEqual(s, c.want)):
			t.Errorf("%v: %v %v, want %v", c.in, s, err, c.want)
		}
	}
}

// TestStatus: a code as a number or text, or a class.
func TestStatus(t *testing.T) {
	for _, c := range []struct {
		in   any
		want Status
		err  string
	}{
		{in: int64(404), want: "404"},
		{in: float64(200), want: "200"},
		{in: "4xx", want: "4xx"},
		{in: 404.5, err: "not float 404.5"},
		{in: []any{"4xx"}, err: "not list"},
		{in: true, err: "not bool"},
	} {
		var s Status
		err := s.DecodeOption(c.in)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%v: %v, want %q", c.in, err, c.err)
		case c.err == "" && (err != nil || s != c.want):
			t.Errorf("%v: %q %v, want %q", c.in, s, err, c.want)
		}
	}
}
