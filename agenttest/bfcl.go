package agenttest

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/agentcheck/agentcheck/jsonvalue"
	"github.com/agentcheck/agentcheck/trajectory"
)

// BFCLCalls reads a BFCL question, its function declarations and one of
// its possible answers (BFCL's ground truth: a list of {function:
// {parameter: [acceptable values]}}), and returns the calls it expects,
// one per answer, each checked as BFCL's AST checker checks a call against
// both: a parameter the function does not declare or the answer does not
// list fails; a required parameter must be given even when its answers
// allow "" (which otherwise means it may be left out); a value must be of
// the declared type and one of the acceptable values, strings compared by
// trajectory.BFCLStrings, lists element by element in order, a dict (and each
// dict of a list of dicts) key by key against answers of its own. Check
// them with CheckToolCalls(actual, trajectory.Unordered, calls...): BFCL's
// simple, multiple and parallel categories all want these calls, in any
// order, nothing else.
//
// Where agentcheck decides otherwise, on purpose: numbers compare as JSON
// numbers (10 equals 10.0, an int is a float and an integral float an
// integer); an explicit "" or [] is not an omitted parameter; parallel
// calls pair up optimally rather than first fit; and strings in a list in
// a dict are normalised like the others.
//
// functions and answer are JSON text (string, []byte, json.RawMessage) or
// the values encoding/json decodes it to. An answer naming a function that
// is not declared, or a parameter whose acceptable values are not a list,
// is an error saying where.
func BFCLCalls(functions, answer any) ([]ExpectedCall, error) {
	fv, err := bfclValue(functions)
	if err != nil {
		return nil, fmt.Errorf("BFCL functions: %w", err)
	}
	av, err := bfclValue(answer)
	if err != nil {
		return nil, fmt.Errorf("BFCL possible answer: %w", err)
	}
	decls := map[string]jsonvalue.Value{}
	if fv.Kind() == jsonvalue.ObjectKind {
		fv = jsonvalue.Array(fv)
	}
	if fv.Kind() != jsonvalue.ArrayKind {
		return nil, fmt.Errorf("BFCL functions: want a list of function declarations, got %s", fv.Kind())
	}
	for i, f := range fv.Elements() {
		name, _ := f.Value.Get("name")
		if name.Kind() != jsonvalue.StringKind {
			return nil, fmt.Errorf("BFCL functions[%d]: no name", i)
		}
		decls[name.Text()] = f.Value
	}
	if av.Kind() == jsonvalue.ObjectKind {
		av = jsonvalue.Array(av)
	}
	if av.Kind() != jsonvalue.ArrayKind {
		return nil, fmt.Errorf("BFCL possible answer: want a list of {function: {parameter: [values]}}, got %s", av.Kind())
	}
	var calls []ExpectedCall
	for i, a := range av.Elements() {
		if a.Value.Kind() != jsonvalue.ObjectKind {
			return nil, fmt.Errorf("BFCL possible answer[%d]: want {function: {parameter: [values]}}, got %s", i, a.Value.Kind())
		}
		for _, fn := range a.Value.Members() {
			decl, ok := decls[fn.Key]
			if !ok {
				return nil, fmt.Errorf("BFCL possible answer[%d]: the function %q is not declared", i, fn.Key)
			}
			args, err := bfclArgs(decl, fn.Value)
			if err != nil {
				return nil, fmt.Errorf("BFCL possible answer[%d] %s: %w", i, fn.Key, err)
			}
			calls = append(calls, CallTo(fn.Key).With(args))
		}
	}
	return calls, nil
}

// bfclValue reads JSON text or decoded JSON.
func bfclValue(x any) (jsonvalue.Value, error) {
	switch x := x.(type) {
	case string:
		return jsonvalue.Parse([]byte(x))
	case []byte:
		return jsonvalue.Parse(x)
	case json.RawMessage:
		return jsonvalue.Parse(x)
	}
	return jsonvalue.Of(x)
}

