package agenttest

import (
	"fmt"
	"math"
	"path"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	agentcheck "github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/internal/keypath"
	"github.com/agentcheck/agentcheck/jsonvalue"
	"github.com/agentcheck/agentcheck/trajectory"
)

// Args are the arguments an expected call must have, by name. A value is
// compared with the actual JSON value by JSON semantics: numbers by numeric
// value (10 == 10.0), strings and bools exactly, objects regardless of key
// order, lists in order; nil means JSON null, so the key must be present and
// null (use Absent for a missing key). A value may also be an ArgMatcher:
// Approx, OneOf, Absent, Anything, or any Gomega matcher. Nested Args,
// map[string]any and []any values may hold matchers too.
type Args map[string]any

// ArgMatcher matches one argument value. Gomega matchers are ArgMatchers:
// Match receives the value as plain Go (nil, bool, int64, float64, string,
// []any, map[string]any), and a FailureMessage(any) string method, when the
// matcher has one, explains a mismatch in the report.
type ArgMatcher interface {
	Match(actual any) (bool, error)
}

// valueMatcher is implemented by this package's matchers: they see the JSON
// value itself and whether the key is there at all, which a Gomega matcher
// cannot tell apart from null.
type valueMatcher interface {
	ArgMatcher
	matchValue(v jsonvalue.Value, present bool, eq *trajectory.Equivalence) (ok bool, note string)
	String() string
}

// Approx matches a number within tol of want (inclusive).
func Approx(want, tol float64) ArgMatcher { return approx{want, math.Abs(tol)} }

type approx struct{ want, tol float64 }

func (a approx) String() string {
	return "Approx(" + formatFloat(a.want) + ", " + formatFloat(a.tol) + ")"
}

func (a approx) matchValue(v jsonvalue.Value, present bool, _ *trajectory.Equivalence) (bool, string) {
	if !present {
		return false, ""
	}
	if v.Kind() != jsonvalue.IntKind && v.Kind() != jsonvalue.FloatKind {
		return false, "not a number"
	}
	// Equal values are within any tolerance, infinities included, whose
	// difference is NaN.
	return v.Float() == a.want || math.Abs(v.Float()-a.want) <= a.tol, ""
}

func (a approx) Match(actual any) (bool, error) { return matchPresent(a, actual) }

// OneOf matches a value that any of values matches; a value may be a literal
// or a matcher, so OneOf(nil, Absent()) accepts null or a missing key.
func OneOf(values ...any) ArgMatcher { return oneOf(slices.Clone(values)) }

type oneOf []any

func (o oneOf) String() string {
	parts := make([]string, len(o))
	for i, v := range o {
		parts[i] = renderExpected(v)
	}
	return "OneOf(" + strings.Join(parts, ", ") + ")"
}

func (o oneOf) matchValue(v jsonvalue.Value, present bool, eq *trajectory.Equivalence) (bool, string) {
	for _, alt := range o {
		if len(compareValue("", alt, v, present, eq, nil)) == 0 {
			return true, ""
		}
	}
	return false, ""
}

func (o oneOf) Match(actual any) (bool, error) { return matchPresent(o, actual) }

// Absent matches a key that is missing from the arguments. A key present
// with a null value is not absent: expect nil for that.
func Absent() ArgMatcher { return absent{} }

type absent struct{}

func (absent) String() string { return "Absent()" }
func (absent) matchValue(_ jsonvalue.Value, present bool, _ *trajectory.Equivalence) (bool, string) {
	return !present, ""
}

// Match reports false: a value given to it is a value that is there.
func (absent) Match(any) (bool, error) { return false, nil }

// Anything matches any value, null included, as long as the key is present.
func Anything() ArgMatcher { return anything{} }

type anything struct{}

func (anything) String() string { return "Anything()" }
func (anything) matchValue(_ jsonvalue.Value, present bool, _ *trajectory.Equivalence) (bool, string) {
	return present, ""
}
func (anything) Match(any) (bool, error) { return true, nil }

