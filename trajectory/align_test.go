package trajectory_test

import (
	"math/rand/v2"
	"testing"

	"github.com/agentcheck/agentcheck/trajectory"
)

// grid is a Comparer given as a table: cmp[j][i] compares made call i with
// expected call j.
type grid [][]trajectory.Comparison

func (g grid) Compare(i, j int) trajectory.Comparison { return g[j][i] }

var (
	match = trajectory.Comparison{Match: true, SameTool: true}
	near  = func(d float64) trajectory.Comparison { return trajectory.Comparison{SameTool: true, Distance: d} }
	other = trajectory.Comparison{}
)

// TestAlignReportPairs: the report pairing. An expected call that matches
// nothing pairs with the closest call of its tool left; Strict pairs calls
// of other tools rather than leave two gaps; InOrder and the other modes
// never pair other tools.
func TestAlignReportPairs(t *testing.T) {
	for _, tt := range []struct {
		name  string
		mode  trajectory.Mode
		cmp   grid
		made  int
		pairs []trajectory.Pair
		ok    bool
	}{
		{"strict: another tool in place", trajectory.Strict, grid{{other}}, 1,
			[]trajectory.Pair{{Made: 0, Expected: 0}}, false},
		{"in order: another tool is no pair", trajectory.InOrder, grid{{other}}, 1,
			[]trajectory.Pair{{Made: -1, Expected: 0}, {Made: 0, Expected: -1}}, false},
		{"superset: the closest near miss", trajectory.Superset, grid{{near(0.9), near(0.1), other}}, 3,
			[]trajectory.Pair{{Made: 1, Expected: 0}, {Made: 0, Expected: -1}, {Made: 2, Expected: -1}}, false},
		{"unordered: a match before a near miss", trajectory.Unordered, grid{{near(0), match}, {match, other}}, 2,
			[]trajectory.Pair{{Made: 1, Expected: 0, Match: true, Credit: 1}, {Made: 0, Expected: 1, Match: true, Credit: 1}}, true},
		{"subset: the optimal pairing, not the first fit", trajectory.Subset, grid{{match, match}, {match, other}}, 2,
			[]trajectory.Pair{{Made: 1, Expected: 0, Match: true, Credit: 1}, {Made: 0, Expected: 1, Match: true, Credit: 1}}, true},
		{"in order: the earliest call that serves", trajectory.InOrder, grid{{match, match}}, 2,
			[]trajectory.Pair{{Made: 0, Expected: 0, Match: true, Credit: 1}, {Made: 1, Expected: -1}}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := trajectory.Align(tt.mode, tt.made, len(tt.cmp), tt.cmp)
			if a.OK != tt.ok || len(a.Pairs) != len(tt.pairs) {
				t.Fatalf("Expected verdict %v with pairs %v, but got %v with %v", tt.ok, tt.pairs, a.OK, a.Pairs)
			}
			for k := range a.Pairs {
				if a.Pairs[k] != tt.pairs[k] {
					t.Fatalf("Expected pairs %v, but got %v", tt.pairs, a.Pairs)
				}
			}
		})
	}
}

// TestAlignVerdicts: on random tables of matches, Align's verdict and
// number of matches are those of trying every pairing, in every mode.
func TestAlignVerdicts(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 18))
	for range 3000 {
		nm, ne := r.IntN(6), r.IntN(6)
		g := make(grid, ne)
		for j := range g {
			g[j] = make([]trajectory.Comparison, nm)
			for i := range g[j] {
				switch r.IntN(4) {
				case 0:
					g[j][i] = match
				case 1:
					g[j][i] = near(r.Float64())
				}
			}
		}
		best := func(inOrder bool) int {
			used := make([]bool, nm)
			most := 0
			var walk func(j, last, n int)
			walk = func(j, last, n int) {
				if j == ne {
					most = max(most, n)
					return
				}
				walk(j+1, last, n)
				for i := range nm {
					if !used[i] && g[j][i].Match && (!inOrder || i > last) {
						used[i] = true
						walk(j+1, i, n+1)
						used[i] = false
					}
				}
			}
			walk(0, -1, 0)
			return most
		}
		anyN, ordN := best(false), best(true)
		strictN := 0
		for k := range min(nm, ne) {
			if g[k][k].Match {
				strictN++
			}
		}
		for mode, want := range map[trajectory.Mode]bool{
			trajectory.Strict:    nm == ne && strictN == ne,
			trajectory.InOrder:   ordN == ne,
			trajectory.Unordered: nm == ne && anyN == ne,
			trajectory.Subset:    anyN == nm,
			trajectory.Superset:  anyN == ne,
		} {
			a := trajectory.Align(mode, nm, ne, g)
			wantN := anyN
			if mode == trajectory.InOrder || mode == trajectory.Strict && want {
				wantN = ordN
			}
			if a.OK != want || mode != trajectory.Strict && a.Matched != wantN {
				t.Fatalf("%s on %v (%d made): verdict %v with %d matched, want %v with %d", mode, g, nm, a.OK, a.Matched, want, wantN)
			}
			seenM, seenE := make([]int, nm), make([]int, ne)
			for _, p := range a.Pairs {
				if p.Made >= 0 {
					seenM[p.Made]++
				}
				if p.Expected >= 0 {
					seenE[p.Expected]++
				}
				if p.Match != (p.Made >= 0 && p.Expected >= 0 && g[p.Expected][p.Made].Match) {
					t.Fatalf("%s: pair %+v is marked wrong", mode, p)
				}
			}
			for _, n := range append(seenM, seenE...) {
				if n != 1 {
					t.Fatalf("%s: pairs %v do not list every call once", mode, a.Pairs)
				}
			}
		}
	}
}
