package metric

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/agentcheck/agentcheck"
)

// ToolCallMatch is spring-ai-ragas's ToolCallAccuracy with its pairing
// fixed: the score is the F1 of precision (matched calls / calls made) and
// recall (matched calls / calls expected), where calls are paired so that as
// many as possible match. The Java port pairs greedily (each call made takes
// the best unmatched expected call, in order), which loses matches with
// duplicate and retried calls and depends on the order of the calls; here
// the pairing is a maximum matching, and among those one with the highest
// total argument score. Calls with different tool names never match, nor
// does a call whose arguments are not valid JSON (ToolCall.InvalidArgs).
//
// The zero value is the Java default: StrictMatch, any order, threshold 0.8.
type ToolCallMatch struct {
	// Mode is how arguments are compared.
	Mode MatchMode
	// Ordered makes the matched calls keep their order on both sides: the
	// pairing is then the best common subsequence, as a diff aligns lines,
	// so a call made too early or too late counts as missing and extra.
	Ordered bool
	// ArgumentMatchThreshold is the FlexibleMatch score a pair needs to
	// match, in (0, 1]; zero (or less) means the default 0.8. A pair with
	// score 0 never matches, as in the Java port.
	ArgumentMatchThreshold float64
}

// MatchMode is how ToolCallMatch compares the arguments of two calls with
// the same name. Values compare as JSON: objects regardless of key order,
// arrays in order, numbers by value (1 equals 1.0), and booleans, strings
// and null only equal to themselves (true is not 1, "1" is not 1). A call
// without arguments has the empty object.
type MatchMode uint8

const (
	// StrictMatch matches calls with equal arguments and nothing else;
	// every match scores 1.
	StrictMatch MatchMode = iota
	// FlexibleMatch scores a pair by the share of the expected call's
	// arguments that the call made has with equal values (extra arguments
	// are ignored; both without arguments scores 1; an expected call
	// without arguments against one with some scores 0.5) and matches it
	// when the score reaches the threshold. Unlike the Java port, an
	// expected null is matched by a null that is present.
	FlexibleMatch
)

var matchModeNames = [...]string{"strict", "flexible"}

// String is the mode's name as the CLI takes it: strict or flexible.
func (m MatchMode) String() string {
	if int(m) < len(matchModeNames) {
		return matchModeNames[m]
	}
	return "MatchMode(" + strconv.Itoa(int(m)) + ")"
}

// ParseMatchMode reads a mode as the CLI takes it: strict or flexible.
func ParseMatchMode(name string) (MatchMode, error) {
	for i, n := range matchModeNames {
		if n == name {
			return MatchMode(i), nil
		}
	}
	return 0, fmt.Errorf("unknown match mode %q (want strict or flexible)", name)
}

// MatchResult is how predicted calls matched reference calls.
type MatchResult struct {
	// Matched is the number of matched pairs.
	Matched int
	// Precision is Matched over the calls made, Recall Matched over the
	// calls expected (each 0 when its side is empty, as in the Java port,
	// and both 1 when both are), F1 their harmonic mean.
	Precision, Recall, F1 float64
	// Pairs has every reference and every predicted call exactly once:
	// matched pairs with their argument score, and unmatched calls with -1
	// on the other side. In any order they come by reference index, then
	// the unexpected calls by predicted index; in order they come in the
	// order of the alignment, as a diff lists lines.
	Pairs []CallPair
}

const defaultArgumentMatchThreshold = 0.8

// Name is "tool_call_match".
func (m ToolCallMatch) Name() string { return "tool_call_match" }

// Evaluate scores the sample's tool calls against its reference calls. It
// fails when the sample has no reference tool calls at all (nil, as opposed
// to an empty list).
func (m ToolCallMatch) Evaluate(_ context.Context, s agentcheck.Sample) (Result, error) {
	if s.ReferenceToolCalls == nil {
		return Result{Metric: m.Name()}, fmt.Errorf("%s needs reference_tool_calls, and the sample has none", m.Name())
	}
	return m.Compare(s.Conversation.ToolCalls(), s.ReferenceToolCalls), nil
}