// bfclArgs makes one answer's parameters expected arguments, checked
// against the declaration decl.
func bfclArgs(decl, params jsonvalue.Value) (Args, error) {
	if params.Kind() != jsonvalue.ObjectKind {
		return nil, fmt.Errorf("want {parameter: [values]}, got %s", params.Kind())
	}
	ps, _ := decl.Get("parameters")
	props, _ := ps.Get("properties")
	var required []string
	if req, ok := ps.Get("required"); ok {
		for _, r := range req.Elements() {
			required = append(required, r.Value.Text())
		}
	}
	args := Args{}
	for _, p := range params.Members() {
		if p.Value.Kind() != jsonvalue.ArrayKind {
			return nil, fmt.Errorf("parameter %q: want a list of acceptable values, got %s", p.Key, p.Value)
		}
		m := bfclParam{name: p.Key}
		for _, alt := range p.Value.Elements() {
			if alt.Value.Kind() == jsonvalue.StringKind && alt.Value.Text() == "" {
				m.omissible = true
				continue
			}
			m.alts = append(m.alts, alt.Value)
		}
		pd, declared := props.Get(p.Key)
		switch {
		case !declared:
			m.undeclared = true
		default:
			t, _ := pd.Get("type")
			m.typ = t.Text()
			if items, ok := pd.Get("items"); ok {
				it, _ := items.Get("type")
				m.items = it.Text()
			}
		}
		m.required = slices.Contains(required, p.Key)
		args[p.Key] = m
	}
	// A required parameter the answer does not list cannot be right:
	// missing, it is missing; given, BFCL finds it unexpected.
	for _, r := range required {
		if _, ok := params.Get(r); !ok {
			args[r] = bfclParam{name: r, unanswered: true, required: true}
		}
	}
	return args, nil
}

// bfclParam is one parameter of a BFCL answer: its declared type and its
// acceptable values ("" left out: omissible says it was there).
type bfclParam struct {
	name       string
	typ, items string
	alts       []jsonvalue.Value
	omissible  bool // "" is among its answers
	required   bool // the function requires it
	undeclared bool // the answer lists it, the function does not declare it
	unanswered bool // the function requires it, the answer does not list it
}

// leftOut reports whether the parameter may be left out: "" is among its
// answers and the function does not require it.
func (m bfclParam) leftOut() bool { return m.omissible && !m.required }

// String renders the parameter as the DSL would expect it: its values
// (OneOf when several), Optional when it may be left out, Absent() when
// it can only be left out.
func (m bfclParam) String() string {
	switch {
	case m.undeclared && m.leftOut():
		return "Absent()"
	case m.undeclared:
		return "Undeclared()"
	case m.unanswered:
		return "Unanswered()"
	case len(m.alts) == 0 && m.leftOut():
		return "Absent()"
	}
	parts := make([]string, len(m.alts))
	for i, a := range m.alts {
		parts[i] = a.String()
	}
	s := strings.Join(parts, ", ")
	if len(parts) != 1 {
		s = "OneOf(" + s + ")"
	}
	if m.leftOut() {
		s = "Optional(" + s + ")"
	}
	return s
}

// matchValue checks the parameter given or left out, saying why it does
// not fit.
func (m bfclParam) matchValue(v jsonvalue.Value, present bool, _ *trajectory.Equivalence) (bool, string) {
	if !present {
		return m.leftOut(), ""
	}
	why := m.why(v)
	return why == "", why
}

// Match checks a given value as BFCL's simple_function_checker checks one
// parameter.
func (m bfclParam) Match(actual any) (bool, error) {
	v, err := jsonvalue.Of(actual)
	if err != nil {
		return false, err
	}
	return m.why(v) == "", nil
}

// FailureMessage says why the value is not acceptable.
func (m bfclParam) FailureMessage(actual any) string {
	v, err := jsonvalue.Of(actual)
	if err != nil {
		return err.Error()
	}
	return m.why(v)
}

// NegatedFailureMessage says the value is acceptable.
func (m bfclParam) NegatedFailureMessage(actual any) string {
	return fmt.Sprintf("%v is one of the acceptable values %s", actual, m)
}

