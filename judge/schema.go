package judge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/agentcheck/agentcheck/jsonvalue"
	"github.com/agentcheck/agentcheck/judgment"
)

// schema is a compiled JSON schema in the subset that OpenAI's strict
// structured outputs accept and the judge's questions use: typed values,
// objects whose properties are all required and closed to others, arrays of
// one item schema, enums, nullable values through type lists, and numeric
// and length bounds. A keyword outside it is an error at compile time rather
// than a constraint silently not checked.
type schema struct {
	types      []string // JSON Schema type names; empty when only enum constrains
	enum       []any
	properties map[string]*schema
	names      []string // property names, sorted, for stable messages
	items      *schema
	minItems   int
	maxItems   int // -1: unbounded
	minimum    *float64
	maximum    *float64
}

var knownTypes = []string{"object", "array", "string", "number", "integer", "boolean", "null"}

// compileSchema checks that a question's schema is strict and compiles it.
// The schema is first round-tripped through JSON so that Go literals
// ([]string, int) and decoded JSON ([]any, float64) look alike.
// compileQuestionSchema compiles the question's schema, from SchemaJSON when
// the question brings it written out.
func compileQuestionSchema(q judgment.Question) (*schema, []byte, error) {
	if len(q.SchemaJSON) == 0 {
		return compileSchema(q.Schema)
	}
	if c, ok := compiledSchemas.Load(string(q.SchemaJSON)); ok {
		return c.(*schema), q.SchemaJSON, nil
	}
	s, err := compileRaw(q.SchemaJSON)
	if err != nil {
		return nil, nil, err
	}
	compiledSchemas.Store(string(q.SchemaJSON), s)
	return s, q.SchemaJSON, nil
}

func compileSchema(m map[string]any) (*schema, []byte, error) {
	if m == nil {
		return nil, nil, errors.New("the question has no schema")
	}
	raw, err := json.Marshal(m)
	if err != nil {
		return nil, nil, fmt.Errorf("the schema does not marshal as JSON: %w", err)
	}
	// A metric asks the same few questions over and over: compile each
	// distinct schema once. The cache is bounded by the distinct schemas a
	// program asks with, a handful per metric.
	if c, ok := compiledSchemas.Load(string(raw)); ok {
		return c.(*schema), raw, nil
	}
	s, err := compileRaw(raw)
	if err != nil {
		return nil, nil, err
	}
	compiledSchemas.Store(string(raw), s)
	return s, raw, nil
}

var compiledSchemas sync.Map // string(raw schema) -> *schema; a compiled schema is immutable

func compileRaw(raw []byte) (*schema, error) {
	v, err := parseStrictJSON(raw)
	if err != nil {
		return nil, fmt.Errorf("the schema does not marshal as JSON: %w", err)
	}
	root, _ := v.(map[string]any)
	s, err := compile(root, "$", 0)
	if err != nil {
		return nil, fmt.Errorf("the schema is not strict: %w", err)
	}
	if !slices.Equal(s.types, []string{"object"}) {
		return nil, errors.New(`the schema is not strict: $: the root must be of type "object"`)
	}
	return s, nil
}

func compile(m map[string]any, path string, depth int) (*schema, error) {
	if depth > 32 {
		return nil, fmt.Errorf("%s: nested more than 32 levels", path)
	}
	s := &schema{maxItems: -1}
	for _, k := range sortedKeys(m) {
		switch k {
		case "type", "enum", "properties", "required", "additionalProperties", "items",
			"minItems", "maxItems", "minimum", "maximum", "description", "title":
		default:
			return nil, fmt.Errorf("%s: keyword %q is not supported (want type, properties, required, additionalProperties, items, enum, minItems, maxItems, minimum, maximum, description, title)", path, k)
		}
	}
	switch t := m["type"].(type) {
	case nil:
	case string:
		s.types = []string{t}
	case []any:
		for _, e := range t {
			name, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("%s: type list holds %v, not a type name", path, e)
			}
			s.types = append(s.types, name)
		}
	default:
		return nil, fmt.Errorf("%s: type is %v, want a type name or a list of them", path, t)
	}
	for _, t := range s.types {
		if !slices.Contains(knownTypes, t) {
			return nil, fmt.Errorf("%s: unknown type %q", path, t)
		}
	}
	if e, ok := m["enum"]; ok {
		list, ok := e.([]any)
		if !ok || len(list) == 0 {
			return nil, fmt.Errorf("%s: enum must be a non-empty list", path)
		}
		s.enum = list
	}
	if s.types == nil && s.enum == nil {
		return nil, fmt.Errorf("%s: no type and no enum", path)
	}

	if slices.Contains(s.types, "object") {
		props, ok := m["properties"].(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: an object needs properties", path)
		}
		if ap, ok := m["additionalProperties"].(bool); !ok || ap {
			return nil, fmt.Errorf("%s: an object needs additionalProperties false", path)
		}
		required := map[string]bool{}
		list, _ := m["required"].([]any)
		for _, r := range list {
			name, ok := r.(string)
			if !ok {
				return nil, fmt.Errorf("%s: required holds %v, not a property name", path, r)
			}
			if _, ok := props[name]; !ok {
				return nil, fmt.Errorf("%s: required names %q, which is not a property", path, name)
			}
			required[name] = true
		}
		s.properties = map[string]*schema{}
		s.names = sortedKeys(props)
		for _, name := range s.names {
			if !required[name] {
				return nil, fmt.Errorf("%s: property %q is not required (strict schemas require every property; make it nullable instead)", path, name)
			}
			pm, ok := props[name].(map[string]any)
			if !ok {
				return nil, fmt.Errorf("%s.%s: not a schema", path, name)
			}
			ps, err := compile(pm, path+"."+name, depth+1)
			if err != nil {
				return nil, err
			}
			s.properties[name] = ps
		}
	} else if _, ok := m["properties"]; ok {
		return nil, fmt.Errorf("%s: properties on a schema that is not of type object", path)
	}

	if slices.Contains(s.types, "array") {
		im, ok := m["items"].(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: an array needs an items schema", path)
		}
		items, err := compile(im, path+"[]", depth+1)
		if err != nil {
			return nil, err
		}
		s.items = items
	}
	for _, b := range []struct {
		key string
		dst *int
	}{{"minItems", &s.minItems}, {"maxItems", &s.maxItems}} {
		if v, ok := m[b.key]; ok {
			n, ok := v.(json.Number)
			i, err := strconv.Atoi(string(n))
			if !ok || err != nil || i < 0 {
				return nil, fmt.Errorf("%s: %s is %v, want a count", path, b.key, v)
			}
			*b.dst = i
		}
	}
	for _, b := range []struct {
		key string
		dst **float64
	}{{"minimum", &s.minimum}, {"maximum", &s.maximum}} {
		if v, ok := m[b.key]; ok {
			n, ok := v.(json.Number)
			f, err := n.Float64()
			if !ok || err != nil {
				return nil, fmt.Errorf("%s: %s is %v, want a number", path, b.key, v)
			}
			*b.dst = &f
		}
	}
	return s, nil
}