// Optional matches a missing key, or a present value that want matches (a
// literal or a matcher): BFCL's "may be omitted".
func Optional(want any) ArgMatcher { return optional{want} }

type optional struct{ want any }

func (o optional) String() string { return "Optional(" + renderExpected(o.want) + ")" }

func (o optional) matchValue(v jsonvalue.Value, present bool, eq *trajectory.Equivalence) (bool, string) {
	return !present || len(compareValue("", o.want, v, true, eq, nil)) == 0, ""
}

func (o optional) Match(actual any) (bool, error) { return matchPresent(o, actual) }

func matchPresent(m valueMatcher, actual any) (bool, error) {
	v, err := jsonvalue.Of(actual)
	if err != nil {
		return false, err
	}
	ok, note := m.matchValue(v, true, nil)
	if !ok && note != "" {
		return false, fmt.Errorf("%s: %s: %s", m, note, renderJSON(v))
	}
	return ok, nil
}

// ExpectedCall describes a tool call a test expects: a tool name (or a
// pattern of names) and what its arguments, its kind and its result must
// be. Build one with CallTo, CallToGlob or CallToRegexp; every method
// returns a changed copy.
type ExpectedCall struct {
	name         string
	glob         bool           // name is a path.Match pattern
	re           *regexp.Regexp // when set, names must match it
	kind         *agentcheck.ToolKind
	withArgs     bool // false: any arguments
	args         Args
	ignored      []string
	allowExtra   bool
	allowMissing bool
	value        any // WithValue's expectation, when isValue
	isValue      bool
	eq           trajectory.Equivalence
	result       any // what the result must be, when hasResult
	hasResult    bool
	outcome      int8 // 1: the call must have failed; -1: succeeded
}

// CallTo expects a call to the named tool with any arguments.
func CallTo(name string) ExpectedCall { return ExpectedCall{name: name} }

// CallToGlob expects a call to any tool whose name matches pattern, in the
// syntax of path.Match: "search_*", "get_?".
func CallToGlob(pattern string) ExpectedCall { return ExpectedCall{name: pattern, glob: true} }

// CallToRegexp expects a call to any tool whose name re matches.
func CallToRegexp(re *regexp.Regexp) ExpectedCall {
	return ExpectedCall{name: "/" + re.String() + "/", re: re}
}

// With expects these arguments. Arguments the call has beyond them are a
// difference unless AllowingExtraArgs is given.
func (c ExpectedCall) With(args Args) ExpectedCall {
	c.withArgs = true
	c.args = make(Args, len(args))
	for k, v := range args {
		c.args[k] = v
	}
	return c
}

// WithValue expects arguments that are not an object, as some SDKs allow:
// an array or a scalar (or a matcher of one), compared as With compares a
// value.
func (c ExpectedCall) WithValue(want any) ExpectedCall {
	c.withArgs, c.args, c.value, c.isValue = true, nil, want, true
	return c
}

// WithNoArgs expects a call without arguments (none, or an empty object).
func (c ExpectedCall) WithNoArgs() ExpectedCall { return c.With(nil) }

// Ignoring leaves these arguments out of the comparison: they may be
// present or not, with any value, even if With names them. A key is a
// dotted path into nested objects ("time.start") whose segments may be
// path.Match patterns ("*_id").
func (c ExpectedCall) Ignoring(keys ...string) ExpectedCall {
	c.ignored = append(slices.Clone(c.ignored), keys...)
	return c
}

// AllowingExtraArgs accepts top-level arguments that With does not name
// (the call's arguments are a superset of the expected ones). Nested
// objects are still compared whole.
func (c ExpectedCall) AllowingExtraArgs() ExpectedCall {
	c.allowExtra = true
	return c
}

// AllowingMissingArgs accepts a call that leaves out top-level arguments
// With names (the call's arguments are a subset of the expected ones);
// those it gives must match.
func (c ExpectedCall) AllowingMissingArgs() ExpectedCall {
	c.allowMissing = true
	return c
}

