package judge

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/judge/judgetest"
	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/recorder"
)

// BenchmarkReplayJudgedAssertion measures one AgentGoalAccuracy judgment (two
// judge calls) replayed from a cassette of 10, 1,000 and 10,000
// interactions, through the real client, go-openai and the recorder. The
// cassettes are recorded first against the scripted server. A recorder
// hands out each recorded answer once per run, so when every sample has
// been replayed a fresh recorder is opened with the timer stopped.
func BenchmarkReplayJudgedAssertion(b *testing.B) {
	srv := judgetest.Start(b, judgetest.BySchema(map[string]judgetest.Script{
		"agent_goal_infer":   judgetest.Always(judgetest.Content(`{"user_goal":"book a table","end_state":"a table is booked"}`)),
		"agent_goal_compare": judgetest.Always(judgetest.Content(`{"reason":"booked as asked","achieved":true}`)),
	}))
	for _, interactions := range []int{10, 1000, 10000} {
		b.Run(fmt.Sprint(interactions), func(b *testing.B) {
			samples := make([]agentcheck.Sample, interactions/2)
			for i := range samples {
				samples[i] = agentcheck.Sample{
					Conversation: agentcheck.Conversation{
						{Role: agentcheck.Human, Content: fmt.Sprintf("Book table %d for two at 8pm", i)},
						{Role: agentcheck.AI, Content: fmt.Sprintf("Booked table %d.", i)},
					},
					Reference: "A table is booked",
				}
			}
			path := filepath.Join(b.TempDir(), "bench.yaml")
			rec, err := recorder.Open(path, recorder.WithMode(recorder.RecordAll), recorder.WithEnv(func(string) string { return "" }))
			if err != nil {
				b.Fatal(err)
			}
			live := goalMetric(New(WithBaseURL(srv.URL), WithAPIKey("sk-bench"), WithRecorder(rec)))
			for _, s := range samples {
				if _, err := live.Evaluate(context.Background(), s); err != nil {
					b.Fatal(err)
				}
			}
			if err := rec.Close(); err != nil {
				b.Fatal(err)
			}
			var m metric.AgentGoalAccuracy
			open := func() {
				rec, err := recorder.Open(path, recorder.WithEnv(func(string) string { return "" }))
				if err != nil {
					b.Fatal(err)
				}
				m = goalMetric(New(WithBaseURL("http://127.0.0.1:9/v1"), WithAPIKey(""), WithRecorder(rec)))
			}
			open()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if i > 0 && i%len(samples) == 0 {
					b.StopTimer()
					open()
					// Collect the old recorder's garbage here, untimed, so
					// that the timed replays do not pay for reopening.
					runtime.GC()
					b.StartTimer()
				}
				r, err := m.Evaluate(context.Background(), samples[i%len(samples)])
				if err != nil || r.Score != 1 {
					b.Fatalf("replay: score %v, %v", r.Score, err)
				}
			}
		})
	}
}

func goalMetric(j judgment.Judge) metric.AgentGoalAccuracy {
	return metric.AgentGoalAccuracy{Judge: j}
}