// why is "" for an acceptable value, else the reason it is not.
func (m bfclParam) why(v jsonvalue.Value) string {
	switch {
	case m.undeclared:
		return "the function does not declare " + strconv.Quote(m.name)
	case m.unanswered:
		return "the function requires " + strconv.Quote(m.name) + " but the possible answer lists no value for it"
	}
	want, known := bfclKinds[m.typ]
	// An answer of another type than the declared one is a variable's
	// name (or a literal of its own type): BFCL accepts a value of the
	// answer's type and compares it as is.
	variable := false
	if len(m.alts) > 0 && known && !want.has(m.alts[0].Kind()) {
		variable = true
	}
	typeOK := !known || want.has(v.Kind()) || len(m.alts) > 0 && bfclKindOf(m.alts[0].Kind()) == bfclKindOf(v.Kind())
	if !typeOK {
		return fmt.Sprintf("the function declares it %s, not %s", m.typ, v.Kind())
	}
	// An answer of "" lets any elements through, as any answer that is
	// not a list does.
	if want.has(v.Kind()) && v.Kind() == jsonvalue.ArrayKind && m.items != "" && !m.omissible {
		if why := m.itemTypes(v); why != "" {
			return why
		}
	}
	if variable || !want.has(v.Kind()) {
		if bfclIn(v, m.alts, nil) {
			return ""
		}
		return "not one of the acceptable values"
	}
	switch {
	case m.typ == "dict":
		return bfclDict(v, m.alts)
	case (m.typ == "array" || m.typ == "tuple") && m.items == "dict":
		return bfclListOfDicts(v, m.alts)
	case m.typ == "string" || m.typ == "any":
		if bfclIn(v, m.alts, trajectory.BFCLStrings) {
			return ""
		}
		return "not one of the acceptable values, compared by trajectory.BFCLStrings"
	case m.typ == "array" || m.typ == "tuple":
		if bfclInLists(v, m.alts) {
			return ""
		}
		return "not one of the acceptable lists, compared element by element, strings by trajectory.BFCLStrings"
	}
	if bfclIn(v, m.alts, nil) {
		return ""
	}
	return "not one of the acceptable values"
}

// itemTypes checks the elements of a list against the declared item type
// (or the type of an acceptable list's first element), as BFCL does one
// level deep; an answer that is not a list lets any elements through.
func (m bfclParam) itemTypes(v jsonvalue.Value) string {
	want, known := bfclKinds[m.items]
	if !known || len(m.alts) == 0 {
		return ""
	}
	for _, alt := range m.alts {
		if alt.Kind() != jsonvalue.ArrayKind {
			return ""
		}
		ok := true
		for _, e := range v.Elements() {
			if !want.has(e.Value.Kind()) && (alt.Len() == 0 || bfclKindOf(alt.Index(0).Kind()) != bfclKindOf(e.Value.Kind())) {
				ok = false
				break
			}
		}
		if ok {
			return ""
		}
	}
	return fmt.Sprintf("the function declares a list of %s", m.items)
}

// bfclKind is a set of JSON kinds that a declared type accepts.
type bfclKind uint16

func (k bfclKind) has(kind jsonvalue.Kind) bool { return k&(1<<kind) != 0 }

func kinds(ks ...jsonvalue.Kind) bfclKind {
	var k bfclKind
	for _, x := range ks {
		k |= 1 << x
	}
	return k
}

// bfclKinds are the JSON kinds of BFCL's Python types; numbers are JSON
// numbers, an integer or a float alike.
var bfclKinds = map[string]bfclKind{
	"string":  kinds(jsonvalue.StringKind),
	"any":     kinds(jsonvalue.StringKind),
	"integer": kinds(jsonvalue.IntKind, jsonvalue.FloatKind),
	"float":   kinds(jsonvalue.IntKind, jsonvalue.FloatKind),
	"boolean": kinds(jsonvalue.BoolKind),
	"array":   kinds(jsonvalue.ArrayKind),
	"tuple":   kinds(jsonvalue.ArrayKind),
	"dict":    kinds(jsonvalue.ObjectKind),
}

// bfclKindOf folds the number kinds into one.
func bfclKindOf(k jsonvalue.Kind) jsonvalue.Kind {
	if k == jsonvalue.FloatKind {
		return jsonvalue.IntKind
	}
	return k
}

// bfclIn reports whether v is one of alts: strings rewritten by norm when
// it is set, everything else as JSON values.
func bfclIn(v jsonvalue.Value, alts []jsonvalue.Value, norm func(string) string) bool {
	for _, a := range alts {
		if norm != nil && v.Kind() == jsonvalue.StringKind && a.Kind() == jsonvalue.StringKind {
			if norm(v.Text()) == norm(a.Text()) {
				return true
			}
			continue
		}
		if jsonvalue.Equal(v, a) {
			return true
		}
	}
	return false
}