// Comparing compares argument values under eq: strings normalised
// (trajectory.CaseInsensitive, trajectory.BFCLStrings) or numbers within a
// tolerance. The zero Equivalence is JSON equality.
func (c ExpectedCall) Comparing(eq trajectory.Equivalence) ExpectedCall {
	c.eq = eq
	return c
}

// OfKind expects a call of a tool of this kind: agentcheck.FunctionTool,
// MCPTool or HostedTool.
func (c ExpectedCall) OfKind(kind agentcheck.ToolKind) ExpectedCall {
	c.kind = &kind
	return c
}

// Returning expects the call's result, the content of the tool message
// that answers it, to be want: a string compared exactly, or an ArgMatcher
// (a Gomega matcher such as ContainSubstring) given the content as a
// string.
func (c ExpectedCall) Returning(want any) ExpectedCall {
	c.result, c.hasResult = want, true
	return c
}

// Failing expects the tool to have reported an error for the call.
func (c ExpectedCall) Failing() ExpectedCall {
	c.outcome = 1
	return c
}

// Succeeding expects the call to have a result that is not an error.
func (c ExpectedCall) Succeeding() ExpectedCall {
	c.outcome = -1
	return c
}

// Name returns the expected tool name (or the pattern of names).
func (c ExpectedCall) Name() string { return c.name }

// String renders the expectation as a call: search(city: "Paris"),
// search(...) for any arguments, search(city: "Paris", ...) when extra
// arguments are allowed, and ignored arguments as "key: ignored"; then its
// kind and result, as the methods that set them.
func (c ExpectedCall) String() string {
	var b strings.Builder
	switch {
	case !c.withArgs:
		b.WriteString(c.name + "(...)")
	case c.isValue:
		b.WriteString(c.name + "(" + renderExpected(c.value) + ")")
	default:
		keys := sortedKeys(c.args)
		parts := make([]string, 0, len(keys)+len(c.ignored)+1)
		for _, k := range keys {
			if c.isIgnored(k) {
				continue
			}
			parts = append(parts, renderKey(k)+": "+renderExpected(c.args[k]))
		}
		for _, k := range c.ignored {
			parts = append(parts, renderKey(k)+": ignored")
		}
		if c.allowExtra || c.allowMissing {
			parts = append(parts, "...")
		}
		b.WriteString(c.name + "(" + strings.Join(parts, ", ") + ")")
	}
	if c.kind != nil {
		fmt.Fprintf(&b, ".OfKind(%q)", kindName(*c.kind))
	}
	if c.hasResult {
		b.WriteString(".Returning(" + renderExpected(c.result) + ")")
	}
	switch c.outcome {
	case 1:
		b.WriteString(".Failing()")
	case -1:
		b.WriteString(".Succeeding()")
	}
	return b.String()
}

// target names the expectation in a sentence: the bare tool name when any
// call to it will do.
func (c ExpectedCall) target() string {
	if !c.withArgs && c.kind == nil && !c.hasResult && c.outcome == 0 {
		return c.name
	}
	return c.String()
}

func (c ExpectedCall) isIgnored(k string) bool {
	for _, p := range c.ignored {
		if ok, _ := path.Match(p, k); ok {
			return true
		}
	}
	return false
}

func (c ExpectedCall) nameMatches(name string) bool {
	switch {
	case c.re != nil:
		return c.re.MatchString(name)
	case c.glob:
		ok, _ := path.Match(c.name, name)
		return ok
	}
	return name == c.name
}

func (c ExpectedCall) eqp() *trajectory.Equivalence {
	if c.eq.Strings == nil && c.eq.Tolerance == 0 {
		return nil
	}
	return &c.eq
}

// callResult is what the transcript says of a call's outcome.
type callResult struct {
	content string
	isError bool
}

// callDiff is how an actual call differs from an expected one.
type callDiff struct {
	nameDiffers bool
	args        []argDiff
}

func (d callDiff) match() bool { return !d.nameDiffers && len(d.args) == 0 }

type diffKind uint8

const (
	differs diffKind = iota
	missing
	unexpected
)

