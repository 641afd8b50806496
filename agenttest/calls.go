package agenttest

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentcheck/agentcheck/internal/assign"

	agentcheck "github.com/agentcheck/agentcheck"
)

// Order says how actual calls must line up with the expected ones.
type Order int

const (
	// Exactly: the same calls in the same order, and no others.
	Exactly Order = iota
	// InOrder: the expected calls appear in this order; other calls may
	// come before, between and after them.
	InOrder
	// AnyOrder: each expected call is matched by a distinct actual call;
	// other calls are allowed (a superset).
	AnyOrder
	// Unordered: the same calls as expected, in any order, each expected
	// call matched by a distinct actual call and no other call made.
	Unordered
	// Subset: every actual call is matched by a distinct expected call;
	// expected calls may be left out, but nothing else may be called.
	Subset
)

func (o Order) String() string {
	switch o {
	case Exactly:
		return "Exactly"
	case InOrder:
		return "InOrder"
	case AnyOrder:
		return "AnyOrder"
	case Unordered:
		return "Unordered"
	case Subset:
		return "Subset"
	}
	return "Order(" + strconv.Itoa(int(o)) + ")"
}

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
// order. Expected calls are paired with actual calls so that as many as
// possible match (an optimal assignment, so duplicate calls pair up right);
// an expected call that matches none is paired, where it can be, with the
// call of the same tool that differs least, and the report shows the
// differences.
//
// actual is anything ToolCallsOf takes. The Report's String is a table of
// expected against actual calls ('=' matched, '~' paired but different, '-'
// expected and not found, '+' unexpected), then, for each expected call not
// matched, the per-argument differences from the call it was paired with
// or from the closest call made, marked as go-cmp marks them (-want +got).
func CheckToolCalls(actual any, order Order, expected ...ExpectedCall) Report {
	calls, results, err := callsAndResults(actual)
	if err != nil {
		return failed(err)
	}
	r := compareCalls(calls, results, order, expected)
	n := len(calls)
	return Report{ok: r.ok, why: r.String, whyNot: func() string {
		what := orderPhrase(order, len(expected))
		return withDetail(fmt.Sprintf("Expected the %s made not to %s, but they do:", plural(n, "tool call"), what), r.Diff())
	}}
}

func compareCalls(actual []agentcheck.ToolCall, results []*callResult, order Order, expected []ExpectedCall) callsReport {
	r := callsReport{actual: actual, expected: expected}
	r.cmp = make([][]callDiff, len(expected))
	for i, e := range expected {
		r.cmp[i] = make([]callDiff, len(actual))
		for j := range actual {
			r.cmp[i][j] = e.compare(actual[j], resultAt(results, j))
		}
	}
	switch order {
	case Exactly, InOrder:
		r.rows = r.align(order)
	case AnyOrder, Unordered, Subset:
		r.rows = r.assign()
		if order != AnyOrder {
			// Calls not paired are unexpected; under Subset, expected calls
			// not made are allowed and left out of the table.
			rows := r.rows[:0]
			for _, row := range r.rows {
				switch {
				case row.want < 0:
					row.mark = '+'
				case order == Subset && row.mark != '=':
					if row.got >= 0 {
						rows = append(rows, reportRow{'+', -1, row.got})
					}
					continue
				}
				rows = append(rows, row)
			}
			r.rows = rows
		}
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
	switch order {
	case Exactly, Unordered:
		r.ok = matched == len(expected) && len(actual) == len(expected)
	case Subset:
		r.ok = matched == len(actual)
	default:
		r.ok = matched == len(expected)
	}
	r.headline = r.headlineFor(order, paired, notFound, extra)
	return r
}

func (r *callsReport) headlineFor(order Order, paired, notFound, extra int) string {
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
	if order == Exactly || order == Unordered || order == Subset {
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
	case (order == Exactly || order == Unordered) && n == 1:
		return "be exactly this call"
	case order == Subset && n == 1:
		return "be this call or none"
	case order == Exactly:
		return fmt.Sprintf("be exactly these %d, in this order", n)
	case n == 1:
		return "include this call"
	case order == InOrder:
		return fmt.Sprintf("include these %d in this order", n)
	case order == Unordered:
		return fmt.Sprintf("be these %d, in any order", n)
	case order == Subset:
		return fmt.Sprintf("be among these %d", n)
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

func (r *callsReport) substCost(i, j int) (int64, bool) {
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
func (r *callsReport) align(order Order) []reportRow {
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
func (r *callsReport) assign() []reportRow {
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
		var scratch assign.Solver
		for i, j := range scratch.Solve(cost, n, cols) {
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

// CountCalls returns how many of the actual calls the expectation accepts
// (an expectation on results sees none: use CheckCalled).
func CountCalls(actual []agentcheck.ToolCall, c ExpectedCall) int {
	n := 0
	for i := range actual {
		if c.Matches(actual[i]) {
			n++
		}
	}
	return n
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

// Allows reports whether n matching calls satisfy the count.
func (c Count) Allows(n int) bool {
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
	r.ok = count.Allows(n)
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
	conv, err := ConversationOf(actual)
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

// ToolCallsOf returns the tool calls in actual, which may be a
// Conversation, *Conversation, Sample, *Sample (its conversation's calls,
// not its reference), []Message, []ToolCall or
// []openai.ChatCompletionMessage.
func ToolCallsOf(actual any) ([]agentcheck.ToolCall, error) {
	if calls, ok := actual.([]agentcheck.ToolCall); ok {
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
func ConversationOf(actual any) (agentcheck.Conversation, error) {
	s, err := SampleOf(actual)
	return s.Conversation, err
}

// SampleOf returns actual as a Sample: a Sample or *Sample as it is, with
// its references, and anything else ToolCallsOf takes as a Sample of its
// conversation, with none.
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
		if v != nil {
			c, err := v.Conversation()
			if err != nil {
				return agentcheck.Sample{}, fmt.Errorf("agenttest: %T: %w", actual, err)
			}
			conv = c
		}
	default:
		return agentcheck.Sample{}, fmt.Errorf("agenttest: cannot take tool calls from %T; want an agentcheck.Conversation, Sample, []Message, []ToolCall or Transcript (an adapter's, such as goopenai.Messages(msgs))", actual)
	}
	if conv == nil && actual != nil && isNilPointer(actual) {
		return agentcheck.Sample{}, fmt.Errorf("agenttest: cannot take tool calls from a nil %T", actual)
	}
	return agentcheck.Sample{Conversation: conv}, nil
}

// isNilPointer reports whether x is a nil pointer (or a nil Transcript of
// pointer type).
func isNilPointer(x any) bool {
	switch v := x.(type) {
	case *agentcheck.Sample:
		return v == nil
	case *agentcheck.Conversation:
		return v == nil
	}
	if t, ok := x.(agentcheck.Transcript); ok {
		return t == nil
	}
	return false
}
