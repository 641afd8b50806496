// The property test of issue 18: every front end of the trajectory engine
// gives the same verdict for the same expectation.

package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/agenttest"
	"github.com/agentcheck/agentcheck/agenttest/assert"
	"github.com/agentcheck/agentcheck/agenttest/require"
	"github.com/agentcheck/agentcheck/dataset"
	"github.com/agentcheck/agentcheck/jsonvalue"
	"github.com/agentcheck/agentcheck/matchers"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/trajectory"
	"github.com/onsi/gomega/types"
)

// feCall is a random tool call: one of two tools, of a random kind, with
// arguments drawn from few keys and values (1 and 1.0, strings, a nested
// object, an array), sometimes none, sometimes not an object, sometimes
// not valid JSON.
func feCall(r *rand.Rand, valid bool) agentcheck.ToolCall {
	values := []string{`1`, `1.0`, `2`, `"x"`, `"X"`, `null`, `true`, `{"p":1,"q":[1,2]}`, `{"q":[1,2],"p":1.0}`, `[1,2]`}
	c := agentcheck.ToolCall{Name: []string{"f", "g"}[r.IntN(2)], Kind: []agentcheck.ToolKind{agentcheck.FunctionTool, agentcheck.FunctionTool, agentcheck.MCPTool, agentcheck.HostedTool}[r.IntN(4)]}
	switch k := r.IntN(12); {
	case k == 0 && !valid:
		c.InvalidArgs = `{"a": 1`
		return c
	case k == 1 && !valid:
		c.Args = jsonvalue.MustParse(`[1,2]`)
		return c
	case k == 2:
		return c // no arguments
	}
	var members []string
	for _, key := range []string{"a", "b", "c"} {
		if r.IntN(2) == 0 {
			members = append(members, fmt.Sprintf("%q:%s", key, values[r.IntN(len(values))]))
		}
	}
	c.Args = jsonvalue.MustParse("{" + strings.Join(members, ",") + "}")
	return c
}

// feTranscript is a random pair of trajectories: the calls made (with
// duplicates, and often the expected calls again in another order or with
// another kind) and the expected calls.
func feTranscript(r *rand.Rand) (made, expected []agentcheck.ToolCall) {
	for range r.IntN(5) {
		expected = append(expected, feCall(r, true))
	}
	switch r.IntN(3) {
	case 0:
		for range r.IntN(6) {
			made = append(made, feCall(r, false))
		}
	default:
		// The expected calls, some dropped, some repeated, some changed,
		// kinds changed, and shuffled or not.
		for _, c := range expected {
			switch r.IntN(6) {
			case 0:
				continue
			case 1:
				made = append(made, c, c)
			case 2:
				made = append(made, feCall(r, false))
			case 3:
				c.Kind = agentcheck.MCPTool
				made = append(made, c)
			default:
				made = append(made, c)
			}
		}
		if r.IntN(2) == 0 {
			r.Shuffle(len(made), func(i, j int) { made[i], made[j] = made[j], made[i] })
		}
		if r.IntN(3) == 0 {
			made = append(made, feCall(r, false))
		}
	}
	return made, expected
}

// feExpectation is agenttest's form of an expected call under args:
// CallTo(name), With its arguments, allowing missing or extra ones; with
// kinds, OfKind its kind.
func feExpectation(c agentcheck.ToolCall, args trajectory.ArgsMode, kinds bool) agenttest.ExpectedCall {
	e := agenttest.CallTo(c.Name)
	if kinds {
		e = e.OfKind(c.Kind)
	}
	if args == trajectory.ArgsIgnore {
		return e
	}
	want := agenttest.Args{}
	for _, m := range c.Args.Members() {
		want[m.Key] = m.Value
	}
	e = e.With(want)
	switch args {
	case trajectory.ArgsSubset:
		e = e.AllowingMissingArgs()
	case trajectory.ArgsSuperset:
		e = e.AllowingExtraArgs()
	}
	return e
}

// feT is a test for assert and require that only records.
type feT struct{ failed, stopped bool }

func (t *feT) Errorf(string, ...any) { t.failed = true }
func (t *feT) FailNow()              { t.stopped = true }

var feMatchers = map[trajectory.Mode]func(...agenttest.ExpectedCall) types.GomegaMatcher{
	trajectory.Strict:    matchers.HaveToolCalls,
	trajectory.InOrder:   matchers.HaveToolCallsInOrder,
	trajectory.Unordered: matchers.ConsistOfToolCalls,
	trajectory.Subset:    matchers.HaveToolCallsAmong,
	trajectory.Superset:  matchers.ContainToolCalls,
}