// argDiff is one argument (or nested element, by path) that differs.
type argDiff struct {
	path string
	kind diffKind
	want string // rendering of the expectation; "" when unexpected
	got  string // rendering of the actual value; "" when missing
	note string // a matcher's explanation, on one line
}

// compare compares a call, and its result (nil: none known), with the
// expectation.
func (c ExpectedCall) compare(tc agentcheck.ToolCall, res *callResult) callDiff {
	d := callDiff{nameDiffers: !c.nameMatches(tc.Name)}
	if c.kind != nil && tc.Kind != *c.kind {
		d.args = append(d.args, argDiff{path: "(kind)", kind: differs, want: kindName(*c.kind), got: kindName(tc.Kind)})
	}
	d.args = c.compareResult(res, d.args)
	if !c.withArgs {
		return d
	}
	if tc.InvalidArgs != "" {
		d.args = append(d.args, unparseable(renderExpected(c.args), tc))
		return d
	}
	args := tc.Args
	if c.isValue {
		d.args = compareValue("(arguments)", c.value, args, args.Kind() != jsonvalue.NullKind, c.eqp(), d.args)
		return d
	}
	if args.Kind() != jsonvalue.ObjectKind && args.Kind() != jsonvalue.NullKind {
		d.args = append(d.args, argDiff{kind: differs, want: "arguments object", got: renderJSON(args)})
		return d
	}
	want := c.args
	if len(c.ignored) > 0 {
		args, want = trajectory.IgnorePaths(args, c.ignored...), pruneArgs(c.args, keypath.Split(c.ignored))
	}
	if c.allowMissing {
		// Subset arguments: the expected keys the call left out are fine.
		kept := make(Args, len(want))
		for k, v := range want {
			if _, ok := args.Get(k); ok {
				kept[k] = v
			}
		}
		want = kept
	}
	d.args = compareMembers("", want, args, c.allowExtra, c.eqp(), d.args)
	return d
}

func kindName(k agentcheck.ToolKind) string {
	if k == agentcheck.FunctionTool {
		return "function"
	}
	return string(k)
}

// compareResult compares the call's result with the expectation's.
func (c ExpectedCall) compareResult(res *callResult, out []argDiff) []argDiff {
	if !c.hasResult && c.outcome == 0 {
		return out
	}
	if res == nil {
		return append(out, argDiff{path: "(result)", kind: missing, want: c.resultWant(), note: "the transcript has no tool message answering this call"})
	}
	switch {
	case c.outcome == 1 && !res.isError:
		out = append(out, argDiff{path: "(result)", kind: differs, want: "an error", got: "success " + strconv.Quote(res.content)})
	case c.outcome == -1 && res.isError:
		out = append(out, argDiff{path: "(result)", kind: differs, want: "success", got: "error " + strconv.Quote(res.content)})
	}
	if !c.hasResult {
		return out
	}
	got := jsonvalue.String(res.content)
	if s, ok := c.result.(string); ok {
		if s != res.content {
			out = append(out, argDiff{path: "(result)", kind: differs, want: strconv.Quote(s), got: strconv.Quote(res.content)})
		}
		return out
	}
	if diffs := compareValue("(result)", c.result, got, true, c.eqp(), nil); len(diffs) > 0 {
		out = append(out, diffs...)
	}
	return out
}

func (c ExpectedCall) resultWant() string {
	switch {
	case c.hasResult:
		return renderExpected(c.result)
	case c.outcome == 1:
		return "an error"
	}
	return "success"
}

// pruneArgs removes the keys that ignore patterns name from expected
// arguments, at any depth of nested Args and maps.
func pruneArgs(want map[string]any, patterns [][]string) Args {
	out := make(Args, len(want))
	for k, v := range want {
		drop, deeper := keypath.Step(patterns, k)
		if drop {
			continue
		}
		if len(deeper) > 0 {
			switch m := v.(type) {
			case Args:
				v = pruneArgs(m, deeper)
			case map[string]any:
				v = pruneArgs(m, deeper)
			}
		}
		out[k] = v
	}
	return out
}

