package trajectory

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/internal/jsonkey"
	"github.com/agentcheck/agentcheck/internal/keypath"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// Match compares the calls an agent made with expected calls, both
// agentcheck.ToolCalls: in its Mode, their arguments compared in its Args
// mode, scored by its Scoring. It is the trajectory match of LangChain's
// agentevals (strict, unordered, subset, superset; argument modes exact,
// ignore, subset, superset with per-tool overrides), with TurnAware and
// ScorePerTurn also the match of Google ADK, and with ScoreF1 the
// tool-call match of spring-ai-ragas with its pairing fixed. The zero value
// is strict order with exact arguments, all or nothing.
type Match struct {
	Mode Mode
	Args ArgsMode
	// ToolArgs overrides Args for the calls of a tool, by name.
	ToolArgs map[string]ArgsMode
	// Ignore leaves argument paths out of the comparison, by tool name ("*"
	// for every tool): dotted key paths whose segments are path.Match
	// patterns, such as "request_id", "time.start" or "*_id".
	Ignore map[string][]string
	// Comparators decide, by tool name ("*" for every tool without one of
	// its own), whether arguments match in place of the ArgsMode.
	Comparators map[string]ArgsComparator
	// Values says when two argument values are equal.
	Values Equivalence
	// TurnAware makes Strict compare turn by turn (the calls of one
	// assistant message, CompareTurns): the same number of turns, and
	// within each the same calls in any order.
	TurnAware bool
	// Scoring is how the comparison becomes a score.
	Scoring Scoring
	// Kinds makes a call's kind count: a call pairs only with calls of
	// its own kind, so an MCP call does not match a function call of the
	// same name (DeepEval's type check). Without it a call's kind does not
	// count, as in every metric.
	Kinds bool
	// Threshold, with ScoreF1 and above 0, makes a pair match when the
	// share of the expected call's arguments that the call made has with
	// equal values reaches it (extra arguments are ignored; both without
	// arguments share 1, an expected call without arguments against one
	// with some 0.5, and a share of 0 never matches); at most 1.
	Threshold float64
}

// Result is the outcome of Match.Compare.
type Result struct {
	// Score is the score of the Scoring: 1 or 0 for ScoreAll.
	Score float64
	// Pairs has every call made and every expected call exactly once
	// (Alignment.Pairs).
	Pairs []Pair
	// Matched is the number of pairs that match; Precision is Matched over
	// the calls made and Recall over the calls expected (each 0 when its
	// side is empty, both 1 when both are).
	Matched           int
	Precision, Recall float64
	// reason is what Reason says, written when asked.
	reason func() string
}

// Reason says in words whether the calls matched and, when they did not,
// which expected calls were not made, which calls made were not expected,
// and which pairs differ.
func (r Result) Reason() string {
	if r.reason == nil {
		return ""
	}
	return r.reason()
}

// Compare compares the calls made with the expected calls.
func (m Match) Compare(made, expected []agentcheck.ToolCall) Result {
	c := m.compile(made, expected)
	var pairs []Pair
	var score float64
	ok := false
	switch m.Scoring {
	case ScoreRecall, ScorePartialArgs:
		pairs, score = c.credit(m.Mode, m.Scoring == ScorePartialArgs)
		ok = score == 1
	case ScoreF1:
		pairs = c.f1Pairs(m.Mode)
	default:
		pairs, ok = c.run(m.Mode, 0, len(made), 0, len(expected))
		score = b2f(ok)
	}
	r := c.result(pairs, score)
	if m.Scoring == ScoreF1 {
		r.Score = r.f1(len(made), len(expected))
		ok = r.Score == 1
	}
	r.reason = c.reasonOf(r.Pairs, ok)
	return r
}

