package trajectory

// The scorings that credit pairs: ScoreRecall, ScorePartialArgs and ScoreF1.

import (
	"math"

	"github.com/agentcheck/agentcheck/jsonvalue"
)

// creditOf is what made call i earns against expected call j: 0 for
// another tool, else 1 or 0 by matches, or with partial the share of
// arguments that agree (ArgsCredit).
func (c *compiled) creditOf(i, j int, partial bool) float64 {
	mk, ek := &c.mk[i], &c.ek[j]
	if mk.tool != ek.tool {
		return 0
	}
	if !partial || mk.cmp != nil || mk.mode != ArgsExact || mk.invalid || ek.invalid {
		return b2f(c.matches(i, j))
	}
	var eq *Equivalence
	if !c.m.Values.zero() {
		eq = &c.m.Values
	}
	if !mk.object || !ek.object || eq != nil && eq.Tolerance != 0 {
		a, e := &c.made[i], &c.exp[j]
		aa, ea := a.Args, e.Args
		if ign := c.m.ignoredFor(a.Name); len(ign) > 0 {
			aa, ea = prune(aa, ign), prune(ea, ign)
		}
		return argsCredit(aa, ea, eq)
	}
	// Over the union of the members' keys, by their ids: equal values earn
	// 1, two objects their own credit.
	union, sum := len(mk.members)+len(ek.members), 0.0
	x := 0
	for _, em := range ek.members {
		for x < len(mk.members) && mk.members[x].key < em.key {
			x++
		}
		if x == len(mk.members) || mk.members[x].key != em.key {
			continue
		}
		union--
		am := &mk.members[x]
		switch {
		case am.value == em.value:
			sum++
		case am.v.Kind() == jsonvalue.ObjectKind && em.v.Kind() == jsonvalue.ObjectKind:
			sum += argsCredit(am.v, em.v, eq)
		}
	}
	if union == 0 {
		return 1
	}
	return sum / float64(union)
}

// creditScale turns credits into the integer weights of the pairings.
const creditScale = 1 << 20

func units(x float64) int64 { return int64(math.Round(x * creditScale)) }

// credit scores ScoreRecall and ScorePartialArgs: the pairing that earns
// most (position by position for Strict, in order for InOrder), its total
// over the number of calls the mode answers for: the expected calls
// (Superset, InOrder), the calls made (Subset), or the larger of the two
// (Strict, Unordered).
func (c *compiled) credit(mode Mode, partial bool) ([]Pair, float64) {
	nm, ne := len(c.made), len(c.exp)
	var denom int
	switch mode {
	case Superset, InOrder:
		denom = ne
	case Subset:
		denom = nm
	default:
		denom = max(nm, ne)
	}
	var pairs []Pair
	switch {
	case mode == Strict:
		for k := range max(nm, ne) {
			switch {
			case k >= nm:
				pairs = append(pairs, Pair{Made: -1, Expected: k})
			case k >= ne:
				pairs = append(pairs, Pair{Made: k, Expected: -1})
			default:
				pairs = append(pairs, Pair{Made: k, Expected: k})
			}
		}
	case !partial && mode != InOrder:
		// Credits of 1 or 0: the most pairs that match.
		pairs, _ = c.run(mode, 0, nm, 0, ne)
	case mode == InOrder:
		pairs = alignTrimmed(nm, ne, creditScale, func(i, j int) (int64, bool) {
			w := units(c.creditOf(i, j, partial))
			return w, w > 0
		}, nil)
	default:
		toolM, toolE := c.toolIDs()
		pairs = anyOrderPairs(nm, anyOrder(nm, ne, toolM, toolE, c.tools.len(), func(i, j int) int64 {
			return units(c.creditOf(i, j, true))
		}, nil))
	}
	total := 0.0
	for k := range pairs {
		p := &pairs[k]
		if p.Made >= 0 && p.Expected >= 0 {
			x := c.creditOf(p.Made, p.Expected, partial)
			p.Credit, p.Match = x, x == 1
			total += x
		}
	}
	if denom == 0 {
		return pairs, 1
	}
	return pairs, total / float64(denom)
}

