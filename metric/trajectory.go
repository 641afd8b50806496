package metric

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/internal/keypath"
)

// TrajectoryMode says how the calls an agent made must line up with the
// expected calls. Every mode pairs calls one to one: an expected call pairs
// with at most one call made, and the pairing is the best there is, not the
// first that fits.
type TrajectoryMode uint8

const (
	// TrajectoryStrict: the same calls in the same order, position by
	// position (turn by turn with TrajectoryMatch.TurnAware).
	TrajectoryStrict TrajectoryMode = iota
	// TrajectoryUnordered: the same calls, as a multiset, in any order;
	// nothing extra, nothing missing.
	TrajectoryUnordered
	// TrajectorySubset: every call made is one of the expected calls
	// (made ⊆ expected); expected calls may be left out.
	TrajectorySubset
	// TrajectorySuperset: every expected call was made (made ⊇ expected);
	// other calls may come too.
	TrajectorySuperset
	// TrajectoryInOrder: every expected call was made, in the expected
	// order; other calls may come before, between and after them (Google
	// ADK's IN_ORDER, promptfoo's tool-sequence).
	TrajectoryInOrder
)

var trajectoryModes = [...]string{"strict", "unordered", "subset", "superset", "in_order"}

// String is the mode's name as the CLI takes it.
func (m TrajectoryMode) String() string {
	if int(m) < len(trajectoryModes) {
		return trajectoryModes[m]
	}
	return "TrajectoryMode(" + strconv.Itoa(int(m)) + ")"
}

// ParseTrajectoryMode reads a mode as the CLI takes it: strict, unordered,
// subset, superset or in_order.
func ParseTrajectoryMode(name string) (TrajectoryMode, error) {
	if i := slices.Index(trajectoryModes[:], name); i >= 0 {
		return TrajectoryMode(i), nil
	}
	return 0, fmt.Errorf("unknown trajectory mode %q: want strict, unordered, subset, superset or in_order", name)
}

// ArgsMode says how the arguments of a call made compare with those of the
// expected call it pairs with. Subset and superset apply to the top-level
// keys of the argument objects; the values under them compare as whole JSON
// values (1 equals 1.0, true is not 1, objects whatever their key order).
type ArgsMode uint8

const (
	// ArgsExact: the same arguments, no more and no fewer.
	ArgsExact ArgsMode = iota
	// ArgsIgnore: any arguments; only the tool name counts.
	ArgsIgnore
	// ArgsSubset: the arguments made are a subset of the expected ones:
	// each is expected, with the expected value; expected ones may be left
	// out.
	ArgsSubset
	// ArgsSuperset: the arguments made include every expected one, with
	// its value; others may come too.
	ArgsSuperset
)

var argsModes = [...]string{"exact", "ignore", "subset", "superset"}

// String is the mode's name as the CLI takes it.
func (m ArgsMode) String() string {
	if int(m) < len(argsModes) {
		return argsModes[m]
	}
	return "ArgsMode(" + strconv.Itoa(int(m)) + ")"
}

// ParseArgsMode reads an argument mode as the CLI takes it: exact, ignore,
// subset or superset.
func ParseArgsMode(name string) (ArgsMode, error) {
	if i := slices.Index(argsModes[:], name); i >= 0 {
		return ArgsMode(i), nil
	}
	return 0, fmt.Errorf("unknown args mode %q: want exact, ignore, subset or superset", name)
}

// ArgsComparator decides whether the arguments of a call made match those
// of an expected call of the same tool, in place of the ArgsMode.
type ArgsComparator func(made, expected agentcheck.Value) bool

// Equivalence says when two argument values are equal. The zero value is
// JSON equality, agentcheck.Equal: 1 equals 1.0, true is not 1, objects
// whatever their key order.
type Equivalence struct {
	// Strings, when set, rewrites both strings before they are compared:
	// CaseInsensitive, BFCLStrings or the test's own.
	Strings func(string) string
	// Tolerance is the largest difference between two numbers that are
	// still equal.
	Tolerance float64
}

// CaseInsensitive compares strings without regard to case, as
// strings.EqualFold does (Unicode simple folding): each letter becomes the
// least of the letters it folds with.
func CaseInsensitive(s string) string {
	return strings.Map(func(r rune) rune {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		return least
	}, s)
}

