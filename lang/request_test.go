package lang

import (
	"strings"
	"testing"
)

func TestParseRequestErrors(t *testing.T) {
	tests := []struct {
		name, input string
		typ         ErrorType
		contains    []string
	}{
		{"empty", "", ErrParse, []string{"empty input"}},
		{"blank", "  \n", ErrParse, []string{"empty input"}},
		{"not json", "{steps:", ErrParse, []string{"invalid JSON", "single quotes"}},
		{"trailing", `{"steps":[{"goto":"x"}]} extra`, ErrParse, []string{"after the JSON value"}},
		{"array", `[{"goto":"x"}]`, ErrParse, []string{"must be a JSON object", "array"}},
		{"no steps", `{"tab":"t1"}`, ErrValidation, []string{`missing "steps"`}},
		{"steps not array", `{"steps":{"goto":"x"}}`, ErrValidation, []string{"must be an array", "object"}},
		{"empty steps", `{"steps":[]}`, ErrValidation, []string{"is empty"}},
		{"legacy config", `{"config":{"port":9333},"steps":[{"goto":"x"}]}`, ErrValidation, []string{"no longer supported", "openTab"}},
		{"unknown top level", `{"stepz":[]}`, ErrValidation, []string{`unknown top-level field "stepz"`, "tab, timeout, stopOnError, steps"}},
		{"bad stopOnError", `{"stopOnError":0,"steps":[{"goto":"x"}]}`, ErrValidation, []string{`"stopOnError" must be true`, "not a number"}},
		{"action at top level", `{"goto":"x","steps":[{"goto":"x"}]}`, ErrValidation, []string{"Actions go inside steps"}},
		{"bad tab", `{"tab":1,"steps":[{"goto":"x"}]}`, ErrValidation, []string{`"tab" must be`}},
		{"bad timeout", `{"timeout":"soon","steps":[{"goto":"x"}]}`, ErrValidation, []string{`"soon" is neither milliseconds nor a duration`}},
		{"timeout not a number", `{"timeout":true,"steps":[{"goto":"x"}]}`, ErrValidation, []string{"a number of milliseconds or a duration", "not a boolean"}},
		{"timeout below 1 ms", `{"steps":[{"goto":"x","timeout":"100us"}]}`, ErrValidation, []string{"below 1 ms"}},
		{"object timeout word", `{"steps":[{"click":{"text":"Go","timeout":"later"}}]}`, ErrValidation, []string{"click.timeout", `"later" is neither`}},
		// The same number in every spelling gets the same class (§20).
		{"wait past an hour", `{"steps":[{"wait":1000000000000000}]}`, ErrValidation, []string{"step 1", "more than an hour"}},
		{"wait past an hour, exponent", `{"steps":[{"wait":1e15}]}`, ErrValidation, []string{"step 1", "more than an hour"}},
		{"sleep past an hour", `{"steps":[{"sleep":36e5001}]}`, ErrValidation, []string{"step 1", "sleep"}},
		{"bad top-level outputPath", `{"outputPath":3,"steps":[{"goto":"x"}]}`, ErrValidation, []string{`"outputPath" must be a file name`, "number"}},
		{"empty step outputPath", `{"steps":[{"extract":"#t","outputPath":" "}]}`, ErrValidation, []string{"step 1", `"outputPath" must be a file name`}},
		{"step not object", `{"steps":["goto"]}`, ErrValidation, []string{"step 1", "must be an object"}},
		{"no action", `{"steps":[{"optional":true}]}`, ErrValidation, []string{"no action", "valid actions"}},
		{"two actions", `{"steps":[{"goto":"a","reload":true}]}`, ErrValidation, []string{"several actions (goto, reload)", "own step"}},
		{"unknown action", `{"steps":[{"gotoo":"a"}]}`, ErrValidation, []string{`unknown action "gotoo"`, `did you mean "goto"`, "valid actions:", "pageFunction"}},
		{"unknown param", `{"steps":[{"goto":{"ur":"a"}}]}`, ErrValidation, []string{`goto has no parameter "ur"`, `did you mean "url"`, "cdp-skill help goto"}},
		{"param type", `{"steps":[{"goto":{"url":5}}]}`, ErrValidation, []string{"goto.url must be a string, not a number"}},
		{"positional type", `{"steps":[{"goto":5}]}`, ErrValidation, []string{"goto does not take a number"}},
		{"false value", `{"steps":[{"reload":false}]}`, ErrValidation, []string{"false is not a valid value"}},
		{"bad optional", `{"steps":[{"reload":true,"optional":"yes"}]}`, ErrValidation, []string{`"optional" must be true or false`}},
		{"second step", `{"steps":[{"reload":true},{"nope":1}]}`, ErrValidation, []string{"step 2"}},
		{"snake case key", `{"steps":[{"goto":{"url":"a","wait_until":"load"}}]}`, ErrValidation, []string{`no parameter "wait_until"`, `"waitUntil"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseRequest([]byte(tt.input))
			if err == nil {
				t.Fatal("no error")
			}
			le, ok := err.(*Error)
			if !ok {
				t.Fatalf("error %T %v is not *Error", err, err)
			}
			if le.Type != tt.typ {
				t.Errorf("type = %s, want %s (%v)", le.Type, tt.typ, err)
			}
			for _, c := range tt.contains {
				if !strings.Contains(err.Error(), c) {
					t.Errorf("error %q does not contain %q", err, c)
				}
			}
		})
	}
}

func TestParseRequest(t *testing.T) {
	req, err := ParseRequest([]byte(`{"tab":"t3","timeout":5000,"steps":[{"newTab":"https://a.test/"},{"goto":{"url":"b","waitUntil":"networkidle"},"optional":true,"timeout":100},{"switchTab":"t1"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if req.Tab != "t3" || req.TimeoutMS != 5000 || len(req.Steps) != 3 {
		t.Fatalf("request = %+v", req)
	}
	if s := req.Steps[0]; s.Action.Name != "openTab" || s.Key != "newTab" {
		t.Errorf("alias newTab → %s (key %s)", s.Action.Name, s.Key)
	}
	if s := req.Steps[1]; !s.Optional || s.TimeoutMS != 100 {
		t.Errorf("modifiers lost: %+v", s)
	}
	if s := req.Steps[2]; s.Action.Name != "connectTab" {
		t.Errorf("alias switchTab → %s", s.Action.Name)
	}
}

func TestCheckTabNeeds(t *testing.T) {
	tests := []struct {
		input string
		ok    bool
	}{
		{`{"steps":[{"goto":"a"}]}`, false},
		{`{"tab":"t1","steps":[{"goto":"a"}]}`, true},
		{`{"steps":[{"openTab":"a"},{"goto":"b"}]}`, true},
		{`{"steps":[{"sleep":10},{"connectTab":"t1"},{"goto":"b"}]}`, true},
		{`{"steps":[{"listTabs":true},{"chromeStatus":true},{"closeTab":"t1"}]}`, true},
		{`{"steps":[{"wait":100}]}`, true},
		{`{"steps":[{"wait":"#x"}]}`, false},
	}
	for _, tt := range tests {
		req, err := ParseRequest([]byte(tt.input))
		if err != nil {
			t.Fatalf("%s: %v", tt.input, err)
		}
		err = CheckTabNeeds(req)
		if (err == nil) != tt.ok {
			t.Errorf("%s: err = %v, want ok=%v", tt.input, err, tt.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "openTab") {
			t.Errorf("%s: hint missing: %v", tt.input, err)
		}
	}
}

func TestSnakeCase(t *testing.T) {
	for camel, snake := range map[string]string{
		"settledWhen": "settled_when", "targetId": "target_id", "waitUntil": "wait_until",
		"offsetX": "offset_x", "pageFunction": "page_function", "selectOption": "select_option",
		"url": "url", "await": "await_promise", "scrollUntilVisible": "scroll_until_visible",
	} {
		if got := SnakeCase(camel); got != snake {
			t.Errorf("SnakeCase(%q) = %q, want %q", camel, got, snake)
		}
	}
}

func TestDecodeJSONKeepsOrder(t *testing.T) {
	v, err := DecodeJSON([]byte(`{"z":1,"a":{"y":[1,2,{"b":null}],"c":true}}`))
	if err != nil {
		t.Fatal(err)
	}
	o := v.(*Object)
	if strings.Join(o.Keys, ",") != "z,a" {
		t.Errorf("keys = %v", o.Keys)
	}
	data, _ := o.MarshalJSON()
	if string(data) != `{"z":1,"a":{"y":[1,2,{"b":null}],"c":true}}` {
		t.Errorf("round trip = %s", data)
	}
}