// TestFrontEndsAgree: over random transcripts with kinds, unparseable
// arguments, arguments that are not objects, and duplicates, in every mode
// and argument mode, agenttest.CheckToolCalls, the Gomega matcher of the
// mode, assert.ToolCalls, require.ToolCalls, metric.TrajectoryMatch and the
// CLI's scoring of trajectory_match (its flags parsed, its scorer run) give
// the same verdict. With kinds counted (ExpectedCall.OfKind each, and
// Match.Kinds), the Go front ends agree too.
//
// The 150 transcripts are drawn first, then checked in four parallel
// parts, each with front ends of its own.
func TestFrontEndsAgree(t *testing.T) {
	t.Parallel() // slow: it overlaps the package's other slow tests
	r := rand.New(rand.NewPCG(18, 2026))
	var made, expected [150][]agentcheck.ToolCall
	for i := range made {
		made[i], expected[i] = feTranscript(r)
	}
	const parts = 4
	var fes [parts]*frontEnds
	t.Run("parts", func(t *testing.T) {
		for p := range parts {
			t.Run(fmt.Sprint(p), func(t *testing.T) {
				t.Parallel()
				fes[p] = newFrontEnds(t)
				for i := p; i < len(made); i += parts {
					fes[p].check(t, made[i], expected[i])
				}
			})
		}
	})
	cases, passed := 0, 0
	for _, fe := range fes {
		if fe != nil {
			cases, passed = cases+fe.cases, passed+fe.passed
		}
	}
	// The cases must go both ways for the agreement to mean anything.
	if passed < cases/10 || passed > cases*9/10 {
		t.Errorf("%d of %d cases pass: the random transcripts are too one-sided", passed, cases)
	}
	t.Logf("%d cases, %d pass", cases, passed)
}

// FuzzFrontEndsAgree is TestFrontEndsAgree with the transcripts drawn from
// the fuzzer's seeds.
func FuzzFrontEndsAgree(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Add(uint64(18), uint64(2026))
	f.Fuzz(func(t *testing.T, a, b uint64) {
		made, expected := feTranscript(rand.New(rand.NewPCG(a, b)))
		newFrontEnds(t).check(t, made, expected)
	})
}

// frontEnds runs every front end; the CLI's scorers are made once per mode.
type frontEnds struct {
	scorers       map[[2]string]*scorer
	cases, passed int
}

func newFrontEnds(t *testing.T) *frontEnds {
	fe := &frontEnds{scorers: map[[2]string]*scorer{}}
	for _, mode := range feModes {
		for _, args := range feArgModes {
			key := [2]string{mode.String(), args.String()}
			cfg, _, err := parseEvalFlags([]string{"--metrics", "trajectory_match", "--trajectory-mode", key[0], "--args-mode", key[1], "-"})
			if err != nil {
				t.Fatal(err)
			}
			if err := cfg.buildMetrics(nil); err != nil {
				t.Fatal(err)
			}
			fe.scorers[key] = newScorer(context.Background(), cfg)
		}
	}
	return fe
}

var (
	feModes    = []trajectory.Mode{trajectory.Strict, trajectory.InOrder, trajectory.Unordered, trajectory.Subset, trajectory.Superset}
	feArgModes = []trajectory.ArgsMode{trajectory.ArgsExact, trajectory.ArgsIgnore, trajectory.ArgsSubset, trajectory.ArgsSuperset}
)

// check fails t unless every front end gives agenttest's verdict on made
// against expected, in every mode and argument mode, kinds counted or not.
func (fe *frontEnds) check(t *testing.T, made, expected []agentcheck.ToolCall) {
	t.Helper()
	sample := agentcheck.Sample{Conversation: agentcheck.Conversation{{Role: agentcheck.AI, ToolCalls: made}}, ReferenceToolCalls: expected}
	for _, mode := range feModes {
		for _, args := range feArgModes {
			for _, kinds := range []bool{false, true} {
				exps := make([]agenttest.ExpectedCall, len(expected))
				for j, c := range expected {
					exps[j] = feExpectation(c, args, kinds)
				}
				verdicts := map[string]bool{}
				rep := agenttest.CheckToolCalls(made, mode, exps...)
				ok, err := feMatchers[mode](exps...).Match(made)
				if err != nil {
					t.Fatal(err)
				}
				verdicts["matchers"] = ok
				var at, rt feT
				verdicts["assert.ToolCalls"] = assert.ToolCalls(&at, made, mode, exps)
				if at.failed == verdicts["assert.ToolCalls"] {
					t.Fatalf("assert.ToolCalls returned %v but failed the test: %v", verdicts["assert.ToolCalls"], at.failed)
				}
				require.ToolCalls(&rt, made, mode, exps)
				verdicts["require.ToolCalls"] = !rt.stopped
				m := metric.TrajectoryMatch{Mode: mode, Args: args, Kinds: kinds}
				verdicts["metric.TrajectoryMatch"] = m.Compare(made, expected).Score == 1
				if !kinds {
					sc := fe.scorers[[2]string{mode.String(), args.String()}]
					s := sample
					if _, err := sc.evaluate(dataset.Record{File: "random"}, &s, nil); err != nil {
						t.Fatal(err)
					}
					verdicts["agentcheck eval"] = sc.scores[0] == 1
				}
				fe.cases++
				if rep.OK() {
					fe.passed++
				}
				for name, v := range verdicts {
					if v != rep.OK() {
						t.Fatalf("%s, arguments %s, kinds %v: %s says %v, agenttest.CheckToolCalls %v\nmade     %v\nexpected %v\n%s\n%s",
							mode, args, kinds, name, v, rep.OK(), made, expected, rep, m.Compare(made, expected).Reason)
					}
				}
			}
		}
	}
}