// Compare scores predicted calls against reference calls: the Result's
// score is the F1 of Match, its reason gives precision and recall, and its
// pairs are Match's. No calls expected and none made scores 1 (the Java port
// gives no score); calls on one side only score 0, with ragas's warning.
func (m ToolCallMatch) Compare(predicted, reference []agentcheck.ToolCall) Result {
	mr := m.Match(predicted, reference)
	r := Result{Metric: m.Name(), Score: mr.F1, Pairs: mr.Pairs}
	switch {
	case len(predicted) == 0 && len(reference) == 0:
		r.Reason = "no tool calls expected and none made"
	case len(predicted) == 0:
		r.Warnings = []string{warnNoPredictions}
		r.Reason = fmt.Sprintf("no tool calls made, %d expected", len(reference))
	case len(reference) == 0:
		r.Warnings = []string{warnEmptyReference}
		r.Reason = fmt.Sprintf("no tool calls expected, %d made", len(predicted))
	default:
		r.Reason = fmt.Sprintf("%d of %d calls made match an expected call (precision %s), %d of %d expected calls were made (recall %s); %s",
			mr.Matched, len(predicted), formatRatio(mr.Precision), mr.Matched, len(reference), formatRatio(mr.Recall), m.describe())
	}
	return r
}

func (m ToolCallMatch) describe() string {
	s := "strict arguments"
	if m.Mode == FlexibleMatch {
		s = "flexible arguments (threshold " + strconv.FormatFloat(m.threshold(), 'g', -1, 64) + ")"
	}
	if m.Ordered {
		return s + ", in order"
	}
	return s + ", any order"
}

func (m ToolCallMatch) threshold() float64 {
	if m.ArgumentMatchThreshold <= 0 {
		return defaultArgumentMatchThreshold
	}
	return m.ArgumentMatchThreshold
}

// Match pairs predicted calls with reference calls: a maximum number of
// matched pairs and, among such pairings, the highest total argument score.
// Any order costs O(n) in StrictMatch and at worst O(n³) in FlexibleMatch
// (an assignment problem per tool name and connected group of similar
// calls); Ordered costs O(n·m).
func (m ToolCallMatch) Match(predicted, reference []agentcheck.ToolCall) MatchResult {
	var mr MatchResult
	st := newMatchState(m, predicted, reference)
	switch {
	case len(predicted) == 0 || len(reference) == 0:
		mr.Pairs = unpaired(len(reference), len(predicted))
	case m.Ordered:
		mr.Pairs = st.alignInOrder()
	default:
		if m.Mode == FlexibleMatch {
			st.matchFlexible()
		} else {
			st.matchStrict()
		}
		mr.Pairs = st.anyOrderPairs()
	}
	for _, p := range mr.Pairs {
		if p.Matched {
			mr.Matched++
		}
	}
	// The same arithmetic as the Java port, for the same doubles.
	switch {
	case len(predicted) == 0 && len(reference) == 0:
		mr.Precision, mr.Recall, mr.F1 = 1, 1, 1
		return mr
	case len(predicted) > 0 && len(reference) > 0:
		mr.Precision = float64(mr.Matched) / float64(len(predicted))
		mr.Recall = float64(mr.Matched) / float64(len(reference))
	}
	if mr.Precision+mr.Recall != 0 {
		mr.F1 = 2 * mr.Precision * mr.Recall / (mr.Precision + mr.Recall)
	}
	return mr
}

