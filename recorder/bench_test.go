package recorder

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"gopkg.in/dnaeon/go-vcr.v4/pkg/cassette"
	vcr "gopkg.in/dnaeon/go-vcr.v4/pkg/recorder"
)

// rewind forgets which interactions this run consumed, so a benchmark can
// replay the same requests again.
func (r *Recorder) rewind() {
	r.mu.Lock()
	for _, g := range r.idx.groups {
		g.used = 0
	}
	r.mu.Unlock()
}

const benchURL = "http://127.0.0.1:9/v1/chat/completions"

// benchBody is a judge request of realistic size (about 3 KB), fields in
// go-openai's order, as a goal-accuracy judge would send it.
func benchBody(i int) []byte {
	rubric := strings.Repeat("Judge whether the agent achieved the user's goal; answer with a verdict and a reason. ", 16)
	convo := strings.Repeat(fmt.Sprintf("Human: book table %d for two at 8pm. AI: booked, confirmation %d. ", i, i*7), 8)
	return fmt.Appendf(nil, `{"model":"gpt-4o-mini","messages":[{"role":"system","content":%q},{"role":"user","content":%q}],`+
		`"temperature":0,"seed":42,"response_format":{"type":"json_schema","json_schema":{"name":"verdict","strict":true,`+
		`"schema":{"type":"object","properties":{"verdict":{"type":"integer","enum":[0,1]},"reason":{"type":"string"}},`+
		`"required":["verdict","reason"],"additionalProperties":false}}},"user":"agentcheck-prompt:goal-v1"}`,
		rubric, convo)
}

func benchAnswer(i int) string {
	return fmt.Sprintf(`{"id":"chatcmpl-%d","object":"chat.completion","created":1700000000,"model":"gpt-4o-mini",`+
		`"choices":[{"index":0,"message":{"role":"assistant","content":"{\"verdict\":1,\"reason\":\"The table was booked and confirmed (%d).\"}"},`+
		`"finish_reason":"stop"}],"usage":{"prompt_tokens":812,"completion_tokens":24,"total_tokens":836}}`, i, i)
}

// writeBenchCassette writes n interactions with go-vcr's own cassette code,
// shaped so that go-vcr's default matcher accepts the benchmark's requests.
func writeBenchCassette(b *testing.B, n int) (string, [][]byte) {
	name := filepath.Join(b.TempDir(), fmt.Sprintf("bench-%d", n))
	c := cassette.New(name)
	c.MarshalFunc = yaml.Marshal
	bodies := make([][]byte, n)
	for i := range n {
		bodies[i] = benchBody(i)
		answer := benchAnswer(i)
		c.AddInteraction(&cassette.Interaction{
			Request: cassette.Request{
				Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
				ContentLength: int64(len(bodies[i])),
				Host:          "127.0.0.1:9",
				Body:          string(bodies[i]),
				Headers:       http.Header{"Content-Type": {"application/json"}},
				URL:           benchURL,
				Method:        http.MethodPost,
			},
			Response: cassette.Response{
				Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
				ContentLength: int64(len(answer)),
				Body:          answer,
				Headers:       http.Header{"Content-Type": {"application/json"}},
				Status:        "200 OK",
				Code:          200,
			},
		})
	}
	if err := c.Save(); err != nil {
		b.Fatal(err)
	}
	return c.File, bodies
}

// spread visits every interaction once per n requests, in an order that
// reaches the far end of the cassette early, so a short run measures a linear
// scan fairly.
func spread(i, n int) int { return i * 7919 % n }

func replayOnce(b *testing.B, rt http.RoundTripper, body []byte) {
	req, _ := http.NewRequest(http.MethodPost, benchURL, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := rt.RoundTrip(req)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		b.Fatal(err)
	}
	resp.Body.Close()
}

// BenchmarkCassetteReplay replays one interaction (a 3 KB judge request)
// from cassettes of growing size, visiting all of them in a spread order, with this
// package's recorder and, for comparison, go-vcr's recorder with its default
// matcher (replay-only, replayable interactions, no latency simulation).
func BenchmarkCassetteReplay(b *testing.B) {
	offline := roundTripFunc(func(*http.Request) (*http.Response, error) { return nil, errors.New("offline") })
	for _, n := range []int{10, 1_000, 10_000} {
		path, bodies := writeBenchCassette(b, n)
		b.Run(fmt.Sprintf("agentcheck/interactions=%d", n), func(b *testing.B) {
			rec, err := Open(path, WithMode(RecordNone), WithUpstream(offline))
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if i%n == 0 {
					rec.rewind()
				}
				replayOnce(b, rec, bodies[spread(i, n)])
			}
		})
		b.Run(fmt.Sprintf("go-vcr/interactions=%d", n), func(b *testing.B) {
			rec, err := vcr.New(strings.TrimSuffix(path, ".yaml"),
				vcr.WithMode(vcr.ModeReplayOnly),
				vcr.WithReplayableInteractions(true),
				vcr.WithSkipRequestLatency(true),
				vcr.WithRealTransport(offline))
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				replayOnce(b, rec, bodies[spread(i, n)])
			}
		})
	}
}

// BenchmarkOpenCassette opens a cassette of 1,000 judge interactions
// (3.3 MB) in the recorder's own layout: read, parse and index.
func BenchmarkOpenCassette(b *testing.B) {
	path, _ := writeBenchCassette(b, 1000)
	its, _, err := loadCassette(path)
	if err != nil {
		b.Fatal(err)
	}
	data := encodeCassette(its)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		r, err := Open(path, WithMode(RecordNone))
		if err != nil {
			b.Fatal(err)
		}
		if len(r.loaded) != 1000 {
			b.Fatalf("%d interactions", len(r.loaded))
		}
	}
}

// BenchmarkOpenAdversarial opens cassettes of 100 KB made to be slow to
// open (see adversarialCassette), in go-vcr's layout, so read by the YAML
// library: each opens, or is refused with its line, within a bound (the
// target: under 1 s and 100 MB each; B/op is the memory allocated).
func BenchmarkOpenAdversarial(b *testing.B) {
	for _, kind := range []string{"repeated keys", "a large mapping", "aliases", "many interactions"} {
		b.Run(strings.ReplaceAll(kind, " ", "_"), func(b *testing.B) {
			data := adversarialCassette(kind, 100<<10)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				loadCassetteData("adversarial.yaml", data)
			}
		})
	}
}

// BenchmarkOpenGoVCRCassette opens a cassette of 1,000 judge interactions
// that go-vcr wrote (3.3 MB), so read by the YAML library, nodes checked
// for repeated keys first.
func BenchmarkOpenGoVCRCassette(b *testing.B) {
	path, _ := writeBenchCassette(b, 1000)
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		its, _, err := loadCassetteData(path, data)
		if err != nil || len(its) != 1000 {
			b.Fatalf("%d interactions, %v", len(its), err)
		}
	}
}