func (e Equivalence) zero() bool { return e.Strings == nil && e.Tolerance == 0 }

// Scoring says how TrajectoryMatch turns a comparison into a score.
type Scoring uint8

const (
	// ScoreAll: 1 when the whole trajectory matches, else 0.
	ScoreAll Scoring = iota
	// ScorePerTurn: each turn (CompareTurns) scores 1 or 0 on its own and
	// the score is their mean, as Google ADK's tool trajectory score
	// averages over invocations. With no turns there is nothing to score:
	// the score is 1.
	ScorePerTurn
	// ScoreRecall: the share of calls that pair up, one to one (in order
	// for TrajectoryStrict and TrajectoryInOrder), out of the calls the
	// mode answers for: the expected calls (superset, in order), the calls
	// made (subset), or the larger of the two (strict, unordered); 1 when
	// there are none. With TrajectorySuperset it is the recall of the
	// expected calls, vitest-evals' ToolCallScorer with requireAll false.
	ScoreRecall
	// ScorePartialArgs: as ScoreRecall, but a pair earns the share of its
	// arguments that match (ArgsCredit) rather than all or nothing, and
	// the pairing is the one that earns most: DeepEval's ToolCorrectness
	// with input parameters.
	ScorePartialArgs
)

// TrajectoryMatch scores 1 when the calls made line up with the expected
// calls in its Mode, their arguments compared in its Args mode, and 0
// otherwise. It is the trajectory match of LangChain's agentevals (strict,
// unordered, subset, superset; argument modes exact, ignore, subset,
// superset with per-tool overrides), and with TurnAware and ScorePerTurn
// also the match of Google ADK. The zero value is strict order with exact
// arguments.
type TrajectoryMatch struct {
	Mode TrajectoryMode
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
	// TurnAware makes TrajectoryStrict compare turn by turn (the calls of
	// one assistant message): the same number of turns, and within each
	// the same calls in any order. Evaluate takes the turns from the
	// conversation's AI messages and cuts the reference calls to their
	// sizes; CompareTurns takes both as given.
	TurnAware bool
	// Scoring is how the comparison becomes a score.
	Scoring Scoring
}

// Name is "trajectory_match".
func (m TrajectoryMatch) Name() string { return "trajectory_match" }

// Evaluate scores the calls of the sample's conversation against its
// reference tool calls; a sample without reference tool calls expects
// none. The sample is one turn for ScorePerTurn. With TurnAware and
// TrajectoryStrict, the calls each AI message makes may come in any order
// among themselves: the reference calls are cut into turns of the sizes of
// the messages' and compared turn by turn.
func (m TrajectoryMatch) Evaluate(_ context.Context, s agentcheck.Sample) (Result, error) {
	made := s.Conversation.ToolCalls()
	if !m.TurnAware || m.Mode != TrajectoryStrict || m.Scoring != ScoreAll || len(made) != len(s.ReferenceToolCalls) {
		m.TurnAware = false
		return m.Compare(made, s.ReferenceToolCalls), nil
	}
	turns := turnsOf(s.Conversation)
	exp := make([][]agentcheck.ToolCall, len(turns))
	at := 0
	for i, t := range turns {
		exp[i], at = s.ReferenceToolCalls[at:at+len(t)], at+len(t)
	}
	return m.CompareTurns(turns, exp), nil
}

// turnsOf is the calls of each AI message of c that makes calls.
func turnsOf(c agentcheck.Conversation) [][]agentcheck.ToolCall {
	var turns [][]agentcheck.ToolCall
	for _, msg := range c {
		if msg.Role == agentcheck.AI && len(msg.ToolCalls) > 0 {
			turns = append(turns, msg.ToolCalls)
		}
	}
	return turns
}

// Compare scores the calls made against the expected calls.
func (m TrajectoryMatch) Compare(made, expected []agentcheck.ToolCall) Result {
	tm := m.newMatcher(made, expected)
	if m.Scoring == ScoreRecall || m.Scoring == ScorePartialArgs {
		pairs, score := tm.partial(m.Scoring == ScorePartialArgs)
		return m.result(tm, pairs, score, score == 1)
	}
	pairs, ok := tm.run(m.Mode, 0, len(made), 0, len(expected))
	return m.result(tm, pairs, b2f(ok), ok)
}