// matchState is one Match call: the calls reduced to small integers, so
// that comparing two calls is comparing ids, and the pairing found.
type matchState struct {
	flexible  bool
	threshold float64
	pred, ref []agentcheck.ToolCall
	// nameP and nameR are tool name ids; predsByName[nameStart[n]:
	// nameStart[n+1]] are the predicted calls of name n, in order.
	nameP, nameR           []int32
	nameStart, predsByName []int32
	// StrictMatch: classP and classR are ids of (name, arguments), equal
	// exactly when the calls are equal.
	classP, classR []int32
	// FlexibleMatch: argsP and argsR are each call's sorted ids of (tool
	// name, argument name, value), so that two calls share an id exactly
	// when they have the same name and an argument with equal values.
	// posting[postStart[id]:postStart[id+1]] are the predicted calls that
	// have argument id, in order: the arguments a reference call shares
	// with every predicted call are counted by walking the postings of its
	// own few ids, instead of comparing it with each call.
	argsP, argsR       [][]int32
	postStart, posting []int32
	shared, touched    []int32 // scratch of weigh
	// A matched pair weighs big + its score in units of scale (an integer,
	// so that ties are exact): big exceeds any sum of scores, so the most
	// pairs always win, and among as many pairs the highest total score.
	scale, big int64
	// refMatch is the predicted call matched to each reference call, or -1.
	refMatch []int32
}

func newMatchState(m ToolCallMatch, pred, ref []agentcheck.ToolCall) *matchState {
	st := &matchState{flexible: m.Mode == FlexibleMatch, threshold: m.threshold(), pred: pred, ref: ref}
	n := len(pred) + len(ref)
	ids := make([]int32, 2*n)
	// Small cases intern in arrays on the stack.
	var nameBuf, keyBuf, bufArray [256]byte
	var nameEnds, keyEnds [internScanMax + 1]int32
	names := interner{buf: nameBuf[:0], ends: nameEnds[:0]}
	keys := interner{buf: keyBuf[:0], ends: keyEnds[:0]}
	buf := bufArray[:0]
	for i := range pred {
		buf = append(buf[:0], pred[i].Name...)
		names, ids[i] = names.id(buf)
	}
	for i := range ref {
		buf = append(buf[:0], ref[i].Name...)
		names, ids[len(pred)+i] = names.id(buf)
	}
	st.nameP, st.nameR = ids[:len(pred)], ids[len(pred):n]
	st.predsByName, st.nameStart = groupBy(st.nameP, names.len())
	nan := 0
	if !st.flexible {
		for i := range pred {
			buf = appendCallKey(buf[:0], pred[i], &nan)
			keys, ids[n+i] = keys.id(buf)
		}
		for i := range ref {
			buf = appendCallKey(buf[:0], ref[i], &nan)
			keys, ids[n+len(pred)+i] = keys.id(buf)
		}
		st.classP, st.classR = ids[n:n+len(pred)], ids[n+len(pred):]
		st.scale, st.big = 1, 1
		return st
	}
	// One backing array for every call's argument ids.
	total := 0
	for _, set := range [][]agentcheck.ToolCall{pred, ref} {
		for i := range set {
			total += max(set[i].Args.Len(), 1)
		}
	}
	flat := make([]int32, 0, total)
	lists := make([][]int32, n)
	for i := range lists {
		var args agentcheck.Value
		if i < len(pred) {
			args = pred[i].Args
		} else {
			args = ref[i-len(pred)].Args
		}
		start := len(flat)
		name := strconv.AppendInt(buf[:0], int64(ids[i]), 10)
		name = append(name, '|')
		switch args.Kind() {
		case agentcheck.NullKind:
		case agentcheck.ObjectKind:
			members := args.Members()
			for j := range members {
				mem := &members[j]
				buf = strconv.AppendInt(name, int64(len(mem.Key)), 10)
				buf = append(buf, ':')
				buf = append(buf, mem.Key...)
				buf = agentcheck.AppendCanonical(buf, mem.Value, &nan)
				var id int32
				keys, id = keys.id(buf)
				flat = append(flat, id)
			}
		default:
			// Arguments that are not an object (which ParseToolCall
			// refuses) are one argument that matches only as a whole.
			buf = agentcheck.AppendCanonical(append(name, '!'), args, &nan)
			var id int32
			keys, id = keys.id(buf)
			flat = append(flat, id)
		}
		lists[i] = flat[start:len(flat):len(flat)]
		slices.Sort(lists[i])
	}
	st.argsP, st.argsR = lists[:len(pred)], lists[len(pred):]
	// The postings, by counting sort of the predicted calls' ids.
	nKeys := keys.len()
	st.postStart = make([]int32, nKeys+1)
	for _, l := range st.argsP {
		for _, id := range l {
			st.postStart[id+1]++
		}
	}
	for i := 1; i < len(st.postStart); i++ {
		st.postStart[i] += st.postStart[i-1]
	}
	st.posting = make([]int32, st.postStart[nKeys])
	fill := slices.Clone(st.postStart[:nKeys])
	for p, l := range st.argsP {
		for _, id := range l {
			st.posting[fill[id]] = int32(p)
			fill[id]++
		}
	}
	st.shared = make([]int32, len(pred))
	st.setScale()
	return st
}

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

