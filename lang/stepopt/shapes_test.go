package stepopt

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// tcase is one shape given to a decoder: the value it reads (want) or
// the error it must say (err, a substring).
type tcase[T any] struct {
	in   any
	want T
	err  string
}

// decodeTable runs the cases through a new T's DecodeOption.
func decodeTable[T any, P interface {
	*T
	Decoder
}](t *testing.T, cases []tcase[T]) {
	t.Helper()
	for _, c := range cases {
		var got T
		err := P(&got).DecodeOption(c.in)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%T %s: %v, want error %q", got, show(c.in), err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("%T %s: %v", got, show(c.in), err)
		case c.err == "" && !reflect.DeepEqual(got, c.want):
			t.Errorf("%T %s = %+v, want %+v", got, show(c.in), got, c.want)
		}
	}
}

func show(v any) string {
	if o, ok := v.(*Object); ok {
		data, _ := o.MarshalJSON()
		return string(data)
	}
	return fmt.Sprintf("%#v", v)
}

func f64(x float64) *float64 { return &x }

// TestRect: screenshot's region, {x, y, width, height} numbers.
func TestRect(t *testing.T) {
	decodeTable(t, []tcase[Rect]{
		{in: obj("x", int64(1), "y", 2.5, "width", int64(80), "height", int64(60)), want: Rect{1, 2.5, 80, 60}},
		{in: obj("width", int64(10)), want: Rect{Width: 10}},
		{in: obj("x", int64(0), "w", int64(5)), err: `has no key "w"; valid: x, y, width, height`},
		{in: obj("x", "0"), err: "x must be a number, not string"},
		{in: []any{int64(0), int64(0)}, err: "must be a dict {x, y, width, height}, not list"},
	})
}

// TestLength: a number of inches or a length with a unit.
func TestLength(t *testing.T) {
	decodeTable(t, []tcase[Length]{
		{in: int64(1), want: 1},
		{in: 0.5, want: 0.5},
		{in: "2.54cm", want: 1},
		{in: " 96PX ", want: 1},
		{in: "72pt", want: 1},
		{in: "1.5", want: 1.5},
		{in: "wide", err: `"wide" is not a length: give inches (0.5) or a number with a unit`},
		{in: "cm", err: `"cm" is not a length`},
		{in: "1 furlong", err: "is not a length"},
		{in: true, err: `must be a number of inches or a length such as "1cm", not bool`},
	})
}

// TestMargin: one length for every side, or sides by name.
func TestMargin(t *testing.T) {
	one := f64(1)
	decodeTable(t, []tcase[Margin]{
		{in: int64(1), want: Margin{one, one, one, one}},
		{in: "96px", want: Margin{one, one, one, one}},
		{in: obj("top", "1in", "left", int64(0)), want: Margin{Top: one, Left: f64(0)}},
		{in: obj("middle", int64(1)), err: `has no key "middle"; valid: top, bottom, left, right`},
		{in: obj("top", "far"), err: `top "far" is not a length`},
		{in: []any{int64(1)}, err: "not list"},
	})
}

// TestCookieSelect: get and clear, true, false, a URL, a domain or a
// filter dict.
func TestCookieSelect(t *testing.T) {
	decodeTable(t, []tcase[CookieSelect]{
		{in: true, want: CookieSelect{&CookieFilter{}}},
		{in: false, want: CookieSelect{}},
		{in: "https://a.test/x", want: CookieSelect{&CookieFilter{URLs: []string{"https://a.test/x"}}}},
		{in: " a.test ", want: CookieSelect{&CookieFilter{Domain: "a.test"}}},
		{in: obj("url", "http://a/", "urls", []any{"http://b/"}, "name", "sid", "all", true),
			want: CookieSelect{&CookieFilter{URLs: []string{"http://a/", "http://b/"}, Name: "sid", All: true}}},
		{in: obj("urls", "http://b/"), want: CookieSelect{&CookieFilter{URLs: []string{"http://b/"}}}},
		{in: "", err: "is empty"},
		{in: obj("domian", "a.test"), err: `has no key "domian"; valid: url, urls, domain, name, all`},
		{in: obj("all", "yes"), err: "all must be true or false, not string"},
		{in: int64(1), err: "must be true, a URL or domain, or {url, urls, domain, name, all}, not int"},
	})
}

