package tooldefs

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/jsonvalue"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Violation is one way a tool call does not fit its definition.
type Violation struct {
	Call int    // the call's index in the list checked, from 0
	Tool string // the tool the call names
	// Pointer is the JSON pointer (RFC 6901) of the offending value within
	// the arguments: "/limit", "/filters/0/op"; "" is the arguments as a
	// whole.
	Pointer string
	// Keyword is the JSON Schema keyword the value breaks: type, required,
	// enum, additionalProperties, minimum, pattern, anyOf... It is "" when
	// the call names no defined tool or its arguments are not JSON.
	Keyword string
	Message string // what is wrong: "got string, want integer"
}

// String is "[1] search: /limit: type: got string, want integer", leaving
// out the pointer at the arguments' root and the keyword when there is none.
func (v Violation) String() string {
	var b strings.Builder
	b.WriteByte('[')
	b.WriteString(strconv.Itoa(v.Call))
	b.WriteString("] ")
	b.WriteString(v.Tool)
	b.WriteString(": ")
	v.writeDetail(&b)
	return b.String()
}

func (v Violation) writeDetail(b *strings.Builder) {
	if v.Pointer != "" {
		b.WriteString(v.Pointer)
		b.WriteString(": ")
	}
	if v.Keyword != "" {
		b.WriteString(v.Keyword)
		b.WriteString(": ")
	}
	b.WriteString(v.Message)
}

// Check checks each call against the definition of the tool it names and
// returns what does not fit, ordered by call, then by pointer and keyword;
// none when every call fits. A call to an undefined tool is a violation
// that lists the defined tools, except a call of a hosted tool
// (agentcheck.HostedTool), which the provider runs and need not be
// defined. Arguments are checked as given; the zero Value (no arguments) is
// checked as {}. Arguments the model wrote that are not valid JSON
// (ToolCall.InvalidArgs), and a float argument that is NaN or infinite,
// which JSON cannot carry, are violations.
func (s *Set) Check(calls []agentcheck.ToolCall) []Violation {
	var out []Violation
	for i := range calls {
		out = s.appendCall(out, i, &calls[i])
	}
	return out
}

// CheckCall is Check of the one call, reported as call index 0.
func (s *Set) CheckCall(call agentcheck.ToolCall) []Violation {
	return s.appendCall(nil, 0, &call)
}

func (s *Set) appendCall(out []Violation, i int, tc *agentcheck.ToolCall) []Violation {
	idx, ok := s.byName[tc.Name]
	if !ok {
		if tc.Kind == agentcheck.HostedTool {
			return out
		}
		return append(out, Violation{Call: i, Tool: tc.Name, Message: s.undefined()})
	}
	if tc.InvalidArgs != "" {
		return append(out, Violation{Call: i, Tool: tc.Name, Message: "arguments are not valid JSON: " + strconv.Quote(truncate(tc.InvalidArgs, 80))})
	}
	args := tc.Args
	if args.Kind() == jsonvalue.NullKind {
		args = emptyObject
	}
	var bad []string
	inst := instance(args, nil, &bad)
	if len(bad) > 0 {
		return append(out, Violation{Call: i, Tool: tc.Name, Message: "arguments are not valid JSON: " + strings.Join(bad, ", ")})
	}
	sch := s.schemas[idx]
	if sch == nil {
		return out
	}
	err := sch.Validate(inst)
	if err == nil {
		return out
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return append(out, Violation{Call: i, Tool: tc.Name, Message: err.Error()})
	}
	probs := problems(ve)
	sortProblems(probs)
	for _, p := range probs {
		out = append(out, Violation{Call: i, Tool: tc.Name, Pointer: p.Pointer, Keyword: p.Keyword, Message: p.Message})
	}
	return out
}

var emptyObject = agentcheck.MustParseToolCall("", "{}").Args

func (s *Set) undefined() string {
	if len(s.tools) == 0 {
		return "no tool is defined"
	}
	return "not a defined tool; defined: " + strings.Join(s.Names(), ", ")
}

// instance converts v to the values the validator takes: ints as
// json.Number, so that big ones keep every digit. Values JSON cannot carry
// (NaN, ±Inf) are appended to bad by pointer.
func instance(v jsonvalue.Value, path []string, bad *[]string) any {
	switch v.Kind() {
	case jsonvalue.NullKind:
		return nil
	case jsonvalue.BoolKind:
		return v.BoolValue()
	case jsonvalue.IntKind:
		return json.Number(v.Text())
	case jsonvalue.FloatKind:
		f := v.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			where := pointer(path)
			if where == "" {
				where = "(root)"
			}
			*bad = append(*bad, where+" is "+strconv.FormatFloat(f, 'g', -1, 64))
			return nil
		}
		return f
	case jsonvalue.StringKind:
		return v.Text()
	case jsonvalue.ArrayKind:
		arr := make([]any, v.Len())
		for i := range arr {
			arr[i] = instance(v.Index(i), append(path, strconv.Itoa(i)), bad)
		}
		return arr
	case jsonvalue.ObjectKind:
		ms := v.Members()
		obj := make(map[string]any, len(ms))
		for _, m := range ms {
			obj[m.Key] = instance(m.Value, append(path, m.Key), bad)
		}
		return obj
	}
	return nil
}