// id returns the id of key, and the interner that knows it. It works on
// and returns a copy so that the interner's first storage can stay on the
// caller's stack (a store through a pointer would move it to the heap).
func (in interner) id(key []byte) (interner, int32) {
	if in.ids != nil {
		if id, ok := in.ids[string(key)]; ok {
			return in, id
		}
		id := int32(len(in.ids))
		in.ids[string(key)] = id
		return in, id
	}
	start := int32(0)
	for i, end := range in.ends {
		if string(in.buf[start:end]) == string(key) {
			return in, int32(i)
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
	return in, int32(len(in.ends) - 1)
}

// len is the number of keys.
func (in interner) len() int {
	if in.ids != nil {
		return len(in.ids)
	}
	return len(in.ends)
}

// groupBy sorts the indexes of keys (small ints below n) by key, stably:
// order[start[k]:start[k+1]] are the indexes with key k.
func groupBy(keys []int32, n int) (order, start []int32) {
	all := make([]int32, len(keys)+2*n+1)
	order, start, fill := all[:len(keys)], all[len(keys):len(keys)+n+1], all[len(keys)+n+1:]
	for _, k := range keys {
		start[k+1]++
	}
	for i := 1; i <= n; i++ {
		start[i] += start[i-1]
	}
	copy(fill, start)
	for i, k := range keys {
		order[fill[k]] = int32(i)
		fill[k]++
	}
	return order, start
}

func (st *matchState) predsNamed(name int32) []int32 {
	return st.predsByName[st.nameStart[name]:st.nameStart[name+1]]
}

// setScale picks the integer unit of scores: the least common multiple of
// the reference calls' argument counts (and 2, for the score 0.5), so that
// every score is a whole number of units, unless that exceeds what int64
// sums can hold, in which case scores are rounded to the unit.
func (st *matchState) setScale() {
	st.big = int64(min(len(st.pred), len(st.ref))) + 1
	limit := int64(1<<52) / st.big
	scale := int64(2)
	for _, a := range st.argsR {
		b := int64(len(a))
		if b == 0 {
			continue
		}
		x, y := scale, b
		for y != 0 {
			x, y = y, x%y
		}
		if scale/x > limit/b {
			scale = limit
			break
		}
		scale = scale / x * b
	}
	st.scale = scale
	st.big *= scale
}

// flexibleUnits is a FlexibleMatch score, shared of b arguments, in units.
func (st *matchState) flexibleUnits(shared, b int) int64 {
	return (int64(shared)*st.scale + int64(b)/2) / int64(b)
}

// emptyRefScore is the FlexibleMatch score against a reference call without
// arguments: 1 if the predicted call has none either, else 0.5, and 0 if its
// arguments are not valid JSON.
func (st *matchState) emptyRefScore(p int) (float64, int64) {
	if st.pred[p].InvalidArgs != "" {
		return 0, 0
	}
	if len(st.argsP[p]) == 0 {
		return 1, st.scale
	}
	return 0.5, st.scale / 2
}

// pair compares predicted call p with reference call r, which have the
// same name: their score, and the weight of the pair if it matches (0 if
// it does not). weigh computes the same weights for many calls at once.
func (st *matchState) pair(p, r int) (score float64, weight int64) {
	if !st.flexible {
		if st.classP[p] == st.classR[r] {
			return 1, st.big + 1
		}
		return 0, 0
	}
	if st.ref[r].InvalidArgs != "" {
		return 0, 0
	}
	pa, ra := st.argsP[p], st.argsR[r]
	var units int64
	if len(ra) == 0 {
		score, units = st.emptyRefScore(p)
	} else {
		// Both lists are sorted, so their common ids are a merge away.
		shared, i, j := 0, 0, 0
		for i < len(pa) && j < len(ra) {
			switch {
			case pa[i] < ra[j]:
				i++
			case pa[i] > ra[j]:
				j++
			default:
				shared++
				i++
				j++
			}
		}
		score = float64(shared) / float64(len(ra))
		units = st.flexibleUnits(shared, len(ra))
	}
	if score == 0 || score < st.threshold {
		return score, 0
	}
	return score, st.big + units
}

// weigh sets w[at[p]] (w[p] if at is nil) to the weight of every predicted
// call p that matches reference call r, and leaves the rest of w alone.
func (st *matchState) weigh(r int, w []int64, at []int32) {
	set := func(p int32, weight int64) {
		if at != nil {
			p = at[p]
		}
		w[p] = weight
	}
	if !st.flexible {
		for _, p := range st.predsNamed(st.nameR[r]) {
			if st.classP[p] == st.classR[r] {
				set(p, st.big+1)
			}
		}
		return
	}
	if st.ref[r].InvalidArgs != "" {
		return
	}
	ra := st.argsR[r]
	b := len(ra)
	if b == 0 {
		for _, p := range st.predsNamed(st.nameR[r]) {
			if score, units := st.emptyRefScore(int(p)); score >= st.threshold {
				set(p, st.big+units)
			}
		}
		return
	}
	// need is the fewest shared arguments that reach the threshold,
	// found with the same division pair uses.
	need := b + 1
	for s := b; s >= 1 && float64(s)/float64(b) >= st.threshold; s-- {
		need = s
	}
	if need > b {
		return
	}
	touched := st.touched[:0]
	for _, id := range ra {
		for _, p := range st.posting[st.postStart[id]:st.postStart[id+1]] {
			if st.shared[p] == 0 {
				touched = append(touched, p)
			}
			st.shared[p]++
		}
	}
	for _, p := range touched {
		if s := int(st.shared[p]); s >= need {
			set(p, st.big+st.flexibleUnits(s, b))
		}
		st.shared[p] = 0
	}
	st.touched = touched
}

// appendCallKey writes a key equal for two calls exactly when they have the
// same name and equal arguments (see agentcheck.Equal); no arguments at all
// are the empty object. Arguments that are not valid JSON (InvalidArgs)
// equal nothing: their key is '?' and a number of its own, counted in nan,
// where no arguments' key starts with '?'.
func appendCallKey(b []byte, tc agentcheck.ToolCall, nan *int) []byte {
	b = strconv.AppendInt(b, int64(len(tc.Name)), 10)
	b = append(b, ':')
	b = append(b, tc.Name...)
	if tc.InvalidArgs != "" {
		*nan++
		return strconv.AppendInt(append(b, '?'), int64(*nan), 10)
	}
	args := tc.Args
	if args.Kind() == agentcheck.NullKind {
		args = emptyObject
	}
	return agentcheck.AppendCanonical(b, args, nan)
}

var emptyObject = agentcheck.ObjectOf()