// TestCookies: set, one cookie dict or a non-empty list of them.
func TestCookies(t *testing.T) {
	decodeTable(t, []tcase[Cookies]{
		{in: obj("name", "sid", "value", "abc"), want: Cookies{{Name: "sid", Value: "abc"}}},
		{in: []any{obj("name", "a", "value", "1", "expires", int64(2000000000), "httpOnly", true, "secure", true, "sameSite", "Lax", "path", "/", "domain", "a.test"),
			obj("name", "b", "url", "http://b/")},
			want: Cookies{{Name: "a", Value: "1", Expires: 2e9, HTTPOnly: true, Secure: true, SameSite: "Lax", Path: "/", Domain: "a.test"}, {Name: "b", URL: "http://b/"}}},
		{in: []any{}, err: "is empty"},
		{in: obj("name", "a", "value", int64(1)), err: "value must be a string, not int"},
		{in: []any{obj("name", "a"), "b"}, err: "[1] must be a cookie dict {name, value, …}, not string"},
		{in: obj("name", "a", "httponly", true), err: `has no key "httponly"`},
		{in: "sid=abc", err: "must be a cookie dict"},
	})
}

// TestHeaders: {name: value}, strings or numbers.
func TestHeaders(t *testing.T) {
	decodeTable(t, []tcase[Headers]{
		{in: obj("X-Test", "1", "X-N", int64(2), "X-Gone", ""), want: Headers{"X-Test": "1", "X-N": "2", "X-Gone": ""}},
		{in: obj("X-Test", true), err: "X-Test must be a string, not bool"},
		{in: []any{"X-Test"}, err: `must be a dict such as {"X-Test": "1"}, not list`},
	})
}

// TestFulfill: status, headers, contentType and one body.
func TestFulfill(t *testing.T) {
	decodeTable(t, []tcase[Fulfill]{
		{in: obj("json", obj("b", int64(1), "a", []any{2.5, nil})), want: Fulfill{Body: []byte(`{"b":1,"a":[2.5,null]}`), JSON: true}},
		{in: obj("json", nil), want: Fulfill{Body: []byte("null"), JSON: true}},
		{in: obj("status", int64(404), "body", "gone", "headers", obj("X-A", "1"), "contentType", "text/html"),
			want: Fulfill{Status: 404, Body: []byte("gone"), Headers: Headers{"X-A": "1"}, ContentType: "text/html"}},
		{in: obj("file", "a.png"), want: Fulfill{File: "a.png"}},
		{in: obj("body", "a", "json", int64(1)), err: "takes one of body, json or file"},
		{in: obj("status", int64(99)), err: "status must be an HTTP status (100–599), not int"},
		{in: obj("status", "200"), err: "status must be an HTTP status"},
		{in: obj("body", obj()), err: "body must be a string, not dict"},
		{in: obj("headers", obj("X", []any{})), err: "headers X must be a string, not list"},
		{in: obj("jsn", int64(1)), err: `has no key "jsn"; valid: status, headers, body, json, file, contentType`},
		{in: "ok", err: "must be a dict {status, headers, body | json | file, contentType}, not string"},
	})
}

// TestURLChecks: conditions on the URL, in the order given.
func TestURLChecks(t *testing.T) {
	decodeTable(t, []tcase[URLChecks]{
		{in: obj("startsWith", "http", "contains", "/done"), want: URLChecks{{"startsWith", "http"}, {"contains", "/done"}}},
		{in: obj(), err: "must be a condition such as {\"contains\": \"/done\"}, not an empty dict"},
		{in: obj("has", "x"), err: `has no condition "has"; use one of contains, equals, startsWith, endsWith, matches`},
		{in: obj("equals", int64(3)), err: "equals must be a string, not int"},
		{in: "/done", err: "not string"},
	})
}