// parseStrictJSON decodes exactly one JSON value, numbers as json.Number so that
// integers and their size survive.
func parseStrictJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("more after the JSON value at byte %d", dec.InputOffset())
	}
	return v, nil
}

// check lists how v (decoded by parseStrictJSON) fails the schema, at most
// maxProblems of them, each with its JSON path; nil when v fits.
func (s *schema) check(v any) []string {
	var problems []string
	s.walk(v, "$", &problems)
	return problems
}

const maxProblems = 5

func (s *schema) walk(v any, path string, problems *[]string) {
	if len(*problems) >= maxProblems {
		return
	}
	fail := func(format string, args ...any) {
		if len(*problems) < maxProblems {
			*problems = append(*problems, path+": "+fmt.Sprintf(format, args...))
		}
	}
	if s.types != nil && !slices.ContainsFunc(s.types, func(t string) bool { return isType(v, t) }) {
		want := strings.Join(s.types, " or ")
		fail("want %s, got %s", want, describe(v))
		return
	}
	if s.enum != nil && !slices.ContainsFunc(s.enum, func(e any) bool { return equalJSON(e, v) }) {
		opts := make([]string, len(s.enum))
		for i, e := range s.enum {
			opts[i] = jsonText(e)
		}
		fail("%s is not one of [%s]", jsonText(v), strings.Join(opts, ", "))
		return
	}
	switch v := v.(type) {
	case map[string]any:
		if s.properties == nil {
			return
		}
		for _, name := range s.names {
			if _, ok := v[name]; !ok {
				fail("missing required property %q", name)
			}
		}
		for _, name := range sortedKeys(v) {
			ps, ok := s.properties[name]
			if !ok {
				fail("unexpected property %q (the schema allows no others)", name)
				continue
			}
			ps.walk(v[name], path+"."+name, problems)
		}
	case []any:
		if len(v) < s.minItems {
			fail("%d items, want at least %d", len(v), s.minItems)
		}
		if s.maxItems >= 0 && len(v) > s.maxItems {
			fail("%d items, want at most %d", len(v), s.maxItems)
		}
		if s.items != nil {
			for i, e := range v {
				s.items.walk(e, path+"["+strconv.Itoa(i)+"]", problems)
			}
		}
	case json.Number:
		f, _ := v.Float64()
		if s.minimum != nil && f < *s.minimum {
			fail("%s is below the minimum %v", v, *s.minimum)
		}
		if s.maximum != nil && f > *s.maximum {
			fail("%s is above the maximum %v", v, *s.maximum)
		}
	}
}

func isType(v any, t string) bool {
	switch v := v.(type) {
	case nil:
		return t == "null"
	case bool:
		return t == "boolean"
	case string:
		return t == "string"
	case []any:
		return t == "array"
	case map[string]any:
		return t == "object"
	case json.Number:
		f, err := v.Float64()
		if err != nil || math.IsInf(f, 0) {
			return false
		}
		// JSON Schema counts 1.0 as an integer too.
		return t == "number" || t == "integer" && f == math.Trunc(f)
	}
	return false
}

// equalJSON compares decoded JSON values as jsonvalue.Equal does: numbers
// by exact value, whatever their spelling.
func equalJSON(a, b any) bool {
	va, erra := jsonvalue.Of(a)
	vb, errb := jsonvalue.Of(b)
	return erra == nil && errb == nil && jsonvalue.Equal(va, vb)
}

func describe(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean " + jsonText(v)
	case string:
		return "string " + clip(jsonText(v), 60)
	case json.Number:
		return "number " + jsonText(v)
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

func jsonText(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// clip shortens s to about n bytes on a rune boundary, saying how much
// was left out.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("… (%d bytes more)", len(s)-cut)
}