// bfclInLists reports whether the list v is one of the acceptable lists,
// element by element in order, the strings among its elements compared
// by trajectory.BFCLStrings and the rest as JSON values.
func bfclInLists(v jsonvalue.Value, alts []jsonvalue.Value) bool {
	for _, a := range alts {
		if a.Kind() != jsonvalue.ArrayKind || a.Len() != v.Len() {
			continue
		}
		ok := true
		for i, e := range v.Elements() {
			if !bfclIn(e.Value, []jsonvalue.Value{a.Index(i)}, trajectory.BFCLStrings) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// bfclDict checks a dict against acceptable dict answers, each a dict of
// lists of acceptable values: a key the answer does not list fails, a key
// whose values do not allow "" must be given, a value is one of its key's
// values (strings and the strings of a list by trajectory.BFCLStrings, a
// nested dict as a JSON value).
func bfclDict(v jsonvalue.Value, alts []jsonvalue.Value) string {
	why := "no acceptable dict"
	for _, a := range alts {
		if a.Kind() != jsonvalue.ObjectKind {
			continue
		}
		if w := bfclDictAnswer(v, a); w == "" {
			return ""
		} else {
			why = w
		}
	}
	return why
}

func bfclDictAnswer(v, answer jsonvalue.Value) string {
	switch {
	case answer.Kind() != jsonvalue.ObjectKind:
		return "no acceptable dict"
	case v.Kind() != jsonvalue.ObjectKind:
		return "not a dict"
	}
	for _, m := range v.Members() {
		vals, ok := answer.Get(m.Key)
		if !ok {
			return "unexpected key " + strconv.Quote(m.Key)
		}
		if !bfclDictValue(m.Value, vals) {
			return fmt.Sprintf("key %q: %s is not one of %s", m.Key, m.Value, vals)
		}
	}
	for _, m := range answer.Members() {
		if _, ok := v.Get(m.Key); ok {
			continue
		}
		omissible := false
		for _, x := range bfclList(m.Value) {
			omissible = omissible || x.Kind() == jsonvalue.StringKind && x.Text() == ""
		}
		if !omissible {
			return "missing key " + strconv.Quote(m.Key)
		}
	}
	return ""
}

// bfclDictValue reports whether a dict's value is one of vals; an explicit
// "" or [] is not an omitted key.
func bfclDictValue(v, vals jsonvalue.Value) bool {
	for _, a := range bfclList(vals) {
		switch {
		case a.Kind() == jsonvalue.StringKind && a.Text() == "":
			continue
		case v.Kind() == jsonvalue.ArrayKind:
			if bfclInLists(v, []jsonvalue.Value{a}) {
				return true
			}
		case bfclIn(v, []jsonvalue.Value{a}, trajectory.BFCLStrings):
			return true
		}
	}
	return false
}

// bfclList is a dict answer's acceptable values: its list, or a single
// value that is not one.
func bfclList(vals jsonvalue.Value) []jsonvalue.Value {
	if vals.Kind() != jsonvalue.ArrayKind {
		return []jsonvalue.Value{vals}
	}
	out := make([]jsonvalue.Value, vals.Len())
	for i := range out {
		out[i] = vals.Index(i)
	}
	return out
}

// bfclListOfDicts checks a list of dicts against acceptable lists of dict
// answers, in order.
func bfclListOfDicts(v jsonvalue.Value, alts []jsonvalue.Value) string {
	why := "no acceptable list of dicts"
	for _, a := range alts {
		if a.Kind() != jsonvalue.ArrayKind {
			continue
		}
		if a.Len() != v.Len() {
			why = fmt.Sprintf("%d dicts where %d are acceptable", v.Len(), a.Len())
			continue
		}
		ok := true
		for i, e := range v.Elements() {
			if w := bfclDictAnswer(e.Value, a.Index(i)); w != "" {
				why, ok = fmt.Sprintf("[%d]: %s", i, w), false
				break
			}
		}
		if ok {
			return ""
		}
	}
	return why
}
