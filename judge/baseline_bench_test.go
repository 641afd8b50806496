package judge_test

import (
	"context"
	"testing"
	"time"

	"github.com/agentcheck/agentcheck/judge"
	"github.com/agentcheck/agentcheck/judge/judgetest"
)

// BenchmarkLiveJudgingSequential is BenchmarkLiveJudging200's baseline: the
// same question asked of the same scripted server (50 ms an answer), one
// at a time, as a test asking its judge in a loop would. It asks 40
// questions rather than 200, which would take 10 s; "s/200q" is the time
// scaled to 200 questions.
func BenchmarkLiveJudgingSequential(b *testing.B) {
	const questions, latency = 40, 50 * time.Millisecond
	s := judgetest.NewServer(judgetest.Always(judgetest.Content(goodAnswer).After(latency)))
	defer s.Close()
	c := judge.New(judge.WithBaseURL(s.URL), judge.WithAPIKey(apiKey), judge.WithModel("judge-model"))
	for b.Loop() {
		for range questions {
			if _, err := c.Ask(context.Background(), goalQuestion); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)/questions*200, "s/200q")
}
