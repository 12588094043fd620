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
		{in: obj(), err: "not dict"},
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

// TestDialogAnswer: every shape of a dialog answer, and the refusals.
func TestDialogAnswer(t *testing.T) {
	for _, c := range []struct {
		in   any
		want DialogAnswer
		err  string
	}{
		{in: "accept", want: DialogAnswer{}},
		{in: "dismiss", want: DialogAnswer{Dismiss: true}},
		{in: true, want: DialogAnswer{}},
		{in: false, want: DialogAnswer{Dismiss: true}},
		{in: obj("accept", false), want: DialogAnswer{Dismiss: true}},
		{in: obj("accept", true, "promptText", "yes"), want: DialogAnswer{PromptText: "yes"}},
		{in: obj("action", "dismiss"), want: DialogAnswer{Dismiss: true}},
		{in: "ok", err: `must be accept or dismiss, not "ok"`},
		{in: obj("accept", "yes"), err: "accept must be true or false, not string"},
		{in: obj("promptText", int64(1)), err: "promptText must be a string"},
		{in: obj("action", "later"), err: `action must be accept or dismiss, not "later"`},
		{in: obj("acept", true), err: `has no key "acept"`},
		{in: int64(1), err: "not int"},
	} {
		var d DialogAnswer
		err := d.DecodeOption(c.in)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%v: %v, want %q", c.in, err, c.err)
		case c.err == "" && (err != nil || d != c.want):
			t.Errorf("%v: %+v %v, want %+v", c.in, d, err, c.want)
		}
	}
}

// TestText: what a field is given, written as Starlark's str() writes it
// (the builtins typed the same before).
func TestText(t *testing.T) {
	for _, c := range []struct {
		in   any
		want Text
		err  string
	}{
		{in: "a@b.c", want: "a@b.c"},
		{in: int64(42), want: "42"},
		{in: 2.5, want: "2.5"},
		{in: 2.0, want: "2.0"},
		{in: true, want: "True"},
		{in: []any{"a"}, err: "must be text or a number, not list"},
	} {
		var s Text
		err := s.DecodeOption(c.in)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%v: %v, want %q", c.in, err, c.err)
		case c.err == "" && (err != nil || s != c.want):
			t.Errorf("%v: %q %v, want %q", c.in, s, err, c.want)
		}
	}
	var l Texts
	if err := l.DecodeOption([]any{"red", int64(2)}); err != nil || !reflect.DeepEqual(l, Texts{"red", "2"}) {
		t.Errorf("texts: %v %v", l, err)
	}
	if err := l.DecodeOption("red"); err == nil || !strings.Contains(err.Error(), "must be a list of option values or labels, not string") {
		t.Errorf("texts from a string: %v", err)
	}
	if err := l.DecodeOption([]any{obj()}); err == nil || !strings.Contains(err.Error(), "must hold text or numbers, not dict") {
		t.Errorf("texts holding a dict: %v", err)
	}
}

// TestDragEnd: the string and dict forms of a drag end, both spellings of
// the offsets, and the refusals.
func TestDragEnd(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	for _, c := range []struct {
		in   any
		want DragEnd
		err  string
	}{
		{in: "#card", want: DragEnd{Positional: "#card"}},
		{in: obj("text", "Done", "offsetX", int64(5), "offset_y", -2.5), want: DragEnd{Text: "Done", OffsetX: 5, OffsetY: -2.5}},
		{in: obj("x", int64(10), "y", 20.5), want: DragEnd{X: f(10), Y: f(20.5)}},
		{in: " ", err: "is empty"},
		{in: int64(3), err: "must be a selector, a ref or a dict, not int"},
		{in: obj("label", "x"), err: `has no key "label"`},
		{in: obj("ref", int64(1)), err: "ref must be a string, not int"},
		{in: obj("x", "1"), err: "x must be a number, not string"},
	} {
		var e DragEnd
		err := e.DecodeOption(c.in)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%v: %v, want %q", c.in, err, c.err)
		case c.err == "" && (err != nil || !reflect.DeepEqual(e, c.want)):
			t.Errorf("%v: %+v %v, want %+v", c.in, e, err, c.want)
		}
	}
}

// TestRefsAndAbort: the bool-or-something parameters.
func TestRefsAndAbort(t *testing.T) {
	var r Refs
	if err := r.DecodeOption(true); err != nil || !r.All || r.List != nil {
		t.Errorf("refs true: %+v %v", r, err)
	}
	r = Refs{}
	if err := r.DecodeOption([]any{"s1e4"}); err != nil || r.All || !reflect.DeepEqual(r.List, []string{"s1e4"}) {
		t.Errorf("refs list: %+v %v", r, err)
	}
	if err := r.DecodeOption("s1e4"); err == nil || !strings.Contains(err.Error(), "must be true or a list of refs, not string") {
		t.Errorf("refs string: %v", err)
	}
	if err := r.DecodeOption([]any{int64(1)}); err == nil || !strings.Contains(err.Error(), "found int in the list") {
		t.Errorf("refs holding an int: %v", err)
	}
	var a Abort
	if err := a.DecodeOption(true); err != nil || a.Reason != "" {
		t.Errorf("abort true: %+v %v", a, err)
	}
	if err := a.DecodeOption("TimedOut"); err != nil || a.Reason != "TimedOut" {
		t.Errorf("abort reason: %+v %v", a, err)
	}
	if err := a.DecodeOption(false); err == nil || !strings.Contains(err.Error(), "must be true or a reason") {
		t.Errorf("abort false: %v", err)
	}
}

// obj builds an Object from key, value pairs.
func obj(kv ...any) *Object {
	o := &Object{Values: map[string]any{}}
	for i := 0; i < len(kv); i += 2 {
		o.Set(kv[i].(string), kv[i+1])
	}
	return o
}
