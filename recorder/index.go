package recorder

import (
	"github.com/agentcheck/agentcheck/internal/vcr"
)

// group is the interactions that answer one request, in the order they
// were recorded; used counts those this run has consumed.
type group struct {
	req   request
	its   []*vcr.Interaction
	used  int
	canon string // req.canonical(), computed when first needed
}

func (g *group) canonical() string {
	if g.canon == "" {
		g.canon = g.req.canonical()
	}
	return g.canon
}

type labelledKey struct{ label, key string }

// index finds a request's next interaction: by the request's exact bytes (a
// map access: a client sends what it sent when recording), else by its
// canonical form. The canonical index is built on the first request the
// exact one does not answer, so that opening a large cassette costs no
// canonicalization of its bodies.
type index struct {
	exact  map[exactKey]*group
	groups []*group
	canon  map[labelledKey][]*group // nil until needed
	any    map[string][]*group      // by canonical key alone, whatever the case
	labels map[string]bool          // the cases the interactions belong to
}

func newIndex() *index {
	return &index{exact: make(map[exactKey]*group), labels: make(map[string]bool)}
}

// add appends it to the interactions that answer q.
func (x *index) add(q request, it *vcr.Interaction) *group {
	g := x.exact[exactKey(q)]
	if g == nil {
		g = &group{req: q}
		x.exact[exactKey(q)] = g
		x.groups = append(x.groups, g)
		x.labels[q.label] = true
		if x.canon != nil {
			k := labelledKey{q.label, g.canonical()}
			x.canon[k] = append(x.canon[k], g)
			x.any[k.key] = append(x.any[k.key], g)
		}
	}
	g.its = append(g.its, it)
	return g
}

func (x *index) buildCanonical() {
	if x.canon != nil {
		return
	}
	x.canon = make(map[labelledKey][]*group, len(x.groups))
	x.any = make(map[string][]*group, len(x.groups))
	for _, g := range x.groups {
		k := labelledKey{g.req.label, g.canonical()}
		x.canon[k] = append(x.canon[k], g)
		x.any[k.key] = append(x.any[k.key], g)
	}
}

// next consumes and returns q's next interaction, nil when none is left.
// A request of a case the cassette does not know (a sample that moved, a
// cassette recorded without cases), or of no case, takes the next
// interaction recorded for the request in any case.
func (x *index) next(q request) *vcr.Interaction {
	if it := x.nextOf(q); it != nil || x.labels[q.label] {
		return it
	}
	x.buildCanonical()
	for _, g := range x.any[q.canonical()] {
		if g.used < len(g.its) {
			g.used++
			return g.its[g.used-1]
		}
	}
	return nil
}

func (x *index) nextOf(q request) *vcr.Interaction {
	if g := x.exact[exactKey(q)]; g != nil && g.used < len(g.its) {
		g.used++
		return g.its[g.used-1]
	}
	x.buildCanonical()
	for _, g := range x.canon[labelledKey{q.label, q.canonical()}] {
		if g.used < len(g.its) {
			g.used++
			return g.its[g.used-1]
		}
	}
	return nil
}

// matching is how many interactions the cassette holds for q's canonical
// form, and how many this run consumed.
func (x *index) matching(q request) (recorded, used int) {
	x.buildCanonical()
	for _, g := range x.canon[labelledKey{q.label, q.canonical()}] {
		recorded += len(g.its)
		used += g.used
	}
	return recorded, used
}

// used is the interactions this run consumed, recorded ones included.
func (x *index) usedInteractions() []*vcr.Interaction {
	var out []*vcr.Interaction
	for _, g := range x.groups {
		out = append(out, g.its[:g.used]...)
	}
	return out
}
