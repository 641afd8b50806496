package agenttest

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	agentcheck "github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/trajectory"
)

// callsReport is the outcome of comparing actual tool calls with
// expected ones. Its String is the failure message: a table of expected
// against actual calls, then, for each expected call not matched, the
// per-argument differences from the call it was paired with or from the
// closest call made.
type callsReport struct {
	ok       bool
	headline string
	actual   []agentcheck.ToolCall
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

// String is the headline and the Diff.
func (r callsReport) String() string {
	if d := r.Diff(); d != "" {
		return r.headline + "\n" + d
	}
	return r.headline
}

// Diff is the report without its headline: the table of calls and the
// differences, marked as go-cmp marks them (-want +got).
func (r callsReport) Diff() string {
	var b strings.Builder
	if r.called {
		r.writeCalled(&b)
	} else {
		r.writeTable(&b)
	}
	return strings.TrimRight(b.String(), "\n")
}

// CheckToolCalls compares actual calls with expected ones in the given
// mode (trajectory.Strict, InOrder, Unordered, Subset or Superset), by
// the trajectory engine (trajectory.Align): expected calls are paired with
// actual calls so that as many as possible match (an optimal assignment, so
// duplicate calls pair up right); an expected call that matches none is
// paired, where it can be, with the call of the same tool that differs
// least, and the report shows the differences.
//
// actual is anything ToolCallsOf takes. The Report's String is a table of
// expected against actual calls ('=' matched, '~' paired but different, '-'
// expected and not found, '+' unexpected), then, for each expected call not
// matched, the per-argument differences from the call it was paired with
// or from the closest call made, marked as go-cmp marks them (-want +got).
func CheckToolCalls(actual any, mode trajectory.Mode, expected ...ExpectedCall) Report {
	calls, results, err := callsAndResults(actual)
	if err != nil {
		return failed(err)
	}
	r := compareCalls(calls, results, mode, expected)
	n := len(calls)
	return Report{ok: r.ok, why: r.String, whyNot: func() string {
		what := modePhrase(mode, len(expected))
		return withDetail(fmt.Sprintf("Expected the %s made not to %s, but they do:", plural(n, "tool call"), what), r.Diff())
	}}
}

// comparer is a report's comparisons as the engine reads them.
type comparer struct{ r *callsReport }

func (c comparer) Compare(made, expected int) trajectory.Comparison {
	d := c.r.cmp[expected][made]
	if d.nameDiffers {
		return trajectory.Comparison{}
	}
	keys := len(c.r.expected[expected].args) + c.r.actual[made].Args.Len()
	return trajectory.Comparison{Match: d.match(), SameTool: true, Distance: float64(len(d.args)) / float64(max(keys, 1))}
}

func compareCalls(actual []agentcheck.ToolCall, results []*callResult, mode trajectory.Mode, expected []ExpectedCall) callsReport {
	r := callsReport{actual: actual, expected: expected}
	if mode > trajectory.Superset {
		r.headline = fmt.Sprintf("agenttest: unknown %s", mode)
		return r
	}
	r.cmp = make([][]callDiff, len(expected))
	for i, e := range expected {
		r.cmp[i] = make([]callDiff, len(actual))
		for j := range actual {
			r.cmp[i][j] = e.compare(actual[j], resultAt(results, j))
		}
	}
	a := trajectory.Align(mode, len(actual), len(expected), comparer{&r})
	r.ok = a.OK
	// The marks: calls made that pair with nothing are unexpected, but
	// where the mode allows other calls (InOrder, Superset); under Subset,
	// expected calls not made are allowed and left out of the table.
	other := byte('+')
	if mode == trajectory.InOrder || mode == trajectory.Superset {
		other = ' '
	}
	paired, notFound, extra := 0, 0, 0
	for _, p := range a.Pairs {
		row := reportRow{mark: '=', want: p.Expected, got: p.Made}
		switch {
		case p.Expected < 0:
			row.mark = other
		case p.Made < 0:
			row.mark = '-'
		case !p.Match:
			row.mark = '~'
		}
		if mode == trajectory.Subset && row.want >= 0 && row.mark != '=' {
			if row.got < 0 {
				continue
			}
			row = reportRow{'+', -1, row.got}
		}
		switch row.mark {
		case '~':
			paired++
		case '-':
			notFound++
		case '+':
			extra++
		}
		r.rows = append(r.rows, row)
	}
	r.headline = r.headlineFor(mode, paired, notFound, extra)
	return r
}

func (r *callsReport) headlineFor(mode trajectory.Mode, paired, notFound, extra int) string {
	n, m := len(r.expected), len(r.actual)
	made := "the " + plural(m, "tool call") + " made"
	what := modePhrase(mode, n)
	if r.ok {
		switch {
		case n == 0 && m == 0:
			return "No tool calls were made, as expected."
		case mode == trajectory.Strict:
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
	if mode == trajectory.Strict || mode == trajectory.Unordered || mode == trajectory.Subset {
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

// modePhrase says what the calls must do to satisfy mode, as a verb
// phrase: "include these 3 in any order".
func modePhrase(mode trajectory.Mode, n int) string {
	switch {
	case (mode == trajectory.Strict || mode == trajectory.Unordered) && n == 1:
		return "be exactly this call"
	case mode == trajectory.Subset && n == 1:
		return "be this call or none"
	case mode == trajectory.Strict:
		return fmt.Sprintf("be exactly these %d, in this order", n)
	case n == 1:
		return "include this call"
	case mode == trajectory.InOrder:
		return fmt.Sprintf("include these %d in this order", n)
	case mode == trajectory.Unordered:
		return fmt.Sprintf("be these %d, in any order", n)
	case mode == trajectory.Subset:
		return fmt.Sprintf("be among these %d", n)
	}
	return fmt.Sprintf("include these %d in any order", n)
}

// Writing the report.

const maxWantWidth = 60

func (r callsReport) writeTable(b *strings.Builder) {
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
func (r callsReport) whyUnpaired(j int) string {
	for _, row := range r.rows {
		if row.got == j && row.want >= 0 {
			return fmt.Sprintf("is already paired with want[%d]", row.want)
		}
	}
	return "is out of order"
}

// writeClosest explains an expected call that was not found by the call of
// the same tool that differs least from it, or by the calls made.
func (r callsReport) writeClosest(b *strings.Builder, i int) {
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
		// A difference in the whole arguments has no path to name.
		path := d.path
		if path != "" {
			path += ": "
		}
		switch d.kind {
		case missing:
			fmt.Fprintf(b, "      - %s%s  (missing)\n", path, d.want)
		case unexpected:
			fmt.Fprintf(b, "      + %s%s  (unexpected)\n", path, d.got)
		default:
			fmt.Fprintf(b, "      - %s%s\n      + %s%s\n", path, d.want, path, d.got)
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

// Count is how many matching calls CheckCalled wants: Times(n), Never(),
// AtLeastOnce(), AtLeast(n), AtMost(n) or Between(lo, hi). The zero Count
// is AtLeastOnce().
type Count struct {
	lo, hi int  // hi < 0: no upper bound
	set    bool // false: the zero Count, AtLeastOnce()
}

// Times wants exactly n matching calls.
func Times(n int) Count { return Count{lo: n, hi: n, set: true} }

// Never wants no matching call: Times(0).
func Never() Count { return Times(0) }

// AtLeastOnce wants one matching call or more.
func AtLeastOnce() Count { return AtLeast(1) }

// AtLeast wants n matching calls or more.
func AtLeast(n int) Count { return Count{lo: n, hi: -1, set: true} }

// AtMost wants at most n matching calls (none is fine).
func AtMost(n int) Count { return Count{lo: 0, hi: n, set: true} }

// Between wants from lo to hi matching calls, both included.
func Between(lo, hi int) Count { return Count{lo: lo, hi: hi, set: true} }

func (c Count) bounds() (lo, hi int) {
	if !c.set {
		return 1, -1
	}
	return c.lo, c.hi
}

// allows reports whether n matching calls satisfy the count.
func (c Count) allows(n int) bool {
	lo, hi := c.bounds()
	return n >= lo && (hi < 0 || n <= hi)
}

// String is the count as Go: Times(2), AtLeast(1), Between(1, 3).
func (c Count) String() string {
	lo, hi := c.bounds()
	switch {
	case hi < 0 && lo == 1:
		return "AtLeastOnce()"
	case hi < 0:
		return fmt.Sprintf("AtLeast(%d)", lo)
	case lo == hi && lo == 0:
		return "Never()"
	case lo == hi:
		return fmt.Sprintf("Times(%d)", lo)
	case lo == 0:
		return fmt.Sprintf("AtMost(%d)", hi)
	}
	return fmt.Sprintf("Between(%d, %d)", lo, hi)
}

// phrase is the count in a sentence: "2 times", "at least once", "at
// most 3 times", "between 1 and 3 times".
func (c Count) phrase() string {
	lo, hi := c.bounds()
	switch {
	case hi < 0 && lo == 1:
		return "at least once"
	case hi < 0:
		return "at least " + plural(lo, "time")
	case lo == hi:
		return plural(lo, "time")
	case lo == 0:
		return "at most " + plural(hi, "time")
	}
	return fmt.Sprintf("between %d and %d times", lo, hi)
}

func (c Count) valid() error {
	lo, hi := c.bounds()
	if lo < 0 || hi >= 0 && hi < lo {
		return fmt.Errorf("%s is not a count: want 0 <= lo <= hi", c)
	}
	return nil
}

// CheckCalled checks that the number of calls in actual that call accepts
// satisfies count (Times(n), Never(), AtLeastOnce(), AtLeast(n), AtMost(n),
// Between(lo, hi)). actual is anything ToolCallsOf takes. The Report lists
// the calls made, marking those that match and, when too few do, the
// differences of the other calls of the same tool.
func CheckCalled(actual any, call ExpectedCall, count Count) Report {
	calls, results, err := callsAndResults(actual)
	if err != nil {
		return failed(err)
	}
	if err := count.valid(); err != nil {
		return failed(fmt.Errorf("agenttest: CheckCalled(%s, %v): %w", call, count, err))
	}
	r := checkCalled(calls, results, call, count)
	return Report{ok: r.ok, why: r.String, whyNot: func() string {
		lo, hi := count.bounds()
		if lo == 1 && hi < 0 {
			// Not called at least once is never called: say so, with the calls.
			return checkCalled(calls, results, call, Never()).String()
		}
		target := call.String()
		if strings.HasSuffix(target, "(...)") {
			target = call.Name()
		}
		return withDetail(fmt.Sprintf("Expected %s not to be called %s, but it was:", target, count.phrase()), r.Diff())
	}}
}

func checkCalled(actual []agentcheck.ToolCall, results []*callResult, call ExpectedCall, count Count) callsReport {
	r := callsReport{actual: actual, expected: []ExpectedCall{call}, called: true}
	r.cmp = [][]callDiff{make([]callDiff, len(actual))}
	n := 0
	for j := range actual {
		d := call.compare(actual[j], resultAt(results, j))
		r.cmp[0][j] = d
		mark := byte(' ')
		switch {
		case d.match():
			mark = '='
			n++
		case !d.nameDiffers:
			mark = '~'
		}
		r.rows = append(r.rows, reportRow{mark, 0, j})
	}
	target := call.target()
	lo, hi := count.bounds()
	r.ok = count.allows(n)
	r.detail = n < lo
	switch {
	case r.ok && n == 0:
		r.headline = fmt.Sprintf("%s was not called:", target)
	case r.ok:
		r.headline = fmt.Sprintf("%s was called %s:", target, plural(n, "time"))
	case lo == 1 && hi < 0 && len(actual) == 0:
		r.headline = fmt.Sprintf("Expected a call to %s, but no tool calls were made", target)
	case lo == 1 && hi < 0:
		r.headline = fmt.Sprintf("Expected a call to %s among the %s made, but none matches:", target, plural(len(actual), "tool call"))
	case hi == 0:
		r.headline = fmt.Sprintf("Expected no call to %s, but it was called %s:", target, plural(n, "time"))
	default:
		r.headline = fmt.Sprintf("Expected %s to be called %s, but it was called %s:", target, count.phrase(), plural(n, "time"))
	}
	if len(actual) == 0 {
		r.headline = strings.TrimSuffix(r.headline, ":")
	}
	return r
}

func (r callsReport) writeCalled(b *strings.Builder) {
	for _, row := range r.rows {
		fmt.Fprintf(b, "  %c [%d] %s\n", row.mark, row.got, renderCall(r.actual[row.got]))
		if row.mark == '~' && r.detail {
			writeArgDiffs(b, r.cmp[0][row.got].args)
		}
	}
}

// Taking calls out of what a test has.

func resultAt(results []*callResult, j int) *callResult {
	if j < len(results) {
		return results[j]
	}
	return nil
}

// callsAndResults is ToolCallsOf with, for each call, its result where the
// conversation has a tool message answering it: by the call's ID, or,
// when the calls have none, the tool messages after an AI message answer
// its calls in order.
func callsAndResults(actual any) ([]agentcheck.ToolCall, []*callResult, error) {
	if calls, ok := actual.([]agentcheck.ToolCall); ok {
		return calls, nil, nil
	}
	conv, err := conversationOf(actual)
	if err != nil {
		return nil, nil, err
	}
	calls := conv.ToolCalls()
	results := make([]*callResult, len(calls))
	byID := make(map[string]int)
	var pending []int // the calls of the last AI message still unanswered
	at := 0
	for _, msg := range conv {
		switch msg.Role {
		case agentcheck.AI:
			pending = pending[:0]
			for _, tc := range msg.ToolCalls {
				if tc.ID != "" {
					byID[tc.ID] = at
				}
				pending = append(pending, at)
				at++
			}
		case agentcheck.Tool:
			j, ok := byID[msg.ToolCallID]
			if !ok || msg.ToolCallID == "" {
				if len(pending) == 0 {
					continue
				}
				j, ok = pending[0], true
			}
			if results[j] == nil {
				results[j] = &callResult{content: msg.Content, isError: msg.IsError}
			}
			if i := slices.Index(pending, j); i >= 0 {
				pending = slices.Delete(pending, i, i+1)
			}
		}
	}
	return calls, results, nil
}

// ToolCallsOf returns the tool calls in actual, anything SampleOf takes:
// its conversation's calls (a Sample's, not its reference's), or the
// []ToolCall itself.
func ToolCallsOf(actual any) ([]agentcheck.ToolCall, error) {
	if calls, ok := actual.([]agentcheck.ToolCall); ok {
		return calls, nil
	}
	conv, err := conversationOf(actual)
	if err != nil {
		return nil, err
	}
	return conv.ToolCalls(), nil
}

// conversationOf returns actual as a Conversation; it accepts what
// ToolCallsOf accepts, and makes []ToolCall one AI message with those calls.
func conversationOf(actual any) (agentcheck.Conversation, error) {
	s, err := SampleOf(actual)
	return s.Conversation, err
}

// SampleOf returns actual as a Sample. It takes exactly these: an
// agentcheck.Sample or *Sample, as it is, with its references; and an
// agentcheck.Conversation, *Conversation, []Message, []ToolCall (one AI
// message making those calls) or Transcript (an adapter's, such as
// goopenai.Messages(msgs)), as a Sample of that conversation with no
// references. nil, a nil pointer (of a Transcript too) and any other type
// are an error naming the type, as is a Transcript that cannot give its
// conversation.
func SampleOf(actual any) (agentcheck.Sample, error) {
	var conv agentcheck.Conversation
	switch v := actual.(type) {
	case agentcheck.Sample:
		return v, nil
	case *agentcheck.Sample:
		if v != nil {
			return *v, nil
		}
	case agentcheck.Conversation:
		conv = v
	case *agentcheck.Conversation:
		if v != nil {
			conv = *v
		}
	case []agentcheck.Message:
		conv = v
	case []agentcheck.ToolCall:
		conv = agentcheck.Conversation{{Role: agentcheck.AI, ToolCalls: v}}
	case agentcheck.Transcript:
		if isNilPointer(v) {
			return agentcheck.Sample{}, fmt.Errorf("agenttest: cannot take tool calls from a nil %T", actual)
		}
		c, err := v.Conversation()
		if err != nil {
			return agentcheck.Sample{}, fmt.Errorf("agenttest: %T: %w", actual, err)
		}
		conv = c
	default:
		return agentcheck.Sample{}, fmt.Errorf("agenttest: cannot take tool calls from %T; want an agentcheck.Conversation, Sample, []Message, []ToolCall or Transcript (an adapter's, such as goopenai.Messages(msgs))", actual)
	}
	if conv == nil && actual != nil && isNilPointer(actual) {
		return agentcheck.Sample{}, fmt.Errorf("agenttest: cannot take tool calls from a nil %T", actual)
	}
	return agentcheck.Sample{Conversation: conv}, nil
}

// isNilPointer reports whether x is a nil pointer, of any type (a
// Transcript's whose methods would dereference it), or a nil func. A nil
// slice or map is a value: an empty transcript.
func isNilPointer(x any) bool {
	v := reflect.ValueOf(x)
	switch v.Kind() {
	case reflect.Pointer, reflect.Func:
		return v.IsNil()
	}
	return false
}