// CompareTurns scores turns of calls made against turns of expected calls.
// With TurnAware, a strict comparison wants the same number of turns and
// the same calls within each, in any order among themselves; otherwise the
// turns are joined. With ScorePerTurn, the i-th turn made is compared with
// the i-th expected turn in the Mode and the score is the share of turns
// that match (a missing turn does not match). ScoreRecall and
// ScorePartialArgs score the joined turns, as Compare does.
func (m TrajectoryMatch) CompareTurns(made, expected [][]agentcheck.ToolCall) Result {
	flatMade, flatExp := slices.Concat(made...), slices.Concat(expected...)
	if m.Scoring == ScoreRecall || m.Scoring == ScorePartialArgs {
		return m.Compare(flatMade, flatExp)
	}
	tm := m.newMatcher(flatMade, flatExp)
	bounds := func(turns [][]agentcheck.ToolCall) []int {
		b := make([]int, len(turns)+1)
		for i, t := range turns {
			b[i+1] = b[i] + len(t)
		}
		return b
	}
	bm, be := bounds(made), bounds(expected)
	if m.Scoring == ScorePerTurn {
		n := max(len(made), len(expected))
		if n == 0 {
			return m.result(tm, nil, 1, true)
		}
		var pairs []CallPair
		matched := 0
		for i := range n {
			lm, hm, le, he := 0, 0, 0, 0
			if i < len(made) {
				lm, hm = bm[i], bm[i+1]
			}
			if i < len(expected) {
				le, he = be[i], be[i+1]
			}
			ps, ok := tm.run(m.turnMode(), lm, hm, le, he)
			if ok && i < len(made) && i < len(expected) {
				matched++
			}
			pairs = append(pairs, ps...)
		}
		return m.result(tm, pairs, float64(matched)/float64(n), matched == n)
	}
	if !m.TurnAware || m.Mode != TrajectoryStrict {
		pairs, ok := tm.run(m.Mode, 0, len(flatMade), 0, len(flatExp))
		return m.result(tm, pairs, b2f(ok), ok)
	}
	ok := len(made) == len(expected)
	var pairs []CallPair
	for i := range max(len(made), len(expected)) {
		lm, hm, le, he := bm[len(made)], bm[len(made)], be[len(expected)], be[len(expected)]
		if i < len(made) {
			lm, hm = bm[i], bm[i+1]
		}
		if i < len(expected) {
			le, he = be[i], be[i+1]
		}
		ps, turnOK := tm.run(TrajectoryUnordered, lm, hm, le, he)
		ok = ok && turnOK
		pairs = append(pairs, ps...)
	}
	if len(made) != len(expected) {
		tm.note = fmt.Sprintf("%d turns made against %d expected", len(made), len(expected))
	}
	return m.result(tm, pairs, b2f(ok), ok)
}

// turnMode is the mode a turn is compared in: strict when turn-aware means
// any order within the turn.
func (m TrajectoryMatch) turnMode() TrajectoryMode {
	if m.Mode == TrajectoryStrict && m.TurnAware {
		return TrajectoryUnordered
	}
	return m.Mode
}