func (c *compiled) toolIDs() (made, expected []int32) {
	made, expected = make([]int32, len(c.mk)), make([]int32, len(c.ek))
	for i := range c.mk {
		made[i] = c.mk[i].tool
	}
	for j := range c.ek {
		expected[j] = c.ek[j].tool
	}
	return made, expected
}

// f1Pairs pairs for ScoreF1: the most pairs that match and, among such
// pairings, the most credit (the shares of arguments with Threshold), in
// order for Strict and InOrder. Pairs that do not match are not made.
func (c *compiled) f1Pairs(mode Mode) []Pair {
	nm, ne := len(c.made), len(c.exp)
	flexible := c.m.Threshold > 0
	creditOf := func(i, j int) float64 {
		if flexible {
			return c.share(i, j)
		}
		return 1
	}
	big := int64(min(nm, ne)+1) * creditScale
	weight := func(i, j int) int64 {
		switch {
		case c.mk[i].tool != c.ek[j].tool:
			return 0
		case flexible:
			// matches, with the share computed once.
			if x := c.share(i, j); x > 0 && x >= c.m.Threshold {
				return big + units(x)
			}
			return 0
		case c.matches(i, j):
			return big + creditScale
		}
		return 0
	}
	var rows row
	if flexible && c.m.Values.Tolerance == 0 && nm*ne > 256 {
		// Postings pay off on many calls only.
		rows = func(j int, w []int64) { c.shareRow(j, big, w) }
	}
	var pairs []Pair
	switch {
	case nm == 0 || ne == 0:
		pairs = anyOrderPairs(nm, anyOrder(nm, ne, nil, nil, 0, nil, nil))
	case mode == Strict || mode == InOrder:
		pairs = alignTrimmed(nm, ne, big+creditScale, func(i, j int) (int64, bool) {
			w := weight(i, j)
			return w, w > 0
		}, rows)
	case c.equivalence:
		pairs = anyOrderPairs(nm, c.maxPairs(0, nm, 0, ne))
	default:
		toolM, toolE := c.toolIDs()
		pairs = anyOrderPairs(nm, anyOrder(nm, ne, toolM, toolE, c.tools.len(), weight, rows))
	}
	for k := range pairs {
		p := &pairs[k]
		if p.Made >= 0 && p.Expected >= 0 {
			p.Match, p.Credit = true, creditOf(p.Made, p.Expected)
		}
	}
	return pairs
}

// shareRow sets w[i] to the ScoreF1 weight with a Threshold of every call
// made i against expected call j, big plus its share of j's arguments
// where the pair matches, else noPair. The arguments j shares with each
// call are counted by walking the postings of j's own few arguments (the
// calls made that have each, with its value), instead of comparing j with
// every call.
func (c *compiled) shareRow(j int, big int64, w []int64) {
	for i := range w {
		w[i] = noPair
	}
	ek := &c.ek[j]
	set := func(i int, x float64) {
		if x > 0 && x >= c.m.Threshold {
			w[i] = big + units(x)
		}
	}
	if ek.invalid || !ek.object || len(ek.members) == 0 {
		for i := range c.mk {
			if c.mk[i].tool == ek.tool {
				set(i, c.share(i, j))
			}
		}
		return
	}
	if c.postings == nil {
		c.postings = make(map[int64][]int32)
		for i := range c.mk {
			mk := &c.mk[i]
			if mk.invalid || !mk.object {
				continue
			}
			for _, m := range mk.members {
				k := int64(m.key)<<32 | int64(m.value)
				c.postings[k] = append(c.postings[k], int32(i))
			}
		}
		c.shared = make([]int32, len(c.mk))
	}
	touched := c.touched[:0]
	for _, em := range ek.members {
		for _, i := range c.postings[int64(em.key)<<32|int64(em.value)] {
			if c.mk[i].tool != ek.tool {
				continue
			}
			if c.shared[i] == 0 {
				touched = append(touched, i)
			}
			c.shared[i]++
		}
	}
	for _, i := range touched {
		set(int(i), float64(c.shared[i])/float64(len(ek.members)))
		c.shared[i] = 0
	}
	c.touched = touched
}
