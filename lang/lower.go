package lang

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"go.starlark.net/starlark"
)

// Lower turns a validated request into Starlark source: one builtin call per
// step, in order. Running the source is running the request.
func Lower(req *Request) (string, error) {
	var b strings.Builder
	b.WriteString("# Lowered from a JSON command by cdp-skill compile.\n")
	if req.Tab != "" {
		fmt.Fprintf(&b, "# Run it in the same tab with: cdp-skill run FILE.star --tab %s\n", req.Tab)
	}
	if req.TimeoutMS > 0 || req.Capture != nil || req.Strict || req.ContinueOnError {
		var args []string
		if req.TimeoutMS > 0 {
			args = append(args, fmt.Sprintf("timeout = %d", req.TimeoutMS))
		}
		if req.Capture != nil {
			args = append(args, "capture = "+literal(req.Capture))
		}
		if req.Strict {
			args = append(args, "strict = True")
		}
		if req.ContinueOnError {
			args = append(args, "stop_on_error = False")
		}
		fmt.Fprintf(&b, "configure(%s)\n", strings.Join(args, ", "))
	}
	if n := len(req.Steps); n > 0 && req.OutputPath != "" && req.Steps[n-1].OutputPath == "" {
		req.Steps[n-1].OutputPath = req.OutputPath
	}
	for _, st := range req.Steps {
		line, err := LowerStep(st)
		if err != nil {
			return "", err
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String(), nil
}

// LowerStep renders one step as a builtin call.
func LowerStep(st *Step) (string, error) {
	a := st.Action
	var args []string
	hasTimeout := false
	switch v := st.Value.(type) {
	case bool:
		// true: the default form, no arguments.
	case *Object:
		if keys, unknown := splitKeywords(a, v); unknown == "" {
			for _, k := range keys {
				p, _ := a.Param(k)
				args = append(args, p.Keyword()+" = "+literal(v.Values[k]))
				hasTimeout = hasTimeout || k == "timeout"
			}
		} else {
			args = append(args, literal(v))
		}
	default:
		args = append(args, literal(v))
	}
	if st.hasTimout {
		if hasTimeout {
			return "", validationErr(st.Index, "timeout is given both on the step and inside %s: keep one", st.Key)
		}
		args = append(args, fmt.Sprintf("timeout = %d", st.TimeoutMS))
	}
	if st.Optional {
		args = append(args, "optional = True")
	}
	if st.OutputPath != "" {
		args = append(args, "output_path = "+literal(st.OutputPath))
	}
	return a.Builtin() + "(" + strings.Join(args, ", ") + ")", nil
}

// literal renders a decoded JSON value as a Starlark literal.
func literal(v any) string {
	var b strings.Builder
	writeLiteral(&b, v)
	return b.String()
}

// writeLiteral appends the literal of v to b: one pass over the value, so
// lowering is linear in the size of the command however deep it nests.
func writeLiteral(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("None")
	case bool:
		if x {
			b.WriteString("True")
		} else {
			b.WriteString("False")
		}
	case json.Number:
		if n, whole := wholeNumber(x.String()); whole && strings.ContainsAny(x.String(), ".eE") {
			// 1e3 is a float in Starlark: a whole number is written as
			// the int it is.
			b.WriteString(strconv.FormatInt(n, 10))
			break
		}
		b.WriteString(x.String())
	case string:
		b.WriteString(starlark.String(x).String())
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			writeLiteral(b, e)
		}
		b.WriteByte(']')
	case *Object:
		b.WriteByte('{')
		for i, k := range x.Keys {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(starlark.String(k).String())
			b.WriteString(": ")
			writeLiteral(b, x.Values[k])
		}
		b.WriteByte('}')
	default:
		b.WriteString(starlark.String(fmt.Sprint(v)).String())
	}
}