// f1 sets the precision and recall and returns their F1, with the
// arithmetic of spring-ai-ragas.
func (r *Result) f1(made, expected int) float64 {
	switch {
	case made == 0 && expected == 0:
		r.Precision, r.Recall = 1, 1
		return 1
	case made > 0 && expected > 0:
		r.Precision = float64(r.Matched) / float64(made)
		r.Recall = float64(r.Matched) / float64(expected)
	}
	if r.Precision+r.Recall == 0 {
		return 0
	}
	return 2 * r.Precision * r.Recall / (r.Precision + r.Recall)
}

// CompareTurns compares turns of calls made with turns of expected calls.
// With TurnAware, a Strict comparison wants the same number of turns and
// the same calls within each, in any order among themselves; otherwise the
// turns are joined. With ScorePerTurn, the i-th turn made is compared with
// the i-th expected turn in the Mode and the score is the share of turns
// that match (a missing turn does not match). The other scorings score the
// joined turns, as Compare does.
func (m Match) CompareTurns(made, expected [][]agentcheck.ToolCall) Result {
	flatMade, flatExp := slices.Concat(made...), slices.Concat(expected...)
	if m.Scoring != ScoreAll && m.Scoring != ScorePerTurn {
		return m.Compare(flatMade, flatExp)
	}
	c := m.compile(flatMade, flatExp)
	bounds := func(turns [][]agentcheck.ToolCall) []int {
		b := make([]int, len(turns)+1)
		for i, t := range turns {
			b[i+1] = b[i] + len(t)
		}
		return b
	}
	bm, be := bounds(made), bounds(expected)
	turnMode := m.Mode
	if m.Mode == Strict && m.TurnAware {
		turnMode = Unordered
	}
	span := func(b []int, n, i int) (int, int) {
		if i < n {
			return b[i], b[i+1]
		}
		return b[n], b[n]
	}
	if m.Scoring == ScorePerTurn {
		n := max(len(made), len(expected))
		if n == 0 {
			r := c.result(nil, 1)
			r.reason = c.reasonOf(nil, true)
			return r
		}
		var pairs []Pair
		matched := 0
		for i := range n {
			lm, hm := span(bm, len(made), i)
			le, he := span(be, len(expected), i)
			ps, ok := c.run(turnMode, lm, hm, le, he)
			if ok && i < len(made) && i < len(expected) {
				matched++
			}
			pairs = append(pairs, ps...)
		}
		r := c.result(pairs, float64(matched)/float64(n))
		r.reason = c.reasonOf(r.Pairs, matched == n)
		return r
	}
	if !m.TurnAware || m.Mode != Strict {
		pairs, ok := c.run(m.Mode, 0, len(flatMade), 0, len(flatExp))
		r := c.result(pairs, b2f(ok))
		r.reason = c.reasonOf(r.Pairs, ok)
		return r
	}
	ok := len(made) == len(expected)
	var pairs []Pair
	for i := range max(len(made), len(expected)) {
		lm, hm := span(bm, len(made), i)
		le, he := span(be, len(expected), i)
		ps, turnOK := c.run(Unordered, lm, hm, le, he)
		ok = ok && turnOK
		pairs = append(pairs, ps...)
	}
	if len(made) != len(expected) {
		c.note = fmt.Sprintf("%d turns made against %d expected", len(made), len(expected))
	}
	r := c.result(pairs, b2f(ok))
	r.reason = c.reasonOf(r.Pairs, ok)
	return r
}

// result counts the matched pairs.
func (c *compiled) result(pairs []Pair, score float64) Result {
	r := Result{Score: score, Pairs: pairs}
	for _, p := range pairs {
		if p.Match {
			r.Matched++
		}
	}
	return r
}

// reasonOf is reason, written when asked.
func (c *compiled) reasonOf(pairs []Pair, ok bool) func() string {
	note := c.note
	return func() string { return c.reason(pairs, ok, note) }
}

