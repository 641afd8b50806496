package evalsuite

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck/baseline"
	"github.com/agentcheck/agentcheck/internal/shard"
	"github.com/agentcheck/agentcheck/judge"
	"github.com/agentcheck/agentcheck/judge/judgetest"
	"github.com/agentcheck/agentcheck/metric"
)

// AGENTCHECK_SHARD=K/N runs shard K of N of the cases: over random suites
// (cases with IDs and without) and N, the shards' cases are disjoint and
// together every case, each shard says how many it ran, and its gates and
// result are over its own cases.
func TestShardRunsItsSliceOfTheCases(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	for trial := range 20 {
		var cases []Case
		for i := range rng.IntN(40) {
			c := Case{Sample: right()}
			if rng.IntN(3) > 0 {
				c.ID = "case-" + strconv.Itoa(trial) + "-" + strconv.Itoa(i)
			}
			cases = append(cases, c)
		}
		bad := -1 // the one case that scores 0, failing its shard's gate
		if len(cases) > 0 {
			bad = rng.IntN(len(cases))
			cases[bad].Sample = wrong()
		}
		n := 1 + rng.IntN(5)
		ran := map[string]int{}
		for k := 1; k <= n; k++ {
			t.Setenv(ShardEnv, fmt.Sprintf("%d/%d", k, n))
			ft := &fakeT{}
			res := Run(ft, Suite{Checks: twoChecks(), Gates: []Gate{MeanAtLeast("tool_call_accuracy", 1)}}, cases)
			if holds := bad >= 0 && shard.Of(cases[bad].ID, bad, n) == k; ft.failed != holds {
				t.Fatalf("trial %d, shard %d/%d: failed %v, but it holds the case that fails the gate: %v (%q)", trial, k, n, ft.failed, holds, ft.errs)
			}
			if len(res.Cases) != len(ft.subs) {
				t.Fatalf("trial %d, shard %d/%d: %d subtests but %d cases in the result", trial, k, n, len(ft.subs), len(res.Cases))
			}
			for _, sub := range ft.subs {
				if was, dup := ran[sub.name]; dup {
					t.Fatalf("trial %d: case %q ran in shards %d/%d and %d/%d", trial, sub.name, was, n, k, n)
				}
				ran[sub.name] = k
			}
			want := fmt.Sprintf("AGENTCHECK_SHARD=%d/%d: ran %d of the %d cases; the other shards run the rest", k, n, len(res.Cases), len(cases))
			if !strings.Contains(strings.Join(ft.logs, "\n"), want) {
				t.Errorf("trial %d: Expected the log to say %q, but it is %q", trial, want, ft.logs)
			}
		}
		for i, c := range cases {
			id := c.ID
			if id == "" {
				id = "case " + strconv.Itoa(i+1)
			}
			k, ok := ran[id]
			if !ok {
				t.Fatalf("trial %d: case %q ran in none of the %d shards", trial, id, n)
			}
			if want := shard.Of(c.ID, i, n); k != want {
				t.Fatalf("trial %d: case %q ran in shard %d/%d, but eval --shard puts it in %d/%d", trial, id, k, n, want, n)
			}
		}
		if len(ran) != len(cases) {
			t.Fatalf("trial %d: %d of the %d cases ran", trial, len(ran), len(cases))
		}
	}
}

func TestShardEnvErrorFailsTheSuite(t *testing.T) {
	t.Setenv(ShardEnv, "5/4")
	ft := &fakeT{}
	Run(ft, Suite{Checks: twoChecks()}, []Case{{ID: "a", Sample: right()}})
	want := `evalsuite: AGENTCHECK_SHARD="5/4": K counts from 1 to N (4), got 5`
	if !ft.failed || len(ft.subs) != 0 || !strings.Contains(strings.Join(ft.errs, "\n"), want) {
		t.Fatalf("Expected the suite to fail with %q and run no case, but failed=%v, %d cases ran, errors %q", want, ft.failed, len(ft.subs), ft.errs)
	}
}

// A shard that updates the baseline writes its own cases' scores and keeps
// the others', as a go test -run does.
func TestShardUpdatesItsCasesOfTheBaseline(t *testing.T) {
	path := filepath.Join(t.TempDir(), "baseline.json")
	cases := []Case{{ID: "a", Sample: right()}, {ID: "b", Sample: right()}, {ID: "c", Sample: right()}, {ID: "d", Sample: right()}}
	if ft := (&fakeT{}); Run(ft, Suite{Checks: twoChecks(), Baseline: path, UpdateBaseline: true}, cases) == nil || ft.failed {
		t.Fatalf("the unsharded update failed: %q", ft.errs)
	}
	for i := range cases {
		cases[i].Sample = wrong()
	}
	t.Setenv(ShardEnv, "1/2")
	ft := &fakeT{}
	Run(ft, Suite{Checks: twoChecks(), Baseline: path, UpdateBaseline: true}, cases)
	if ft.failed || len(ft.subs) == 0 || len(ft.subs) == len(cases) {
		t.Fatalf("Expected shard 1/2 to run some of the 4 cases and pass, but it ran %d, errors %q", len(ft.subs), ft.errs)
	}
	b, err := baseline.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		want := 1.0 // the unsharded run's
		if shard.Of(c.ID, i, 2) == 1 {
			want = 0 // shard 1/2's
		}
		if got := b[c.ID]["tool_call_accuracy"]; got != want || len(b) != len(cases) {
			t.Errorf("Expected case %s's baseline tool_call_accuracy to be %v, but it is %v (%d cases in the baseline)", c.ID, want, got, len(b))
		}
	}
}

// A suite's notes, the shard's count of the cases it ran and a warning
// about the judge's calibration, are logged at the suite's Run in the
// test, not at a line of this package: the test binary is run again with
// the shard set and one probe test that runs a suite.
func TestSuiteNotesAreLoggedAtTheCaller(t *testing.T) {
	if os.Getenv("EVALSUITE_NOTE_PROBE") == "1" {
		t.Skip("the probe runs in the child")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestSuiteNoteProbe$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), "EVALSUITE_NOTE_PROBE=1", ShardEnv+"=1/1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the probe failed: %v\n%s", err, out)
	}
	for _, note := range []string{`AGENTCHECK_SHARD=1/1: ran`, `warning: .*calibration`} {
		if !regexp.MustCompile(`shard_test\.go:\d+: ` + note).Match(out) {
			t.Errorf("Expected the note %q at the probe's line in shard_test.go, but the output is:\n%s", note, out)
		}
	}
}

func TestSuiteNoteProbe(t *testing.T) {
	if os.Getenv("EVALSUITE_NOTE_PROBE") != "1" {
		t.Skip("run by TestSuiteNotesAreLoggedAtTheCaller")
	}
	srv := judgetest.Start(t, judgetest.BySchema(map[string]judgetest.Script{
		"agent_goal_infer":   judgetest.Always(judgetest.JSON(map[string]any{"user_goal": "book table 4", "end_state": "table 4 booked"})),
		"agent_goal_compare": judgetest.Always(judgetest.JSON(map[string]any{"reason": "table 4 is booked", "achieved": true})),
	}))
	goal := metric.AgentGoalAccuracy{Judge: judge.New(judge.WithBaseURL(srv.URL), judge.WithModel("scripted"), judge.WithAPIKey(""))}
	sample, _ := goalSample(context.Background())
	Suite{Checks: []Check{{Metric: goal, Threshold: 1}}, Calibration: filepath.Join(t.TempDir(), "missing.json")}.
		Run(t, []Case{{ID: "a", Sample: sample}})
}