// TestQueryOutput: a mode, a list of modes or {attributes}.
func TestQueryOutput(t *testing.T) {
	decodeTable(t, []tcase[QueryOutput]{
		{in: "href", want: QueryOutput{Mode: "href"}},
		{in: []any{"text", "role"}, want: QueryOutput{Modes: []string{"text", "role"}}},
		{in: obj("attributes", []any{"href", "title"}), want: QueryOutput{Attributes: []string{"href", "title"}}},
		{in: obj("attrs", "href"), want: QueryOutput{Attributes: []string{"href"}}},
		{in: "txt", err: `has no mode "txt"; use text, html, href, value, tag, name, role, or {attributes: [...]}`},
		{in: []any{"text", "links"}, err: `has no mode "links"`},
		{in: []any{"text", int64(1)}, err: "found int in the list"},
		{in: obj("attributes", []any{}), err: "needs attributes to read"},
		{in: obj("attributes", []any{"a"}, "text", true), err: `has no key "text"`},
		{in: int64(1), err: "must be a mode (text, html, href, value, tag, name, role), a list of them, or {attributes: [...]}, not int"},
	})
	for _, c := range []struct {
		q    QueryOutput
		want string
	}{
		{QueryOutput{Mode: "href"}, `"href"`},
		{QueryOutput{Modes: []string{"text"}}, `["text"]`},
		{QueryOutput{Attributes: []string{"id"}}, `{"attributes":["id"]}`},
		{QueryOutput{}, `null`},
	} {
		if got := jsonText(c.q.Value()); got != c.want {
			t.Errorf("%+v.Value() = %s, want %s", c.q, got, c.want)
		}
	}
}

// TestBodyLimit: true, false or a positive byte limit.
func TestBodyLimit(t *testing.T) {
	decodeTable(t, []tcase[BodyLimit]{
		{in: true, want: DefaultBodyBytes},
		{in: false, want: 0},
		{in: int64(10), want: 10},
		{in: float64(20), want: 20},
		{in: int64(0), err: "must be true or a positive byte limit, not 0"},
		{in: int64(-5), err: "not -5"},
		{in: 1.5, err: "not 1.5"},
		{in: "all", err: `not "all"`},
	})
}

// TestFields: a batch fill in the order given, values as text.
func TestFields(t *testing.T) {
	decodeTable(t, []tcase[Fields]{
		{in: obj("#b", "x", "#a", int64(3), "Agree", true, "s1e2", 2.5, "#n", nil),
			want: Fields{{"#b", "x"}, {"#a", "3"}, {"Agree", "True"}, {"s1e2", "2.5"}, {"#n", ""}}},
		{in: obj(), err: "is empty"},
		{in: obj("#a", "x", "#b", []any{int64(1)}), err: `"#b": a fill value must be text or a number, not list`},
		{in: obj("#a", obj()), err: `"#a": a fill value must be text or a number, not dict`},
		{in: []any{"#a"}, err: "must be a dict of selector, ref or label to value"},
	})
}

// TestOperations: pipeline's list of operation dicts.
func TestOperations(t *testing.T) {
	op := obj("find", "#a", "click", true)
	decodeTable(t, []tcase[Operations]{
		{in: []any{op}, want: Operations{op}},
		{in: []any{}, err: "is empty"},
		{in: []any{op, "#email"}, err: `operation 1 is "#email", not an operation object`},
		{in: op, err: "must be a list of operations, not dict"},
	})
}

// TestKwargs: a recipe's keyword arguments, in order.
func TestKwargs(t *testing.T) {
	args := obj("email", "a@b.c", "n", int64(2))
	decodeTable(t, []tcase[Kwargs]{
		{in: args, want: Kwargs{args}},
		{in: []any{"a@b.c"}, err: `must be a dict of argument name to value, such as {"email": "a@b.c"}, not list`},
	})
}

func jsonText(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}