// reason explains a comparison: which expected calls were not made, which
// calls made were not expected.
func (c *compiled) reason(pairs []Pair, ok bool, note string) string {
	m := c.m
	if m.Scoring == ScoreF1 {
		return c.reasonF1(pairs, note)
	}
	verb := "match"
	if len(c.made) == 1 {
		verb = "matches"
	}
	if ok {
		return fmt.Sprintf("%s: the %s made %s the %d expected (arguments %s)", m.Mode, plural(len(c.made), "call"), verb, len(c.exp), m.Args)
	}
	verb = "do not match"
	if len(c.made) == 1 {
		verb = "does not match"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: the %s made %s the %d expected (arguments %s)", m.Mode, plural(len(c.made), "call"), verb, len(c.exp), m.Args)
	c.writeDetails(&b, pairs, note)
	return b.String()
}

// reasonF1 explains an F1 comparison: precision and recall, then the calls
// that did not pair.
func (c *compiled) reasonF1(pairs []Pair, note string) string {
	m := c.m
	matched := 0
	for _, p := range pairs {
		if p.Match {
			matched++
		}
	}
	args := "arguments " + m.Args.String()
	if m.Threshold > 0 {
		args = "arguments matching when at least " + strconv.FormatFloat(m.Threshold, 'f', -1, 64) + " of the expected ones are equal"
	}
	var b strings.Builder
	switch {
	case len(c.made) == 0 && len(c.exp) == 0:
		fmt.Fprintf(&b, "%s: no tool calls expected and none made", m.Mode)
	case len(c.made) == 0:
		fmt.Fprintf(&b, "%s: no tool calls made, %d expected", m.Mode, len(c.exp))
	case len(c.exp) == 0:
		fmt.Fprintf(&b, "%s: no tool calls expected, %d made", m.Mode, len(c.made))
	default:
		precision := float64(matched) / float64(len(c.made))
		recall := float64(matched) / float64(len(c.exp))
		expected := "expected calls were"
		if len(c.exp) == 1 {
			expected = "expected call was"
		}
		fmt.Fprintf(&b, "%s: %d of %s made match an expected call (precision %s), %d of %d %s made (recall %s) (%s)",
			m.Mode, matched, plural(len(c.made), "call"), strconv.FormatFloat(precision, 'f', -1, 64),
			matched, len(c.exp), expected, strconv.FormatFloat(recall, 'f', -1, 64), args)
	}
	c.writeDetails(&b, pairs, note)
	return b.String()
}

// writeDetails writes the calls that differ, are missing or were not
// expected, and the note, after a reason's first clause. Written straight
// into b: fmt and a list of strings for each took a fifth of the brute
// force comparison test's time under the race detector.
func (c *compiled) writeDetails(b *strings.Builder, pairs []Pair, note string) {
	if note != "" {
		b.WriteString("; ")
		b.WriteString(note)
	}
	head := "; made "
	for _, p := range pairs {
		if p.Made >= 0 && p.Expected >= 0 && p.Credit < 1 {
			b.WriteString(head)
			writeCall(b, p.Made, c.made)
			b.WriteString(" where ")
			writeCall(b, p.Expected, c.exp)
			b.WriteString(" was expected")
			head = ", "
		}
	}
	c.writeUnpaired(b, pairs, "; expected, not made: ", false)
	c.writeUnpaired(b, pairs, "; made, not expected: ", true)
}

// writeUnpaired writes head, then the calls of one side that no call of
// the other was paired with: the made ones (made) or the expected ones.
func (c *compiled) writeUnpaired(b *strings.Builder, pairs []Pair, head string, made bool) {
	for _, p := range pairs {
		switch {
		case made && p.Expected < 0:
			b.WriteString(head)
			writeCall(b, p.Made, c.made)
		case !made && p.Made < 0:
			b.WriteString(head)
			writeCall(b, p.Expected, c.exp)
		default:
			continue
		}
		head = ", "
	}
}

// writeCall writes "[i] " and calls[i] as ToolCall.String has it.
func writeCall(b *strings.Builder, i int, calls []agentcheck.ToolCall) {
	b.WriteByte('[')
	b.WriteString(strconv.Itoa(i))
	b.WriteString("] ")
	b.WriteString(calls[i].String())
}

func plural(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + one + "s"
}

// compiled is a Match over two lists of calls. Each call is reduced once to
// interned ids (its tool, its whole canonical arguments, each top-level
// member's key and canonical value, with ignored paths removed and strings
// normalised), so that comparing two calls compares integers.
type compiled struct {
	m         Match
	made, exp []agentcheck.ToolCall
	mk, ek    []callKey
	ids       interner // arguments, members, whole calls
	tools     interner // tool names (and kinds, with Kinds)
	members   []memberKey
	// The interners' first storage, in the same allocation.
	idBuf            [384]byte
	toolBuf          [128]byte
	idEnds, toolEnds [internScanMax + 1]int32
	// equivalence: every tool compares by exact or ignored arguments with
	// no comparator and no tolerance, so "matches" is an equivalence and
	// calls can be counted by key.
	equivalence bool
	note        string
	// postings lists, by a member's key and value ids, the calls made
	// that have it; shared and touched are shareRow's counts.
	postings        map[int64][]int32
	shared, touched []int32
	// byMember: exact arguments are compared member by member too
	// (ScorePartialArgs, ScoreF1 with a Threshold).
	byMember bool
}

var emptyObject = jsonvalue.Object()

// callKey is a call reduced for comparison.
type callKey struct {
	tool    int32 // the tool's name (and its kind, with Match.Kinds)
	whole   int32 // the canonical arguments (the tool alone when ignored)
	members []memberKey
	object  bool // arguments are an object (or none)
	invalid bool // arguments are not valid JSON
	mode    ArgsMode
	cmp     ArgsComparator
}

// memberKey is a top-level argument: its key's and canonical value's ids,
// and the value.
type memberKey struct {
	key, value int32
	v          jsonvalue.Value
}

func (m Match) compile(made, exp []agentcheck.ToolCall) *compiled {
	c := &compiled{m: m, made: made, exp: exp, equivalence: m.Values.Tolerance == 0 && len(m.Comparators) == 0}
	if c.equivalence {
		for _, mode := range m.ToolArgs {
			if mode != ArgsExact && mode != ArgsIgnore {
				c.equivalence = false
			}
		}
		if m.Args != ArgsExact && m.Args != ArgsIgnore {
			c.equivalence = false
		}
	}
	if m.Scoring == ScoreF1 && m.Threshold > 0 {
		c.equivalence = false
	}
	c.byMember = m.Scoring == ScorePartialArgs || m.Scoring == ScoreF1 && m.Threshold > 0
	c.ids = interner{buf: c.idBuf[:0], ends: c.idEnds[:0]}
	c.tools = interner{buf: c.toolBuf[:0], ends: c.toolEnds[:0]}
	keys := make([]callKey, len(made)+len(exp))
	c.mk, c.ek = keys[:len(made):len(made)], keys[len(made):]
	if c.byMember || m.Args != ArgsExact || len(m.ToolArgs) > 0 {
		// One backing array for every call's members.
		total := 0
		for _, calls := range [][]agentcheck.ToolCall{made, exp} {
			for i := range calls {
				total += len(calls[i].Args.Members())
			}
		}
		c.members = make([]memberKey, 0, total)
	}
	var bufArray [128]byte
	buf := bufArray[:0]
	for i := range made {
		c.mk[i], buf = c.key(&made[i], buf)
	}
	for i := range exp {
		c.ek[i], buf = c.key(&exp[i], buf)
	}
	return c
}

func (c *compiled) id(b []byte) int32 { return c.ids.id(b) }

// interner gives keys small ids, in order of first sight. Tool calls have
// few distinct names and arguments, so the keys are kept in one buffer and
// searched in turn, which costs less than hashing them, until there are so
// many that a map pays off.
type interner struct {
	buf  []byte
	ends []int32 // key i is buf[ends[i-1]:ends[i]]
	ids  map[string]int32
}

const internScanMax = 32

// id returns the id of key.
func (in *interner) id(key []byte) int32 {
	if in.ids != nil {
		if id, ok := in.ids[string(key)]; ok {
			return id
		}
		id := int32(len(in.ids))
		in.ids[string(key)] = id
		return id
	}
	start := int32(0)
	for i, end := range in.ends {
		if string(in.buf[start:end]) == string(key) {
			return int32(i)
		}
		start = end
	}
	in.buf = append(in.buf, key...)
	in.ends = append(in.ends, int32(len(in.buf)))
	if len(in.ends) > internScanMax {
		in.ids = make(map[string]int32, 2*len(in.ends))
		start := int32(0)
		for i, end := range in.ends {
			in.ids[string(in.buf[start:end])] = int32(i)
			start = end
		}
	}
	return int32(len(in.ends) - 1)
}

// len is the number of keys.
func (in *interner) len() int {
	if in.ids != nil {
		return len(in.ids)
	}
	return len(in.ends)
}

func (m Match) comparator(name string) ArgsComparator {
	if cmp, ok := m.Comparators[name]; ok {
		return cmp
	}
	return m.Comparators["*"]
}

func (m Match) argsFor(name string) ArgsMode {
	if mode, ok := m.ToolArgs[name]; ok {
		return mode
	}
	return m.Args
}

// ignoredFor is the ignore patterns for a tool, each split at dots.
func (m Match) ignoredFor(name string) [][]string {
	if len(m.Ignore) == 0 {
		return nil
	}
	out := keypath.Split(m.Ignore["*"])
	if name != "*" {
		out = append(out, keypath.Split(m.Ignore[name])...)
	}
	return out
}

// key reduces a call; buf is scratch, returned for reuse.
func (c *compiled) key(tc *agentcheck.ToolCall, buf []byte) (callKey, []byte) {
	k := callKey{mode: c.m.argsFor(tc.Name), invalid: tc.InvalidArgs != ""}
	if len(c.m.Comparators) > 0 {
		k.cmp = c.m.comparator(tc.Name)
	}
	buf = append(buf[:0], tc.Name...)
	if c.m.Kinds {
		buf = append(append(buf, 0), tc.Kind...)
	}
	tool := c.tools.id(buf)
	k.tool = tool
	buf = strconv.AppendInt(append(buf[:0], 0), int64(tool), 36)
	buf = append(buf, ':')
	if k.mode == ArgsIgnore {
		k.whole = c.id(buf)
		return k, buf
	}
	if k.invalid {
		// Unparseable arguments equal nothing, not even themselves.
		k.whole = c.id(strconv.AppendInt(append(buf, 1), int64(c.ids.len()), 10))
		return k, buf
	}
	args := tc.Args
	if ign := c.m.ignoredFor(tc.Name); len(ign) > 0 {
		args = prune(args, ign)
	}
	canon := func(b []byte, v jsonvalue.Value) []byte {
		if c.m.Values.Strings != nil {
			v = mapStrings(v, c.m.Values.Strings)
		}
		return jsonkey.Append(b, v, nil)
	}
	k.object = args.Kind() == jsonvalue.ObjectKind || args.Kind() == jsonvalue.NullKind
	if !k.object {
		k.whole = c.id(canon(append(buf, 2), args))
		return k, buf
	}
	if k.mode == ArgsExact && !c.byMember {
		// Exact arguments compare whole: no ids of members needed. No
		// arguments are the empty object.
		if args.Kind() == jsonvalue.NullKind {
			args = emptyObject
		}
		k.whole = c.id(canon(append(buf, 5), args))
		return k, buf
	}
	ms := args.Members()
	start := len(c.members)
	c.members = append(c.members, make([]memberKey, len(ms))...)
	k.members = c.members[start:len(c.members):len(c.members)]
	for i, mb := range ms {
		k.members[i] = memberKey{key: c.id(append(append(buf[:0], 3), mb.Key...)), value: c.id(canon(append(buf[:0], 4), mb.Value)), v: mb.Value}
	}
	slices.SortFunc(k.members, func(a, b memberKey) int { return int(a.key) - int(b.key) })
	// The whole key: the tool, then each member's ids in key order.
	buf = strconv.AppendInt(append(buf[:0], 0), int64(tool), 36)
	buf = append(buf, ':')
	for _, mb := range k.members {
		buf = strconv.AppendInt(buf, int64(mb.key), 36)
		buf = append(buf, ':')
		buf = strconv.AppendInt(buf, int64(mb.value), 36)
		buf = append(buf, ',')
	}
	k.whole = c.id(buf)
	return k, buf
}

// matches reports whether made call i matches expected call j: the same
// tool (of the same kind, with Kinds), and arguments that compare equal in the
// tool's ArgsMode (or by its comparator). Unparseable arguments fail every
// comparison of arguments, a comparator's included.
func (c *compiled) matches(i, j int) bool {
	mk, ek := &c.mk[i], &c.ek[j]
	if mk.tool != ek.tool {
		return false
	}
	if c.m.Scoring == ScoreF1 && c.m.Threshold > 0 {
		s := c.share(i, j)
		return s > 0 && s >= c.m.Threshold
	}
	if mk.invalid || ek.invalid {
		return mk.mode == ArgsIgnore
	}
	if mk.cmp != nil {
		return mk.cmp(c.made[i].Args, c.exp[j].Args)
	}
	switch {
	case mk.mode == ArgsIgnore:
		return true
	case c.m.Values.Tolerance != 0:
		return c.slowMatch(mk.mode, &c.made[i], &c.exp[j])
	case mk.mode == ArgsExact || !mk.object || !ek.object:
		return mk.whole == ek.whole
	case mk.mode == ArgsSubset:
		return membersWithin(mk.members, ek.members)
	}
	return membersWithin(ek.members, mk.members)
}

// share is the share of expected call j's arguments that made call i has
// with equal values (ScoreF1's Threshold): 1 when neither has arguments,
// 0.5 when only the call made has some, 0 when either side's arguments
// are unparseable. Arguments that are not an object are one argument.
func (c *compiled) share(i, j int) float64 {
	mk, ek := &c.mk[i], &c.ek[j]
	switch {
	case mk.invalid || ek.invalid:
		return 0
	case !ek.object:
		return b2f(!mk.object && mk.whole == ek.whole)
	case len(ek.members) == 0:
		if mk.object && len(mk.members) == 0 {
			return 1
		}
		return 0.5
	case !mk.object:
		return 0
	}
	shared := 0
	x := 0
	for _, em := range ek.members {
		for x < len(mk.members) && mk.members[x].key < em.key {
			x++
		}
		if x == len(mk.members) || mk.members[x].key != em.key {
			continue
		}
		if mk.members[x].value == em.value || c.m.Values.Tolerance != 0 && c.m.Values.equal(mk.members[x].v, em.v) {
			shared++
		}
	}
	return float64(shared) / float64(len(ek.members))
}

// membersWithin reports whether every member of small is in big with the
// same value; both are sorted by key id.
func membersWithin(small, big []memberKey) bool {
	if len(small) > len(big) {
		return false
	}
	j := 0
	for _, s := range small {
		for j < len(big) && big[j].key < s.key {
			j++
		}
		if j == len(big) || big[j].key != s.key || big[j].value != s.value {
			return false
		}
		j++
	}
	return true
}

// slowMatch compares with a numeric tolerance, value by value.
func (c *compiled) slowMatch(mode ArgsMode, a, e *agentcheck.ToolCall) bool {
	aa, ea := a.Args, e.Args
	// No arguments are an empty object, as on the fast path.
	if aa.Kind() == jsonvalue.NullKind {
		aa = jsonvalue.Object()
	}
	if ea.Kind() == jsonvalue.NullKind {
		ea = jsonvalue.Object()
	}
	if ign := c.m.ignoredFor(a.Name); len(ign) > 0 {
		aa, ea = prune(aa, ign), prune(ea, ign)
	}
	if mode == ArgsExact || aa.Kind() != jsonvalue.ObjectKind || ea.Kind() != jsonvalue.ObjectKind {
		return c.m.Values.equal(aa, ea)
	}
	small, big := aa, ea
	if mode == ArgsSuperset {
		small, big = ea, aa
	}
	for _, mb := range small.Members() {
		bv, ok := big.Get(mb.Key)
		if !ok || !c.m.Values.equal(mb.Value, bv) {
			return false
		}
	}
	return true
}

// run compares made calls [lm, hm) with expected calls [le, he) in mode,
// all or nothing, and returns the pairs (indices into the whole lists) and
// whether they line up.
func (c *compiled) run(mode Mode, lm, hm, le, he int) ([]Pair, bool) {
	nm, ne := hm-lm, he-le
	var pairs []Pair
	switch mode {
	case Strict:
		// Position by position.
		pairs = make([]Pair, 0, max(nm, ne))
		for k := range max(nm, ne) {
			switch {
			case k >= nm:
				pairs = append(pairs, Pair{Made: -1, Expected: le + k})
			case k >= ne:
				pairs = append(pairs, Pair{Made: lm + k, Expected: -1})
			default:
				match := c.matches(lm+k, le+k)
				pairs = append(pairs, Pair{Made: lm + k, Expected: le + k, Match: match, Credit: b2f(match)})
			}
		}
	case InOrder:
		pairs = c.earliest(lm, hm, le, he)
	default:
		mate := c.maxPairs(lm, hm, le, he)
		pairs = anyOrderPairs(nm, mate)
		for k := range pairs {
			p := &pairs[k]
			if p.Made >= 0 {
				p.Made += lm
			}
			if p.Expected >= 0 {
				p.Expected += le
				if p.Made >= 0 {
					p.Match, p.Credit = true, 1
				}
			}
		}
	}
	matched := 0
	for _, p := range pairs {
		if p.Match {
			matched++
		}
	}
	return pairs, verdict(mode, matched, nm, ne)
}

// earliest pairs each expected call of [le, he) in turn with the earliest
// call of [lm, hm) after the last one paired that matches it: taking the
// earliest never leaves less room for the calls after it, so this finds
// the most pairs in order.
func (c *compiled) earliest(lm, hm, le, he int) []Pair {
	var pairs []Pair
	i := lm
	for j := le; j < he; j++ {
		at := i
		for at < hm && !c.matches(at, j) {
			at++
		}
		if at == hm {
			pairs = append(pairs, Pair{Made: -1, Expected: j})
			continue
		}
		for ; i < at; i++ {
			pairs = append(pairs, Pair{Made: i, Expected: -1})
		}
		pairs = append(pairs, Pair{Made: at, Expected: j, Match: true, Credit: 1})
		i = at + 1
	}
	for ; i < hm; i++ {
		pairs = append(pairs, Pair{Made: i, Expected: -1})
	}
	return pairs
}

// maxPairs is a maximum one-to-one pairing of made calls [lm, hm) with
// expected calls [le, he) that match: for each expected call, the index
// (from lm) of its call made, or -1. When matching is an equivalence,
// calls pair by key in order; otherwise by maxMatching.
func (c *compiled) maxPairs(lm, hm, le, he int) []int32 {
	nm, ne := hm-lm, he-le
	if c.equivalence {
		classM, classE := make([]int32, nm), make([]int32, ne)
		for i := range classM {
			classM[i] = c.mk[lm+i].whole
		}
		for j := range classE {
			classE[j] = c.ek[le+j].whole
		}
		return classPairs(classM, classE)
	}
	// Edges only join calls of the same tool.
	byTool := make(map[int32][]int32, nm)
	for i := range nm {
		byTool[c.mk[lm+i].tool] = append(byTool[c.mk[lm+i].tool], int32(i))
	}
	adj := make([][]int32, ne)
	for j := range ne {
		for _, i := range byTool[c.ek[le+j].tool] {
			if c.matches(lm+int(i), le+j) {
				adj[j] = append(adj[j], i)
			}
		}
	}
	return maxMatching(adj, nm)
}