// result explains a comparison: which expected calls were not made, which
// calls made were not expected.
func (m TrajectoryMatch) result(tm *trajMatcher, pairs []CallPair, score float64, ok bool) Result {
	r := Result{Metric: m.Name(), Score: score, Pairs: pairs}
	if ok {
		r.Reason = fmt.Sprintf("%s: the %s made match the %d expected (arguments %s)", m.Mode, plural(len(tm.made), "call"), len(tm.exp), m.Args)
		return r
	}
	var missing, extra, differ []string
	for _, p := range pairs {
		switch {
		case p.Predicted >= 0 && p.Reference >= 0 && p.Score < 1:
			differ = append(differ, fmt.Sprintf("[%d] %s where [%d] %s was expected", p.Predicted, tm.made[p.Predicted], p.Reference, tm.exp[p.Reference]))
		case p.Predicted < 0:
			missing = append(missing, fmt.Sprintf("[%d] %s", p.Reference, tm.exp[p.Reference]))
		case p.Reference < 0:
			extra = append(extra, fmt.Sprintf("[%d] %s", p.Predicted, tm.made[p.Predicted]))
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: the %s made do not match the %d expected (arguments %s)", m.Mode, plural(len(tm.made), "call"), len(tm.exp), m.Args)
	if tm.note != "" {
		b.WriteString("; " + tm.note)
	}
	if len(differ) > 0 {
		b.WriteString("; made " + strings.Join(differ, ", "))
	}
	if len(missing) > 0 {
		b.WriteString("; expected, not made: " + strings.Join(missing, ", "))
	}
	if len(extra) > 0 {
		b.WriteString("; made, not expected: " + strings.Join(extra, ", "))
	}
	r.Reason = b.String()
	return r
}

func plural(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + one + "s"
}

// trajMatcher compares calls made with expected calls under a
// TrajectoryMatch. Each call is reduced once to interned ids (its tool and
// kind, its whole canonical arguments, each top-level member's key and
// canonical value, with ignored paths removed and strings normalised), so
// that comparing two calls compares integers.
type trajMatcher struct {
	m         TrajectoryMatch
	made, exp []agentcheck.ToolCall
	mk, ek    []callKey
	ids       map[string]int32
	// equivalence: every tool compares by exact or ignored arguments with
	// no comparator and no tolerance, so "matches" is an equivalence and
	// calls can be counted by key.
	equivalence bool
	note        string
}

// callKey is a call reduced for comparison.
type callKey struct {
	name    int32 // the tool's name and kind
	whole   int32 // name, kind and canonical arguments (name alone when ignored)
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
	v          agentcheck.Value
}

func (m TrajectoryMatch) newMatcher(made, exp []agentcheck.ToolCall) *trajMatcher {
	tm := &trajMatcher{m: m, made: made, exp: exp, equivalence: m.Values.Tolerance == 0 && len(m.Comparators) == 0}
	if tm.equivalence {
		for _, mode := range m.ToolArgs {
			if mode != ArgsExact && mode != ArgsIgnore {
				tm.equivalence = false
			}
		}
		if m.Args != ArgsExact && m.Args != ArgsIgnore {
			tm.equivalence = false
		}
	}
	tm.ids = make(map[string]int32, 4*(len(made)+len(exp)))
	tm.mk = make([]callKey, len(made))
	tm.ek = make([]callKey, len(exp))
	var buf []byte
	for i := range made {
		tm.mk[i], buf = tm.key(&made[i], buf)
	}
	for i := range exp {
		tm.ek[i], buf = tm.key(&exp[i], buf)
	}
	return tm
}

func (tm *trajMatcher) id(b []byte) int32 {
	if id, ok := tm.ids[string(b)]; ok {
		return id
	}
	id := int32(len(tm.ids))
	tm.ids[string(b)] = id
	return id
}

func (m TrajectoryMatch) comparator(name string) ArgsComparator {
	if cmp, ok := m.Comparators[name]; ok {
		return cmp
	}
	return m.Comparators["*"]
}

func (m TrajectoryMatch) argsFor(name string) ArgsMode {
	if mode, ok := m.ToolArgs[name]; ok {
		return mode
	}
	return m.Args
}

// ignoredFor is the ignore patterns for a tool, each split at dots.
func (m TrajectoryMatch) ignoredFor(name string) [][]string {
	var out [][]string
	for _, tool := range []string{"*", name} {
		out = append(out, keypath.Split(m.Ignore[tool])...)
		if name == "*" {
			break
		}
	}
	return out
}

// key reduces a call; buf is scratch, returned for reuse.
func (tm *trajMatcher) key(tc *agentcheck.ToolCall, buf []byte) (callKey, []byte) {
	k := callKey{mode: tm.m.argsFor(tc.Name), invalid: tc.InvalidArgs != ""}
	if len(tm.m.Comparators) > 0 {
		k.cmp = tm.m.comparator(tc.Name)
	}
	buf = append(append(append(buf[:0], tc.Name...), 0), tc.Kind...)
	buf = append(buf, 0)
	k.name = tm.id(buf)
	if k.mode == ArgsIgnore {
		k.whole = tm.id(buf)
		return k, buf
	}
	if k.invalid {
		// Unparseable arguments equal nothing, not even themselves.
		k.whole = tm.id(strconv.AppendInt(append(buf, 1), int64(len(tm.ids)), 10))
		return k, buf
	}
	args := tc.Args
	if ign := tm.m.ignoredFor(tc.Name); len(ign) > 0 {
		args = prune(args, ign)
	}
	canon := func(b []byte, v agentcheck.Value) []byte {
		if tm.m.Values.Strings != nil {
			v = mapStrings(v, tm.m.Values.Strings)
		}
		return agentcheck.AppendCanonical(b, v, nil)
	}
	k.object = args.Kind() == agentcheck.ObjectKind || args.Kind() == agentcheck.NullKind
	if !k.object {
		k.whole = tm.id(canon(append(buf, 2), args))
		return k, buf
	}
	ms := args.Members()
	k.members = make([]memberKey, len(ms))
	for i, mb := range ms {
		k.members[i] = memberKey{key: tm.id(append(append(buf[:0], 3), mb.Key...)), value: tm.id(canon(append(buf[:0], 4), mb.Value)), v: mb.Value}
	}
	slices.SortFunc(k.members, func(a, b memberKey) int { return int(a.key) - int(b.key) })
	// The whole key: the name, then each member's ids in key order.
	buf = buf[:0]
	buf = append(append(append(buf, tc.Name...), 0), tc.Kind...)
	buf = append(buf, 0)
	for _, mb := range k.members {
		buf = strconv.AppendInt(buf, int64(mb.key), 36)
		buf = append(buf, ':')
		buf = strconv.AppendInt(buf, int64(mb.value), 36)
		buf = append(buf, ',')
	}
	k.whole = tm.id(buf)
	return k, buf
}

// IgnorePaths returns v without the members that paths name: dotted key
// paths into nested objects whose segments are path.Match patterns
// ("request_id", "time.start", "*_id"). Values that are not objects are
// returned as they are.
func IgnorePaths(v agentcheck.Value, paths ...string) agentcheck.Value {
	return prune(v, keypath.Split(paths))
}

// prune removes from an object the members that ignore patterns name.
func prune(v agentcheck.Value, patterns [][]string) agentcheck.Value {
	if v.Kind() != agentcheck.ObjectKind {
		return v
	}
	var kept []agentcheck.Member
	for _, mb := range v.Members() {
		drop, deeper := keypath.Step(patterns, mb.Key)
		if drop {
			continue
		}
		if len(deeper) > 0 {
			mb.Value = prune(mb.Value, deeper)
		}
		kept = append(kept, mb)
	}
	return agentcheck.ObjectOf(kept...)
}

// mapStrings applies f to every string in v, keys excepted.
func mapStrings(v agentcheck.Value, f func(string) string) agentcheck.Value {
	switch v.Kind() {
	case agentcheck.StringKind:
		return agentcheck.StringOf(f(v.Text()))
	case agentcheck.ArrayKind:
		items := make([]agentcheck.Value, v.Len())
		for i := range items {
			items[i] = mapStrings(v.Index(i), f)
		}
		return agentcheck.ArrayOf(items...)
	case agentcheck.ObjectKind:
		ms := slices.Clone(v.Members())
		for i := range ms {
			ms[i].Value = mapStrings(ms[i].Value, f)
		}
		return agentcheck.ObjectOf(ms...)
	}
	return v
}

// matches reports whether made call i matches expected call j.
func (tm *trajMatcher) matches(i, j int) bool {
	mk, ek := &tm.mk[i], &tm.ek[j]
	if mk.name != ek.name {
		return false
	}
	if mk.invalid || ek.invalid {
		// Unparseable arguments fail every comparison of arguments.
		return mk.mode == ArgsIgnore
	}
	if mk.cmp != nil {
		return mk.cmp(tm.made[i].Args, tm.exp[j].Args)
	}
	switch {
	case mk.mode == ArgsIgnore:
		return true
	case tm.m.Values.Tolerance != 0:
		return tm.slowMatch(mk.mode, &tm.made[i], &tm.exp[j])
	case mk.mode == ArgsExact || !mk.object || !ek.object:
		return mk.whole == ek.whole
	case mk.mode == ArgsSubset:
		return membersWithin(mk.members, ek.members)
	}
	return membersWithin(ek.members, mk.members)
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
func (tm *trajMatcher) slowMatch(mode ArgsMode, a, e *agentcheck.ToolCall) bool {
	aa, ea := a.Args, e.Args
	// No arguments are an empty object, as on the fast path.
	if aa.Kind() == agentcheck.NullKind {
		aa = agentcheck.ObjectOf()
	}
	if ea.Kind() == agentcheck.NullKind {
		ea = agentcheck.ObjectOf()
	}
	if ign := tm.m.ignoredFor(a.Name); len(ign) > 0 {
		aa, ea = prune(aa, ign), prune(ea, ign)
	}
	if mode == ArgsExact || aa.Kind() != agentcheck.ObjectKind || ea.Kind() != agentcheck.ObjectKind {
		return tm.m.Values.equal(aa, ea)
	}
	small, big := aa, ea
	if mode == ArgsSuperset {
		small, big = ea, aa
	}
	for _, mb := range small.Members() {
		bv, ok := big.Get(mb.Key)
		if !ok || !tm.m.Values.equal(mb.Value, bv) {
			return false
		}
	}
	return true
}

// Equal reports whether a and b are equal under the equivalence; a nil
// equivalence is JSON equality, agentcheck.Equal.
func (e *Equivalence) Equal(a, b agentcheck.Value) bool {
	if e == nil {
		return agentcheck.Equal(a, b)
	}
	return e.equal(a, b)
}

// equal compares two values under the equivalence.
func (e Equivalence) equal(a, b agentcheck.Value) bool {
	if e.zero() {
		return agentcheck.Equal(a, b)
	}
	num := func(k agentcheck.Kind) bool { return k == agentcheck.IntKind || k == agentcheck.FloatKind }
	switch {
	case num(a.Kind()) && num(b.Kind()):
		if agentcheck.Equal(a, b) {
			return true
		}
		return math.Abs(a.Float()-b.Float()) <= e.Tolerance
	case a.Kind() != b.Kind():
		return false
	case a.Kind() == agentcheck.StringKind:
		if e.Strings == nil {
			return a.Text() == b.Text()
		}
		return e.Strings(a.Text()) == e.Strings(b.Text())
	case a.Kind() == agentcheck.ArrayKind:
		if a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !e.equal(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case a.Kind() == agentcheck.ObjectKind:
		if len(a.Members()) != len(b.Members()) {
			return false
		}
		for _, mb := range a.Members() {
			bv, ok := b.Get(mb.Key)
			if !ok || !e.equal(mb.Value, bv) {
				return false
			}
		}
		return true
	}
	return agentcheck.Equal(a, b)
}

// run compares made calls [lm, hm) with expected calls [le, he) in mode
// and returns the pairs (indices into the whole lists) and whether they
// line up.
func (tm *trajMatcher) run(mode TrajectoryMode, lm, hm, le, he int) ([]CallPair, bool) {
	nm, ne := hm-lm, he-le
	if mode == TrajectoryStrict {
		pairs := make([]CallPair, 0, max(nm, ne))
		ok := nm == ne
		for k := range max(nm, ne) {
			switch {
			case k >= nm:
				pairs = append(pairs, CallPair{Reference: le + k, Predicted: -1})
			case k >= ne:
				pairs = append(pairs, CallPair{Reference: -1, Predicted: lm + k})
			default:
				match := tm.matches(lm+k, le+k)
				ok = ok && match
				pairs = append(pairs, CallPair{Reference: le + k, Predicted: lm + k, Matched: match, Score: b2f(match)})
			}
		}
		return pairs, ok
	}
	if mode == TrajectoryInOrder {
		// The earliest match of each expected call in turn: taking the
		// earliest never leaves less room for the calls after it.
		var pairs []CallPair
		i := 0
		ok := true
		for j := range ne {
			at := i
			for at < nm && !tm.matches(lm+at, le+j) {
				at++
			}
			if at == nm {
				ok = false
				pairs = append(pairs, CallPair{Reference: le + j, Predicted: -1})
				continue
			}
			for ; i < at; i++ {
				pairs = append(pairs, CallPair{Reference: -1, Predicted: lm + i})
			}
			pairs = append(pairs, CallPair{Reference: le + j, Predicted: lm + at, Matched: true, Score: 1})
			i = at + 1
		}
		for ; i < nm; i++ {
			pairs = append(pairs, CallPair{Reference: -1, Predicted: lm + i})
		}
		return pairs, ok
	}
	// The best one-to-one pairing of made with expected calls.
	mateOfExp := tm.pairing(lm, hm, le, he)
	paired := 0
	var pairs []CallPair
	madePaired := make([]bool, nm)
	for j := range ne {
		if i := mateOfExp[j]; i >= 0 {
			paired++
			madePaired[i] = true
			pairs = append(pairs, CallPair{Reference: le + j, Predicted: lm + i, Matched: true, Score: 1})
		} else {
			pairs = append(pairs, CallPair{Reference: le + j, Predicted: -1})
		}
	}
	for i := range nm {
		if !madePaired[i] {
			pairs = append(pairs, CallPair{Reference: -1, Predicted: lm + i})
		}
	}
	switch mode {
	case TrajectoryUnordered:
		return pairs, paired == nm && paired == ne
	case TrajectorySubset:
		return pairs, paired == nm
	default:
		return pairs, paired == ne
	}
}

// pairing is a maximum one-to-one pairing of made calls [lm, hm) with
// expected calls [le, he): for each expected call, the index (from lm) of
// its made call, or -1. When matching is an equivalence, calls pair by key
// in order; otherwise Hopcroft and Karp's algorithm finds a maximum
// matching, so that a call that fits two expected calls does not take the
// one another call needs (as a greedy pairing would).
func (tm *trajMatcher) pairing(lm, hm, le, he int) []int {
	nm, ne := hm-lm, he-le
	mate := make([]int, ne)
	for j := range mate {
		mate[j] = -1
	}
	if tm.equivalence {
		// Keys decide matches (unparseable arguments have keys of their
		// own): the calls of a key pair in order.
		free := make(map[int32][]int, nm)
		for i := range nm {
			k := tm.mk[lm+i].whole
			free[k] = append(free[k], i)
		}
		for j := range ne {
			k := tm.ek[le+j].whole
			if q := free[k]; len(q) > 0 {
				mate[j], free[k] = q[0], q[1:]
			}
		}
		return mate
	}
	// Edges only join calls of the same tool.
	byName := make(map[int32][]int, nm)
	for i := range nm {
		byName[tm.mk[lm+i].name] = append(byName[tm.mk[lm+i].name], i)
	}
	adj := make([][]int, ne)
	for j := range ne {
		for _, i := range byName[tm.ek[le+j].name] {
			if tm.matches(lm+i, le+j) {
				adj[j] = append(adj[j], i)
			}
		}
	}
	hopcroftKarp(adj, nm, mate)
	return mate
}

// hopcroftKarp finds a maximum matching of the bipartite graph whose left
// vertices j have edges adj[j] to right vertices 0..n-1. mateL is filled
// with each left vertex's mate (or -1).
func hopcroftKarp(adj [][]int, n int, mateL []int) {
	mateR := make([]int, n)
	for i := range mateR {
		mateR[i] = -1
	}
	// A greedy start: most pairs are found here.
	for j, es := range adj {
		for _, i := range es {
			if mateR[i] < 0 {
				mateL[j], mateR[i] = i, j
				break
			}
		}
	}
	const inf = math.MaxInt
	dist := make([]int, len(adj))
	queue := make([]int, 0, len(adj))
	bfs := func() bool {
		queue = queue[:0]
		for j := range adj {
			if mateL[j] < 0 {
				dist[j] = 0
				queue = append(queue, j)
			} else {
				dist[j] = inf
			}
		}
		found := false
		for q := 0; q < len(queue); q++ {
			j := queue[q]
			for _, i := range adj[j] {
				k := mateR[i]
				if k < 0 {
					found = true
				} else if dist[k] == inf {
					dist[k] = dist[j] + 1
					queue = append(queue, k)
				}
			}
		}
		return found
	}
	var dfs func(j int) bool
	dfs = func(j int) bool {
		for _, i := range adj[j] {
			k := mateR[i]
			if k < 0 || dist[k] == dist[j]+1 && dfs(k) {
				mateL[j], mateR[i] = i, j
				return true
			}
		}
		dist[j] = inf
		return false
	}
	for bfs() {
		for j := range adj {
			if mateL[j] < 0 {
				dfs(j)
			}
		}
	}
}
