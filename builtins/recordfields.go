package builtins

import (
	"encoding/json"
	"reflect"
	"strings"
	"sync"
)

// outputFields caches the JSON field names of output struct types.
var outputFields sync.Map // reflect.Type → []string

// fieldsOf lists the JSON field names an output of v's type can have (nil
// when v is not a struct: a map's keys are not known in advance). Outputs
// omit empty fields, so a record built from v reads a missing one as None
// and refuses a name the type does not have.
func fieldsOf(v any) []string {
	t := reflect.TypeOf(v)
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct || marshalsItself(t) {
		return nil
	}
	if f, ok := outputFields.Load(t); ok {
		return f.([]string)
	}
	f := jsonFields(t, nil)
	outputFields.Store(t, f)
	return f
}

// Shaped is an output built as a map or object whose possible keys are
// known: the record a recipe gets refuses any other name, as a typed
// output's does (s.snapshot_id is a typo, not a None). It writes the
// same JSON as its Value.
type Shaped struct {
	Value  any
	Fields []string
}

// MarshalJSON writes the value's JSON.
func (s Shaped) MarshalJSON() ([]byte, error) { return json.Marshal(s.Value) }

// The keys of outputs built as maps or objects.
var (
	snapshotFields = []string{"snapshotId", "refs", "yaml", "truncated", "truncatedInline", "unchanged",
		"message", "file", "bytes", "artifacts"}
	searchFields  = []string{"matches", "matchCount", "searchedElements", "criteria"}
	inspectFields = []string{"title", "url", "elements", "custom"}
	pollFields    = []string{"resolved", "value", "lastValue", "elapsed"}
)

var marshalerType = reflect.TypeOf((*json.Marshaler)(nil)).Elem()

// marshalsItself reports whether t writes its own JSON (its fields say
// nothing about the keys).
func marshalsItself(t reflect.Type) bool {
	return t.Implements(marshalerType) || reflect.PointerTo(t).Implements(marshalerType)
}

// jsonFields collects the names encoding/json gives t's fields, embedded
// structs flattened.
func jsonFields(t reflect.Type, out []string) []string {
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		ft := sf.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if sf.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			out = jsonFields(ft, out)
			continue
		}
		if !sf.IsExported() {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		out = append(out, name)
	}
	return out
}