// compareMembers compares an object's members with want's keys, appending
// the differences to out. allowExtra applies to this level only.
func compareMembers(path string, want map[string]any, got jsonvalue.Value, allowExtra bool, eq *trajectory.Equivalence, out []argDiff) []argDiff {
	for _, k := range sortedKeys(want) {
		gv, ok := got.Get(k)
		out = compareValue(joinPath(path, k), want[k], gv, ok, eq, out)
	}
	if allowExtra {
		return out
	}
	for _, m := range got.Members() {
		if _, ok := want[m.Key]; ok {
			continue
		}
		out = append(out, argDiff{path: joinPath(path, m.Key), kind: unexpected, got: renderJSON(m.Value)})
	}
	return out
}

// compareValue compares the actual value got (present or not) with want,
// appending the differences to out.
func compareValue(path string, want any, got jsonvalue.Value, present bool, eq *trajectory.Equivalence, out []argDiff) []argDiff {
	miss := func() []argDiff {
		return append(out, argDiff{path: path, kind: missing, want: renderExpected(want)})
	}
	switch w := want.(type) {
	case valueMatcher:
		ok, note := w.matchValue(got, present, eq)
		if ok {
			return out
		}
		if !present {
			return miss()
		}
		return append(out, argDiff{path: path, kind: differs, want: w.String(), got: renderJSON(got), note: note})
	case ArgMatcher:
		if !present {
			return miss()
		}
		actual := got.Interface()
		ok, err := w.Match(actual)
		if ok && err == nil {
			return out
		}
		d := argDiff{path: path, kind: differs, want: describeMatcher(w), got: renderJSON(got)}
		if err != nil {
			d.note = oneLine(err.Error())
		} else if fm, ok := w.(interface{ FailureMessage(any) string }); ok {
			d.note = oneLine(fm.FailureMessage(actual))
		}
		return append(out, d)
	case Args:
		return compareObject(path, w, got, present, eq, out)
	case map[string]any:
		return compareObject(path, w, got, present, eq, out)
	case []any:
		if !present {
			return miss()
		}
		if got.Kind() != jsonvalue.ArrayKind {
			return append(out, argDiff{path: path, kind: differs, want: renderExpected(w), got: renderJSON(got)})
		}
		n := min(len(w), got.Len())
		for i := 0; i < n; i++ {
			out = compareValue(path+"["+strconv.Itoa(i)+"]", w[i], got.Index(i), true, eq, out)
		}
		for i := n; i < len(w); i++ {
			out = append(out, argDiff{path: path + "[" + strconv.Itoa(i) + "]", kind: missing, want: renderExpected(w[i])})
		}
		for i := n; i < got.Len(); i++ {
			out = append(out, argDiff{path: path + "[" + strconv.Itoa(i) + "]", kind: unexpected, got: renderJSON(got.Index(i))})
		}
		return out
	}
	if !present {
		return miss()
	}
	wv, err := jsonvalue.Of(want)
	if err != nil {
		return append(out, argDiff{path: path, kind: differs, want: fmt.Sprintf("%#v", want), got: renderJSON(got), note: err.Error()})
	}
	if !eq.Equal(wv, got) {
		return append(out, argDiff{path: path, kind: differs, want: renderJSON(wv), got: renderJSON(got)})
	}
	return out
}

func compareObject(path string, want map[string]any, got jsonvalue.Value, present bool, eq *trajectory.Equivalence, out []argDiff) []argDiff {
	if !present {
		return append(out, argDiff{path: path, kind: missing, want: renderExpected(want)})
	}
	if got.Kind() != jsonvalue.ObjectKind {
		return append(out, argDiff{path: path, kind: differs, want: renderExpected(want), got: renderJSON(got)})
	}
	return compareMembers(path, want, got, false, eq, out)
}

