package agenttest

import (
	"fmt"
	"math"
	"math/big"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	openai "github.com/sashabaranov/go-openai"
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
	matchValue(v Value, present bool) (ok bool, note string)
	String() string
}

// Approx matches a number within tol of want (inclusive).
func Approx(want, tol float64) ArgMatcher { return approx{want, math.Abs(tol)} }

type approx struct{ want, tol float64 }

func (a approx) String() string {
	return "Approx(" + formatFloat(a.want) + ", " + formatFloat(a.tol) + ")"
}

func (a approx) matchValue(v Value, present bool) (bool, string) {
	if !present {
		return false, ""
	}
	if v.Kind() != Int && v.Kind() != Float {
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

func (o oneOf) matchValue(v Value, present bool) (bool, string) {
	for _, alt := range o {
		if len(compareValue("", alt, v, present, nil)) == 0 {
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

func (absent) String() string                                  { return "Absent()" }
func (absent) matchValue(_ Value, present bool) (bool, string) { return !present, "" }

// Match reports false: a value given to it is a value that is there.
func (absent) Match(any) (bool, error) { return false, nil }

// Anything matches any value, null included, as long as the key is present.
func Anything() ArgMatcher { return anything{} }

type anything struct{}

func (anything) String() string                                  { return "Anything()" }
func (anything) matchValue(_ Value, present bool) (bool, string) { return present, "" }
func (anything) Match(any) (bool, error)                         { return true, nil }

func matchPresent(m valueMatcher, actual any) (bool, error) {
	v, err := ValueOf(actual)
	if err != nil {
		return false, err
	}
	ok, note := m.matchValue(v, true)
	if !ok && note != "" {
		return false, fmt.Errorf("%s: %s: %s", m, note, renderJSON(v))
	}
	return ok, nil
}

// ExpectedCall describes a tool call a test expects: a tool name and what
// its arguments must be. Build one with CallTo; every method returns a
// changed copy.
type ExpectedCall struct {
	name       string
	withArgs   bool // false: any arguments
	args       Args
	ignored    []string
	allowExtra bool
}

// CallTo expects a call to the named tool with any arguments.
func CallTo(name string) ExpectedCall { return ExpectedCall{name: name} }

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

// WithNoArgs expects a call without arguments (none, or an empty object).
func (c ExpectedCall) WithNoArgs() ExpectedCall { return c.With(nil) }

// Ignoring leaves these top-level arguments out of the comparison: they may
// be present or not, with any value, even if With names them.
func (c ExpectedCall) Ignoring(keys ...string) ExpectedCall {
	c.ignored = append(slices.Clone(c.ignored), keys...)
	return c
}

// AllowingExtraArgs accepts top-level arguments that With does not name.
// Nested objects are still compared whole.
func (c ExpectedCall) AllowingExtraArgs() ExpectedCall {
	c.allowExtra = true
	return c
}

// Name returns the expected tool name.
func (c ExpectedCall) Name() string { return c.name }

// Matches reports whether tc is a call this expectation accepts.
func (c ExpectedCall) Matches(tc ToolCall) bool { return c.compare(tc).match() }

// String renders the expectation as a call: search(city: "Paris"),
// search(...) for any arguments, search(city: "Paris", ...) when extra
// arguments are allowed, and ignored arguments as "key: ignored".
func (c ExpectedCall) String() string {
	if !c.withArgs {
		return c.name + "(...)"
	}
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
	if c.allowExtra {
		parts = append(parts, "...")
	}
	return c.name + "(" + strings.Join(parts, ", ") + ")"
}

// target names the expectation in a sentence: the bare tool name when any
// arguments will do.
func (c ExpectedCall) target() string {
	if !c.withArgs {
		return c.name
	}
	return c.String()
}

func (c ExpectedCall) isIgnored(k string) bool { return slices.Contains(c.ignored, k) }

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

func (c ExpectedCall) compare(tc ToolCall) callDiff {
	d := callDiff{nameDiffers: tc.Name != c.name}
	if !c.withArgs {
		return d
	}
	args := tc.Args
	if args.Kind() != Object && args.Kind() != Null {
		d.args = append(d.args, argDiff{kind: differs, want: "arguments object", got: renderJSON(args)})
		return d
	}
	d.args = compareMembers("", c.args, args, c.isIgnored, c.allowExtra, nil)
	return d
}

// compareMembers compares an object's members with want's keys, appending
// the differences to out. ignore and allowExtra apply to this level only.
func compareMembers(path string, want map[string]any, got Value, ignore func(string) bool, allowExtra bool, out []argDiff) []argDiff {
	for _, k := range sortedKeys(want) {
		if ignore != nil && ignore(k) {
			continue
		}
		gv, ok := got.Get(k)
		out = compareValue(joinPath(path, k), want[k], gv, ok, out)
	}
	if allowExtra {
		return out
	}
	for _, m := range got.Members() {
		if _, ok := want[m.Key]; ok || (ignore != nil && ignore(m.Key)) {
			continue
		}
		out = append(out, argDiff{path: joinPath(path, m.Key), kind: unexpected, got: renderJSON(m.Value)})
	}
	return out
}

// compareValue compares the actual value got (present or not) with want,
// appending the differences to out.
func compareValue(path string, want any, got Value, present bool, out []argDiff) []argDiff {
	miss := func() []argDiff {
		return append(out, argDiff{path: path, kind: missing, want: renderExpected(want)})
	}
	switch w := want.(type) {
	case valueMatcher:
		ok, note := w.matchValue(got, present)
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
		return compareObject(path, w, got, present, out)
	case map[string]any:
		return compareObject(path, w, got, present, out)
	case []any:
		if !present {
			return miss()
		}
		if got.Kind() != Array {
			return append(out, argDiff{path: path, kind: differs, want: renderExpected(w), got: renderJSON(got)})
		}
		n := min(len(w), got.Len())
		for i := 0; i < n; i++ {
			out = compareValue(path+"["+strconv.Itoa(i)+"]", w[i], got.Index(i), true, out)
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
	wv, err := ValueOf(want)
	if err != nil {
		return append(out, argDiff{path: path, kind: differs, want: fmt.Sprintf("%#v", want), got: renderJSON(got), note: err.Error()})
	}
	if !jsonEqual(wv, got) {
		return append(out, argDiff{path: path, kind: differs, want: renderJSON(wv), got: renderJSON(got)})
	}
	return out
}

func compareObject(path string, want map[string]any, got Value, present bool, out []argDiff) []argDiff {
	if !present {
		return append(out, argDiff{path: path, kind: missing, want: renderExpected(want)})
	}
	if got.Kind() != Object {
		return append(out, argDiff{path: path, kind: differs, want: renderExpected(want), got: renderJSON(got)})
	}
	return compareMembers(path, want, got, nil, false, out)
}

// jsonEqual compares two values as JSON documents: numbers by exact numeric
// value whatever their kind, objects regardless of key order.
func jsonEqual(a, b Value) bool {
	an, bn := a.kind == Int || a.kind == Float, b.kind == Int || b.kind == Float
	if an && bn {
		return numEqual(a, b)
	}
	if a.kind != b.kind || len(a.elems) != len(b.elems) {
		return false
	}
	switch a.kind {
	case Null:
		return true
	case Bool:
		return a.f == b.f
	case String:
		return a.s == b.s
	case Array:
		for i := range a.elems {
			if !jsonEqual(a.elems[i].Value, b.elems[i].Value) {
				return false
			}
		}
		return true
	case Object:
		for _, m := range a.elems {
			bv, ok := b.Get(m.Key)
			if !ok || !jsonEqual(m.Value, bv) {
				return false
			}
		}
		return true
	}
	return false
}

func numEqual(a, b Value) bool {
	switch {
	case a.kind == Int && b.kind == Int:
		return a.s == b.s
	case a.kind == Float && b.kind == Float:
		return a.f == b.f
	case a.kind == Float:
		a, b = b, a
	}
	// a is an Int, b a Float: equal only when b is integral and the same
	// exact number, which float64 cannot tell for big ints.
	if math.IsInf(b.f, 0) || math.IsNaN(b.f) || b.f != math.Trunc(b.f) {
		return false
	}
	bi, _ := new(big.Float).SetFloat64(b.f).Int(nil)
	ai, ok := new(big.Int).SetString(a.s, 10)
	return ok && ai.Cmp(bi) == 0
}

// Rendering.

func renderJSON(v Value) string { return string(v.appendJSON(nil)) }

// renderCall renders an actual call as name(key: json, ...) in argument
// order, the shape ExpectedCall.String uses, so the two read alike.
func renderCall(tc ToolCall) string {
	var b strings.Builder
	b.WriteString(tc.Name)
	b.WriteByte('(')
	switch tc.Args.Kind() {
	case Object:
		for i, m := range tc.Args.Members() {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(renderKey(m.Key))
			b.WriteString(": ")
			b.Write(m.Value.appendJSON(nil))
		}
	case Null:
	default:
		b.Write(tc.Args.appendJSON(nil))
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
	v, err := ValueOf(want)
	if err != nil {
		return fmt.Sprintf("%#v", want)
	}
	return renderJSON(v)
}

func renderExpectedObject(m map[string]any) string {
	keys := sortedKeys(m)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = string(appendJSONString(nil, k)) + ":" + renderExpected(m[k])
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
	return string(appendJSONString(nil, k))
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
	return path + "[" + string(appendJSONString(nil, key)) + "]"
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

// Order says how actual calls must line up with the expected ones.
type Order int

const (
	// Exactly: the same calls in the same order, and no others.
	Exactly Order = iota
	// InOrder: the expected calls appear in this order; other calls may
	// come before, between and after them.
	InOrder
	// AnyOrder: each expected call is matched by a distinct actual call;
	// other calls are allowed.
	AnyOrder
)

func (o Order) String() string {
	switch o {
	case Exactly:
		return "Exactly"
	case InOrder:
		return "InOrder"
	case AnyOrder:
		return "AnyOrder"
	}
	return "Order(" + strconv.Itoa(int(o)) + ")"
}

// ToolCallsReport is the outcome of comparing actual tool calls with
// expected ones. Its String is the failure message: a table of expected
// against actual calls, then, for each expected call not matched, the
// per-argument differences from the call it was paired with or from the
// closest call made.
type ToolCallsReport struct {
	ok       bool
	headline string
	actual   []ToolCall
	expected []ExpectedCall
	cmp      [][]callDiff // cmp[i][j]: expected i against actual j
	rows     []reportRow
	called   bool // a CheckCalled report: rows are the actual calls
	detail   bool // CheckCalled: explain the calls that nearly match
}

// A reportRow is one line of the table: marks are '=' matched, '~' paired
// but different, '-' expected and not found, '+' unexpected, ' ' another
// call, allowed by the order.
type reportRow struct {
	mark      byte
	want, got int // -1 for none
}

// OK reports whether the actual calls satisfy the expectation.
func (r ToolCallsReport) OK() bool { return r.ok }

// String is the headline and the Diff.
func (r ToolCallsReport) String() string {
	if d := r.Diff(); d != "" {
		return r.headline + "\n" + d
	}
	return r.headline
}

// Diff is the report without its headline: the table of calls and the
// differences, marked as go-cmp marks them (-want +got).
func (r ToolCallsReport) Diff() string {
	var b strings.Builder
	if r.called {
		r.writeCalled(&b)
	} else {
		r.writeTable(&b)
	}
	return strings.TrimRight(b.String(), "\n")
}

// CheckToolCalls compares actual calls with expected ones in the given
// order. Expected calls are paired with actual calls so that as many as
// possible match (an optimal assignment, so duplicate calls pair up right);
// an expected call that matches none is paired, where it can be, with the
// call of the same tool that differs least, and the report shows the
// differences.
func CheckToolCalls(actual []ToolCall, order Order, expected ...ExpectedCall) ToolCallsReport {
	r := ToolCallsReport{actual: actual, expected: expected}
	r.cmp = make([][]callDiff, len(expected))
	for i, e := range expected {
		r.cmp[i] = make([]callDiff, len(actual))
		for j := range actual {
			r.cmp[i][j] = e.compare(actual[j])
		}
	}
	switch order {
	case Exactly, InOrder:
		r.rows = r.align(order)
	case AnyOrder:
		r.rows = r.assign()
	default:
		r.headline = fmt.Sprintf("agenttest: unknown %s", order)
		return r
	}
	matched, paired, notFound, extra := 0, 0, 0, 0
	for _, row := range r.rows {
		switch row.mark {
		case '=':
			matched++
		case '~':
			paired++
		case '-':
			notFound++
		case '+':
			extra++
		}
	}
	r.ok = matched == len(expected) && (order != Exactly || len(actual) == len(expected))
	r.headline = r.headlineFor(order, paired, notFound, extra)
	return r
}

func (r *ToolCallsReport) headlineFor(order Order, paired, notFound, extra int) string {
	n, m := len(r.expected), len(r.actual)
	made := "the " + plural(m, "tool call") + " made"
	what := orderPhrase(order, n)
	if r.ok {
		switch {
		case n == 0 && m == 0:
			return "No tool calls were made, as expected."
		case order == Exactly:
			return "The " + plural(m, "tool call") + " made " + pick(m, "is", "are") + strings.TrimPrefix(what, "be") + ":"
		}
		return "The " + plural(m, "tool call") + " made " + what + ":"
	}
	switch {
	case n == 0:
		return fmt.Sprintf("Expected no tool calls, but %d %s made (-want +got):", m, pick(m, "was", "were"))
	case m == 0:
		return fmt.Sprintf("Expected the tool calls to %s, but no tool calls were made (-want +got):", what)
	}
	var counts []string
	if order == Exactly {
		if paired > 0 {
			counts = append(counts, fmt.Sprintf("%d %s", paired, pick(paired, "differs", "differ")))
		}
		if notFound > 0 {
			counts = append(counts, fmt.Sprintf("%d missing", notFound))
		}
		if extra > 0 {
			counts = append(counts, fmt.Sprintf("%d unexpected", extra))
		}
	} else {
		counts = append(counts, fmt.Sprintf("%d not found", paired+notFound))
	}
	return fmt.Sprintf("Expected %s to %s (%s; -want +got):", made, what, strings.Join(counts, ", "))
}

// orderPhrase says what the calls must do to satisfy order, as a verb
// phrase: "include these 3 in any order".
func orderPhrase(order Order, n int) string {
	switch {
	case order == Exactly && n == 1:
		return "be exactly this call"
	case order == Exactly:
		return fmt.Sprintf("be exactly these %d, in this order", n)
	case n == 1:
		return "include this call"
	case order == InOrder:
		return fmt.Sprintf("include these %d in this order", n)
	}
	return fmt.Sprintf("include these %d in any order", n)
}

// Pairing.

// Costs of the alignment and the assignment, in units small enough that a
// tie-break by position fits below them.
const (
	costGap       = 1000 // an expected call not found, or (Exactly) an extra call
	costSameName  = 500  // plus up to 400 by the share of arguments that differ
	costOtherName = 1500 // Exactly pairs calls of other tools rather than leave two gaps
)

func (r *ToolCallsReport) substCost(i, j int) (int64, bool) {
	d := r.cmp[i][j]
	if d.nameDiffers {
		return costOtherName, false
	}
	keys := len(r.expected[i].args) + r.actual[j].Args.Len()
	frac := float64(len(d.args)) / float64(max(keys, 1))
	return costSameName + int64(math.Round(400*min(frac, 1))), true
}

// align pairs expected and actual calls in order by dynamic programming,
// maximising the number of matches first and then minimising the cost of
// the rest. InOrder lets actual calls go unpaired for free and pairs only
// calls of the same tool; Exactly charges for every gap.
func (r *ToolCallsReport) align(order Order) []reportRow {
	n, m := len(r.expected), len(r.actual)
	type score struct {
		matches int
		cost    int64
	}
	better := func(a, b score) bool {
		if a.matches != b.matches {
			return a.matches > b.matches
		}
		return a.cost < b.cost
	}
	extraCost := int64(costGap)
	if order == InOrder {
		extraCost = 0
	}
	pair := func(i, j int) (score, bool) {
		if r.cmp[i][j].match() {
			return score{1, 0}, true
		}
		c, sameName := r.substCost(i, j)
		if !sameName && order == InOrder {
			return score{}, false
		}
		return score{0, c}, true
	}
	dp := make([][]score, n+1)
	for i := range dp {
		dp[i] = make([]score, m+1)
		for j := range dp[i] {
			var best score
			have := false
			try := func(s score) {
				if !have || better(s, best) {
					best, have = s, true
				}
			}
			if j > 0 {
				try(score{dp[i][j-1].matches, dp[i][j-1].cost + extraCost})
			}
			if i > 0 {
				try(score{dp[i-1][j].matches, dp[i-1][j].cost + costGap})
			}
			if i > 0 && j > 0 {
				if s, ok := pair(i-1, j-1); ok {
					try(score{dp[i-1][j-1].matches + s.matches, dp[i-1][j-1].cost + s.cost})
				}
			}
			dp[i][j] = best
		}
	}
	extraMark := byte('+')
	if order == InOrder {
		extraMark = ' '
	}
	var rows []reportRow
	for i, j := n, m; i > 0 || j > 0; {
		// On ties leave the later actual call unpaired, so an expected
		// call pairs with the earliest call that serves.
		if j > 0 && dp[i][j] == (score{dp[i][j-1].matches, dp[i][j-1].cost + extraCost}) {
			rows = append(rows, reportRow{extraMark, -1, j - 1})
			j--
			continue
		}
		if i > 0 && j > 0 {
			if s, ok := pair(i-1, j-1); ok && dp[i][j] == (score{dp[i-1][j-1].matches + s.matches, dp[i-1][j-1].cost + s.cost}) {
				mark := byte('~')
				if s.matches == 1 {
					mark = '='
				}
				rows = append(rows, reportRow{mark, i - 1, j - 1})
				i, j = i-1, j-1
				continue
			}
		}
		rows = append(rows, reportRow{'-', i - 1, -1})
		i--
	}
	slices.Reverse(rows)
	return rows
}

// assign pairs expected with actual calls regardless of order by a minimum
// cost assignment: the most matches first, then the closest same-tool calls
// for the rest; calls of other tools are never paired.
func (r *ToolCallsReport) assign() []reportRow {
	n, m := len(r.expected), len(r.actual)
	var rows []reportRow
	if n > 0 {
		// Each expected call gets a column of its own for "not found", so
		// there are always enough columns.
		span := int64(n + m + 1) // room for the tie-break by position
		unit := int64(2000) * span
		w := unit*int64(n) + 1 // one more match outweighs any cost of the rest
		cols := m + n
		cost := make([]int64, n*cols)
		for i := 0; i < n; i++ {
			row := cost[i*cols : (i+1)*cols]
			for j := 0; j < m; j++ {
				tie := int64(abs(i - j))
				switch c, sameName := r.substCost(i, j); {
				case r.cmp[i][j].match():
					row[j] = tie
				case sameName:
					row[j] = w + c*span + tie
				default:
					row[j] = w + 3*unit
				}
			}
			for j := m; j < cols; j++ {
				row[j] = w + costGap*span + span
			}
		}
		// The same assignment solver as ToolCallMatch's.
		var scratch assignScratch
		for i, j := range scratch.assign(cost, n, cols) {
			switch j := int(j); {
			case j >= m:
				rows = append(rows, reportRow{'-', i, -1})
			case r.cmp[i][j].match():
				rows = append(rows, reportRow{'=', i, j})
			default:
				rows = append(rows, reportRow{'~', i, j})
			}
		}
	}
	used := make([]bool, m)
	for _, row := range rows {
		if row.got >= 0 {
			used[row.got] = true
		}
	}
	for j := range used {
		if !used[j] {
			rows = append(rows, reportRow{' ', -1, j})
		}
	}
	return rows
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Writing the report.

const maxWantWidth = 60

func (r ToolCallsReport) writeTable(b *strings.Builder) {
	if len(r.rows) == 0 {
		return
	}
	t := table{left: "want", right: "got"}
	for _, row := range r.rows {
		var l, rt string
		if row.want >= 0 {
			l = "[" + strconv.Itoa(row.want) + "] " + r.expected[row.want].String()
		}
		if row.got >= 0 {
			rt = "[" + strconv.Itoa(row.got) + "] " + renderCall(r.actual[row.got])
		}
		t.rows = append(t.rows, tableRow{row.mark, l, rt})
	}
	t.write(b)
	first := true
	for _, row := range r.rows {
		if row.mark != '~' && row.mark != '-' {
			continue
		}
		if first {
			b.WriteByte('\n')
			first = false
		}
		e := r.expected[row.want]
		if row.mark == '~' {
			fmt.Fprintf(b, "  want[%d] %s vs got[%d] %s:\n", row.want, e.name, row.got, r.actual[row.got].Name)
			writeCallDiff(b, r.cmp[row.want][row.got], e.name, r.actual[row.got].Name)
			// A call that matches but went to another expected call (a
			// duplicate) or came out of order explains more than the diff.
			for j := range r.actual {
				if j != row.got && r.cmp[row.want][j].match() {
					fmt.Fprintf(b, "      (got[%d] matches it but %s)\n", j, r.whyUnpaired(j))
					break
				}
			}
			continue
		}
		r.writeClosest(b, row.want)
	}
}

// whyUnpaired says why actual call j, which matches an expected call, was
// not paired with it.
func (r ToolCallsReport) whyUnpaired(j int) string {
	for _, row := range r.rows {
		if row.got == j && row.want >= 0 {
			return fmt.Sprintf("is already paired with want[%d]", row.want)
		}
	}
	return "is out of order"
}

// writeClosest explains an expected call that was not found by the call of
// the same tool that differs least from it, or by the calls made.
func (r ToolCallsReport) writeClosest(b *strings.Builder, i int) {
	e := r.expected[i]
	best, bestDiffs, bestUsed := -1, 0, false
	pairedWith := make(map[int]int)
	for _, row := range r.rows {
		if row.got >= 0 && row.want >= 0 {
			pairedWith[row.got] = row.want
		}
	}
	for j := range r.actual {
		d := r.cmp[i][j]
		if d.nameDiffers {
			continue
		}
		_, used := pairedWith[j]
		if best < 0 || len(d.args) < bestDiffs || len(d.args) == bestDiffs && bestUsed && !used {
			best, bestDiffs, bestUsed = j, len(d.args), used
		}
	}
	fmt.Fprintf(b, "  want[%d] %s not found", i, e.name)
	if best < 0 {
		if len(r.actual) == 0 {
			b.WriteString(": no tool calls were made\n")
			return
		}
		fmt.Fprintf(b, ": no call to %s was made\n", e.name)
		return
	}
	d := r.cmp[i][best]
	k, used := pairedWith[best]
	switch {
	case d.match():
		fmt.Fprintf(b, ": got[%d] matches it but %s\n", best, r.whyUnpaired(best))
		return
	case used:
		fmt.Fprintf(b, "; closest is got[%d], already paired with want[%d]:\n", best, k)
	default:
		fmt.Fprintf(b, "; closest is got[%d]:\n", best)
	}
	writeCallDiff(b, d, e.name, r.actual[best].Name)
}

func writeCallDiff(b *strings.Builder, d callDiff, wantName, gotName string) {
	if d.nameDiffers {
		fmt.Fprintf(b, "      tool: want %s, got %s\n", wantName, gotName)
	}
	writeArgDiffs(b, d.args)
}

func writeArgDiffs(b *strings.Builder, diffs []argDiff) {
	for _, d := range diffs {
		switch d.kind {
		case missing:
			fmt.Fprintf(b, "      - %s: %s  (missing)\n", d.path, d.want)
		case unexpected:
			fmt.Fprintf(b, "      + %s: %s  (unexpected)\n", d.path, d.got)
		default:
			fmt.Fprintf(b, "      - %s: %s\n      + %s: %s\n", d.path, d.want, d.path, d.got)
		}
		if d.note != "" {
			fmt.Fprintf(b, "        %s\n", d.note)
		}
	}
}

// table writes rows of a mark and two columns; a left cell too wide for
// the column puts its right cell on the next line.
type table struct {
	left, right string
	rows        []tableRow
}

type tableRow struct {
	mark        byte
	left, right string
}

func (t table) write(b *strings.Builder) {
	// The column is as wide as the widest cell that fits; wider cells
	// wrap, so one long expectation does not push every row right.
	width, fits := utf8.RuneCountInString(t.left), false
	for _, row := range t.rows {
		if w := utf8.RuneCountInString(row.left); w <= maxWantWidth {
			width, fits = max(width, w), fits || row.left != ""
		}
	}
	if !fits {
		width = maxWantWidth
	}
	pad := func(s string) string { return s + strings.Repeat(" ", width-utf8.RuneCountInString(s)+2) }
	b.WriteString("    " + pad(t.left) + t.right + "\n")
	for _, row := range t.rows {
		b.WriteString("  ")
		b.WriteByte(row.mark)
		b.WriteByte(' ')
		switch {
		case row.right == "":
			b.WriteString(row.left)
		case utf8.RuneCountInString(row.left) > width:
			b.WriteString(row.left + "\n    " + strings.Repeat(" ", width+2) + row.right)
		default:
			b.WriteString(pad(row.left) + row.right)
		}
		b.WriteByte('\n')
	}
}

func plural(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + one + "s"
}

func pick(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// CountCalls returns how many of the actual calls the expectation accepts.
func CountCalls(actual []ToolCall, c ExpectedCall) int {
	n := 0
	for i := range actual {
		if c.Matches(actual[i]) {
			n++
		}
	}
	return n
}

// CheckCalled checks that call was made times times, or at least once when
// times is negative. Its report lists the calls made, marking those that
// match and, when too few do, the differences of the other calls of the
// same tool.
func CheckCalled(actual []ToolCall, call ExpectedCall, times int) ToolCallsReport {
	r := ToolCallsReport{actual: actual, expected: []ExpectedCall{call}, called: true}
	r.cmp = [][]callDiff{make([]callDiff, len(actual))}
	count := 0
	for j := range actual {
		d := call.compare(actual[j])
		r.cmp[0][j] = d
		mark := byte(' ')
		switch {
		case d.match():
			mark = '='
			count++
		case !d.nameDiffers:
			mark = '~'
		}
		r.rows = append(r.rows, reportRow{mark, 0, j})
	}
	target := call.target()
	switch {
	case times < 0:
		r.ok = count > 0
		r.detail = !r.ok
		switch {
		case r.ok:
			r.headline = fmt.Sprintf("%s was called %s:", target, plural(count, "time"))
		case len(actual) == 0:
			r.headline = fmt.Sprintf("Expected a call to %s, but no tool calls were made", target)
		default:
			r.headline = fmt.Sprintf("Expected a call to %s among the %s made, but none matches:", target, plural(len(actual), "tool call"))
		}
	case times == 0:
		r.ok = count == 0
		if r.ok {
			r.headline = fmt.Sprintf("%s was not called:", target)
		} else {
			r.headline = fmt.Sprintf("Expected no call to %s, but it was called %s:", target, plural(count, "time"))
		}
	default:
		r.ok = count == times
		r.detail = count < times
		if r.ok {
			r.headline = fmt.Sprintf("%s was called %s:", target, plural(count, "time"))
		} else {
			r.headline = fmt.Sprintf("Expected %s to be called %s, but it was called %s:", target, plural(times, "time"), plural(count, "time"))
		}
	}
	if len(actual) == 0 {
		r.headline = strings.TrimSuffix(r.headline, ":")
	}
	return r
}

func (r ToolCallsReport) writeCalled(b *strings.Builder) {
	for _, row := range r.rows {
		fmt.Fprintf(b, "  %c [%d] %s\n", row.mark, row.got, renderCall(r.actual[row.got]))
		if row.mark == '~' && r.detail {
			writeArgDiffs(b, r.cmp[0][row.got].args)
		}
	}
}

// Taking calls out of what a test has.

// ToolCallsOf returns the tool calls in actual, which may be a
// Conversation, *Conversation, Sample, *Sample (its conversation's calls,
// not its reference), []Message, []ToolCall or
// []openai.ChatCompletionMessage.
func ToolCallsOf(actual any) ([]ToolCall, error) {
	if calls, ok := actual.([]ToolCall); ok {
		return calls, nil
	}
	conv, err := ConversationOf(actual)
	if err != nil {
		return nil, err
	}
	return conv.ToolCalls(), nil
}

// ConversationOf returns actual as a Conversation; it accepts what
// ToolCallsOf accepts, and makes []ToolCall one AI message with those calls.
func ConversationOf(actual any) (Conversation, error) {
	switch v := actual.(type) {
	case Conversation:
		return v, nil
	case *Conversation:
		if v != nil {
			return *v, nil
		}
	case Sample:
		return v.Conversation, nil
	case *Sample:
		if v != nil {
			return v.Conversation, nil
		}
	case []Message:
		return Conversation(v), nil
	case []ToolCall:
		return Conversation{{Role: AI, ToolCalls: v}}, nil
	case []openai.ChatCompletionMessage:
		conv, err := FromOpenAI(v)
		if err != nil {
			return nil, fmt.Errorf("agenttest: OpenAI messages: %w", err)
		}
		return conv, nil
	default:
		return nil, fmt.Errorf("agenttest: cannot take tool calls from %T; want a Conversation, Sample, []Message, []ToolCall or []openai.ChatCompletionMessage", actual)
	}
	return nil, fmt.Errorf("agenttest: cannot take tool calls from a nil %T", actual)
}