// pointer is the JSON pointer of a path of keys and indexes.
func pointer(path []string) string {
	var b strings.Builder
	for _, tok := range path {
		b.WriteByte('/')
		tok = strings.ReplaceAll(tok, "~", "~0")
		b.WriteString(strings.ReplaceAll(tok, "/", "~1"))
	}
	return b.String()
}

// problem is one leaf of a validation error.
type problem struct {
	Pointer, Keyword, Message string
}

// sortProblems orders problems by pointer, keyword and message: the
// validator meets an object's properties in map order.
func sortProblems(ps []problem) {
	sort.SliceStable(ps, func(a, b int) bool {
		if ps[a].Pointer != ps[b].Pointer {
			return ps[a].Pointer < ps[b].Pointer
		}
		if ps[a].Keyword != ps[b].Keyword {
			return ps[a].Keyword < ps[b].Keyword
		}
		return ps[a].Message < ps[b].Message
	})
}

var printer = message.NewPrinter(language.English)

// problems flattens a validation error into its leaves: the groups, allOf
// and $ref errors that only gather others give way to what they gather;
// anyOf and oneOf stay one problem that sums up each alternative's.
func problems(ve *jsonschema.ValidationError) []problem {
	var out []problem
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		switch e.ErrorKind.(type) {
		case *kind.Schema, *kind.Group, *kind.AllOf, *kind.Reference:
			if len(e.Causes) > 0 {
				for _, c := range e.Causes {
					walk(c)
				}
				return
			}
		}
		out = append(out, leaf(e))
	}
	walk(ve)
	return out
}

func leaf(e *jsonschema.ValidationError) problem {
	p := problem{Pointer: pointer(e.InstanceLocation), Keyword: keyword(e.ErrorKind)}
	msg, ok := numeric(e.ErrorKind)
	if !ok {
		msg = strings.TrimPrefix(e.ErrorKind.LocalizedString(printer), p.Keyword+": ")
	}
	switch k := e.ErrorKind.(type) {
	case *kind.AnyOf, *kind.OneOf:
		if o, ok := k.(*kind.OneOf); ok && len(o.Subschemas) > 0 {
			msg = "fits alternatives " + strconv.Itoa(o.Subschemas[0]) + " and " + strconv.Itoa(o.Subschemas[1]) + ", want exactly one"
			break
		}
		var alts []string
		for i, c := range e.Causes {
			var parts []string
			qs := problems(c)
			sortProblems(qs)
			for _, q := range qs {
				s := q.Keyword + ": " + q.Message
				if q.Pointer != p.Pointer && q.Pointer != "" {
					s = q.Pointer + ": " + s
				}
				parts = append(parts, s)
			}
			alts = append(alts, "("+strconv.Itoa(i)+") "+strings.Join(parts, ", "))
		}
		msg = "fits none of the " + strconv.Itoa(len(e.Causes)) + " alternatives: " + strings.Join(alts, "; ")
	case *kind.Not:
		msg = "fits the schema it must not"
	case *kind.FalseSchema:
		msg = "no value is allowed here"
	}
	p.Message = msg
	return p
}

// numeric words the kinds whose messages hold numbers, which the
// localized messages would print as 1,500 or 1.2×10¹⁹.
func numeric(k jsonschema.ErrorKind) (string, bool) {
	counts := func(got, want int) (string, bool) { return fmt.Sprintf("got %d, want %d", got, want), true }
	rats := func(got, want *big.Rat) (string, bool) {
		return "got " + ratString(got) + ", want " + ratString(want), true
	}
	switch k := k.(type) {
	case *kind.MinProperties:
		return counts(k.Got, k.Want)
	case *kind.MaxProperties:
		return counts(k.Got, k.Want)
	case *kind.MinItems:
		return counts(k.Got, k.Want)
	case *kind.MaxItems:
		return counts(k.Got, k.Want)
	case *kind.MinLength:
		return counts(k.Got, k.Want)
	case *kind.MaxLength:
		return counts(k.Got, k.Want)
	case *kind.Minimum:
		return rats(k.Got, k.Want)
	case *kind.Maximum:
		return rats(k.Got, k.Want)
	case *kind.ExclusiveMinimum:
		return rats(k.Got, k.Want)
	case *kind.ExclusiveMaximum:
		return rats(k.Got, k.Want)
	case *kind.MultipleOf:
		return rats(k.Got, k.Want)
	case *kind.AdditionalItems:
		return fmt.Sprintf("the last %d items are not allowed", k.Count), true
	case *kind.UniqueItems:
		return fmt.Sprintf("items at %d and %d are equal", k.Duplicates[0], k.Duplicates[1]), true
	case *kind.MinContains:
		return fmt.Sprintf("%d items match, want at least %d", len(k.Got), k.Want), true
	case *kind.MaxContains:
		return fmt.Sprintf("%d items match (at %s), want at most %d", len(k.Got), joinInts(k.Got), k.Want), true
	}
	return "", false
}

// ratString is r as an integer's digits, or else the shortest decimal that
// reads back as the nearest float.
func ratString(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

func joinInts(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ", ")
}

// keyword names the JSON Schema keyword of an error kind.
func keyword(k jsonschema.ErrorKind) string {
	if path := k.KeywordPath(); len(path) > 0 {
		return path[0]
	}
	switch k.(type) {
	case *kind.Not:
		return "not"
	case *kind.FalseSchema:
		return "false"
	}
	return "schema"
}

// truncate shortens s to n runes, marking the cut.
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
