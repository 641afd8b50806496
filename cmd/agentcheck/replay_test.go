package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentcheck/agentcheck/judge/judgetest"
	"github.com/google/go-cmp/cmp"
)

// A judge at a temperature above zero answers byte-identical questions of
// different samples differently. The replay must report, bit for bit, what
// the recording run reported for every sample, at any concurrency, every
// time.
func TestEvalReplayIsDeterministic(t *testing.T) {
	checkGoroutines(t)
	var n atomic.Int64
	srv := judgetest.NewServer(judgetest.BySchema(map[string]judgetest.Script{
		"agent_goal_infer": func(r judgetest.Request) judgetest.Reply {
			return judgetest.JSON(map[string]any{"user_goal": "Order a large pizza", "end_state": "ordered"})
		},
		"agent_goal_compare": func(r judgetest.Request) judgetest.Reply {
			return judgetest.JSON(map[string]any{"reason": fmt.Sprintf("verdict %d", n.Add(1)), "achieved": rand.IntN(2) == 0})
		},
	}))
	defer srv.Close()
	// Every sample asks the same questions.
	var lines []string
	for range 16 {
		lines = append(lines, judgedSamples[0])
	}
	path := writeFile(t, "same.jsonl", strings.Join(lines, "\n")+"\n")
	args := []string{"eval", "--format", "jsonl", "--metrics", "agent_goal_accuracy", "--judge-concurrency", "8", path}

	judgeEnv(t, srv.URL, testKey, "all")
	recorded, stderr, code := runAgentcheck(t, "", args...)
	if code != 0 {
		t.Fatalf("recording: exit %d: %s", code, stderr)
	}
	if !strings.Contains(recorded, `"agent_goal_accuracy":1.0`) || !strings.Contains(recorded, `"agent_goal_accuracy":0.0`) {
		t.Fatalf("the recording needs both verdicts to prove anything:\n%s", recorded)
	}
	srv.Close()

	judgeEnv(t, offlineURL, "", "")
	for run := range 20 {
		replayed, stderr, code := runAgentcheck(t, "", args...)
		if code != 0 {
			t.Fatalf("replay %d: exit %d: %s", run, code, stderr)
		}
		if diff := cmp.Diff(recorded, replayed); diff != "" {
			t.Fatalf("replay %d differs from the recording (-recorded +replayed):\n%s", run, diff)
		}
	}
}

// A judge answering 503 to everything costs fewer requests in all than
// there are samples, and each sample still gets its own error line.
func TestEvalFailsFastWhenTheJudgeIsDown(t *testing.T) {
	checkGoroutines(t)
	srv := judgetest.NewServer(judgetest.Always(judgetest.Status(503)))
	defer srv.Close()
	const samples = 24
	var lines []string
	for i := range samples {
		lines = append(lines, strings.Replace(judgedSamples[0], "5 Elm Street", fmt.Sprintf("%d Elm Street", i), 2))
	}
	path := writeFile(t, "down.jsonl", strings.Join(lines, "\n")+"\n")
	judgeEnv(t, srv.URL, testKey, "missing")
	out, stderr, code := runAgentcheck(t, "", "eval", "--format", "jsonl", "--metrics", "agent_goal_accuracy", path)
	if code != 1 || !strings.Contains(stderr, fmt.Sprintf("%d of %d samples could not be scored", samples, samples)) {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if n := srv.Count(); n >= samples {
		t.Errorf("the judge got %d requests for %d samples, want fewer", n, samples)
	}
	outLines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(outLines) != samples {
		t.Fatalf("%d output lines for %d samples", len(outLines), samples)
	}
	for i, l := range outLines {
		if !strings.Contains(l, fmt.Sprintf(`down.jsonl:%d: sample %d`, i+1, i)) || !strings.Contains(l, "503") {
			t.Errorf("line %d = %s, want its own error", i+1, l)
		}
	}
}