// unparseable is the difference of a call whose arguments are not valid
// JSON from the arguments wanted, want rendered.
func unparseable(want string, tc agentcheck.ToolCall) argDiff {
	return argDiff{kind: differs, want: want, got: "unparseable arguments " + strconv.Quote(tc.InvalidArgs), note: "the arguments are not valid JSON"}
}

// Rendering.

func renderJSON(v jsonvalue.Value) string { return v.String() }

// renderCall renders an actual call as name(key: json, ...) in argument
// order, the shape ExpectedCall.String uses, so the two read alike.
func renderCall(tc agentcheck.ToolCall) string {
	if tc.InvalidArgs != "" {
		return tc.String()
	}
	var b strings.Builder
	b.WriteString(tc.Name)
	b.WriteByte('(')
	switch tc.Args.Kind() {
	case jsonvalue.ObjectKind:
		for i, m := range tc.Args.Members() {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(renderKey(m.Key))
			b.WriteString(": ")
			b.WriteString(m.Value.String())
		}
	case jsonvalue.NullKind:
	default:
		b.WriteString(tc.Args.String())
	}
	b.WriteByte(')')
	return b.String()
}

func renderExpected(want any) string {
	switch w := want.(type) {
	case nil:
		return "null"
	case valueMatcher:
		return w.String()
	case ArgMatcher:
		return describeMatcher(w)
	case Args:
		return renderExpectedObject(w)
	case map[string]any:
		return renderExpectedObject(w)
	case []any:
		parts := make([]string, len(w))
		for i, e := range w {
			parts[i] = renderExpected(e)
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	v, err := jsonvalue.Of(want)
	if err != nil {
		return fmt.Sprintf("%#v", want)
	}
	return renderJSON(v)
}

func renderExpectedObject(m map[string]any) string {
	keys := sortedKeys(m)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = jsonvalue.String(k).String() + ":" + renderExpected(m[k])
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// describeMatcher renders a matcher from another package as the call that
// likely built it, from its type name and exported fields: Gomega's
// &MatchRegexpMatcher{Regexp: `^a`} becomes MatchRegexp(`^a`). A matcher
// with a String method is rendered by it.
func describeMatcher(m any) string {
	if s, ok := m.(fmt.Stringer); ok {
		return s.String()
	}
	rv := reflect.ValueOf(m)
	for rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	name := strings.TrimSuffix(rv.Type().Name(), "Matcher")
	if name == "" {
		name = rv.Type().String()
	}
	if rv.Kind() != reflect.Struct {
		return name + "()"
	}
	var parts []string
	for i := 0; i < rv.NumField(); i++ {
		f := rv.Field(i)
		if !rv.Type().Field(i).IsExported() || f.IsZero() {
			continue
		}
		if f.Kind() == reflect.Slice {
			for j := 0; j < f.Len(); j++ {
				parts = append(parts, describeArg(f.Index(j).Interface()))
			}
			continue
		}
		parts = append(parts, describeArg(f.Interface()))
	}
	return name + "(" + strings.Join(parts, ", ") + ")"
}

func describeArg(x any) string {
	switch v := x.(type) {
	case string:
		if !strings.Contains(v, "`") && strconv.CanBackquote(v) && strings.Contains(v, `\`) {
			return "`" + v + "`"
		}
		return strconv.Quote(v)
	case float64:
		return formatFloat(v)
	case ArgMatcher:
		return describeMatcher(v)
	}
	if x != nil && reflect.TypeOf(x).Kind() == reflect.Func {
		return "func" // Satisfy's predicate: its address would say nothing
	}
	return fmt.Sprint(x)
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// renderKey writes an argument name bare when it reads as one, else quoted.
func renderKey(k string) string {
	if isPlainKey(k) {
		return k
	}
	return jsonvalue.String(k).String()
}

func isPlainKey(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func joinPath(path, key string) string {
	switch {
	case path == "":
		return renderKey(key)
	case isPlainKey(key):
		return path + "." + key
	}
	return path + "[" + jsonvalue.String(key).String() + "]"
}

// oneLine folds a multi-line matcher message (Gomega indents the values on
// lines of their own) into one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
