package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentcheck/agentcheck/judge/judgetest"
	"github.com/google/go-cmp/cmp"
	"gopkg.in/dnaeon/go-vcr.v4/pkg/cassette"
)

// Faults a user of the command meets: samples that cannot be scored, and a
// judged run interrupted while it records.

// badSamples are one of each kind of sample the command cannot score, with
// what its error line must say. Each is one line of JSON Lines.
var badSamples = []struct {
	name, line, problem string
}{
	{"invalid JSON", `{"user_input": [{"type": "human", "content": "hi"}], "reference_tool_calls": [] oops}`,
		`column 81: unexpected 'o' in object, want ',' or '}'`},
	{"truncated line", `{"user_input": [{"type": "human", "content": "Book a ta`,
		`column 46: unterminated string`},
	{"not an object", `[{"type": "human", "content": "hi"}]`,
		`a sample must be a JSON object, got array`},
	{"a string", `"user_input"`,
		`a sample must be a JSON object, got string`},
	{"missing user_input", `{"reference_tool_calls": []}`,
		`"user_input" is missing`},
	{"user_input not a list", `{"user_input": {"type": "human", "content": "hi"}, "reference_tool_calls": []}`,
		`"user_input" must be a list of messages, got object`},
	{"a message not an object", `{"user_input": ["hi"], "reference_tool_calls": []}`,
		`message 0: a message must be an object, got string`},
	{"unknown message type", `{"user_input": [{"type": "robot", "content": "beep"}], "reference_tool_calls": []}`,
		`message 0: unknown "type" "robot" (want "human", "ai" or "tool")`},
	{"missing type", `{"user_input": [{"content": "hi"}], "reference_tool_calls": []}`,
		`message 0: "type" must be "human", "ai" or "tool"`},
	{"missing content", `{"user_input": [{"type": "human"}], "reference_tool_calls": []}`,
		`message 0 (human): "content" must be a string, got missing`},
	{"content not a string", `{"user_input": [{"type": "human", "content": 42}], "reference_tool_calls": []}`,
		`message 0 (human): "content" must be a string, got int`},
	{"tool message first", `{"user_input": [{"type": "tool", "content": "orphan"}], "reference_tool_calls": []}`,
		`message 0 (tool): a tool message must follow an ai message with tool calls, but it is the first message`},
	{"tool after ai without tool_calls", `{"user_input": [{"type": "human", "content": "hi"}, {"type": "ai", "content": "hello"}, {"type": "tool", "content": "x"}], "reference_tool_calls": []}`,
		`message 2 (tool): a tool message must follow an ai message with tool calls or another tool message, but message 1 is an ai message without tool calls`},
	{"tool_calls on a human message", `{"user_input": [{"type": "human", "content": "hi", "tool_calls": [{"name": "f", "args": {}}]}], "reference_tool_calls": []}`,
		`message 0 (human): only ai messages have "tool_calls"`},
	{"tool_calls not a list", `{"user_input": [{"type": "ai", "content": "", "tool_calls": {"name": "f", "args": {}}}], "reference_tool_calls": []}`,
		`message 0 (ai): "tool_calls" must be a list, got object`},
	{"tool call without name", `{"user_input": [{"type": "ai", "content": "", "tool_calls": [{"args": {"city": "Paris"}}]}], "reference_tool_calls": []}`,
		`message 0 (ai), tool call 0: "name" must be a string`},
	{"tool call without args", `{"user_input": [{"type": "ai", "content": "", "tool_calls": [{"name": "search"}]}], "reference_tool_calls": []}`,
		`message 0 (ai), tool call 0 "search": "args" is missing`},
	{"args not an object", `{"user_input": [{"type": "ai", "content": "", "tool_calls": [{"name": "search", "args": "city=Paris"}]}], "reference_tool_calls": []}`,
		`message 0 (ai), tool call 0 "search": "args" must be an object, got string`},
	{"reference_tool_calls not a list", `{"user_input": [{"type": "human", "content": "hi"}], "reference_tool_calls": {"name": "f", "args": {}}}`,
		`"reference_tool_calls" must be a list, got object`},
	{"a reference tool call without args", `{"user_input": [{"type": "human", "content": "hi"}], "reference_tool_calls": [{"name": "f"}]}`,
		`reference_tool_calls[0]: "args" is missing`},
	{"missing reference_tool_calls", `{"user_input": [{"type": "human", "content": "hi"}]}`,
		`tool_call_accuracy needs reference_tool_calls, and the sample has none`},
	{"reference_topics with a number", `{"user_input": [{"type": "human", "content": "hi"}], "reference_tool_calls": [], "reference_topics": ["food", 7]}`,
		`reference_topics[1] must be a string, got int`},
	{"reference not a string", `{"user_input": [{"type": "human", "content": "hi"}], "reference_tool_calls": [], "reference": ["a"]}`,
		`"reference" must be a string, got array`},
	{"integer over 4300 digits", `{"user_input": [{"type": "ai", "content": "", "tool_calls": [{"name": "f", "args": {"n": ` + strings.Repeat("7", 4301) + `}}]}], "reference_tool_calls": []}`,
		`column 90: integer literal of 4301 digits exceeds Python's limit of 4300`},
	{"nesting too deep", `{"user_input": [{"type": "ai", "content": "", "tool_calls": [{"name": "f", "args": {"n": ` + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + `}}]}], "reference_tool_calls": []}`,
		`nesting deeper than 990 levels`},
	{"invalid UTF-8", "{\"user_input\": [{\"type\": \"human\", \"content\": \"caf\xe9\"}], \"reference_tool_calls\": []}",
		`column 46: string is not valid UTF-8`},
	{"a control character in a string", "{\"user_input\": [{\"type\": \"human\", \"content\": \"a\x01b\"}], \"reference_tool_calls\": []}",
		`column 48: invalid control character '\x01' in string`},
	{"an unquoted key", `{"user_input": [{"type": "human", "content": "hi"}], "reference_tool_calls": [], NaN: 1}`,
		`column 82: unexpected 'N', want an object key`},
}

// goodAround are the samples around each bad one: a lone surrogate, which
// Python's json accepts, among them.
var goodAround = []string{
	`{"user_input": [{"type": "human", "content": "Weather in Paris?"}, {"type": "ai", "content": "", "tool_calls": [{"name": "weather", "args": {"city": "Paris", "unit": "C"}}]}, {"type": "tool", "content": "18C"}], "reference_tool_calls": [{"name": "weather", "args": {"city": "Paris", "unit": "F"}}]}`,
	`{"user_input": [{"type": "human", "content": "lone \ud800 surrogate"}, {"type": "ai", "content": "", "tool_calls": [{"name": "echo", "args": {"s": "\udc00"}}]}], "reference_tool_calls": [{"name": "echo", "args": {"s": "\udc00"}}]}`,
	`{"user_input": [{"type": "ai", "content": "", "tool_calls": [{"name": "f", "args": {"a": 1}}, {"name": "g", "args": {}}]}], "reference_tool_calls": [{"name": "g", "args": {}}, {"name": "f", "args": {"a": 1.0}}]}`,
}

// TestEvalBadSamples: every kind of sample that cannot be scored gets its
// own error line, naming the file, the line, the sample and the problem; the
// good samples around it score as they do alone.
func TestEvalBadSamples(t *testing.T) {
	var lines, goods []string
	bad := map[int]int{} // output line → badSamples index
	for i, b := range badSamples {
		g := goodAround[i%len(goodAround)]
		lines = append(lines, g)
		goods = append(goods, g)
		bad[len(lines)] = i
		lines = append(lines, b.line)
	}
	lines = append(lines, goodAround[0])
	goods = append(goods, goodAround[0])
	path := writeFile(t, "mixed.jsonl", strings.Join(lines, "\n")+"\n")
	alone, stderr, code := runAgentcheck(t, "", "eval", "--format", "jsonl", writeFile(t, "good.jsonl", strings.Join(goods, "\n")+"\n"))
	if code != 0 {
		t.Fatalf("the good samples alone: exit %d: %s", code, stderr)
	}
	want := strings.Split(strings.TrimSuffix(alone, "\n"), "\n")
	if len(want) != len(goods) || strings.Contains(alone, "error") {
		t.Fatalf("the good samples alone:\n%s", alone)
	}
	for _, workers := range []string{"1", "4"} {
		t.Run("workers="+workers, func(t *testing.T) {
			out, stderr, code := runAgentcheck(t, "", "eval", "--format", "jsonl", "--workers", workers, path)
			if code != 1 || !strings.Contains(stderr, fmt.Sprintf("%d of %d samples could not be scored", len(badSamples), len(lines))) {
				t.Errorf("exit %d, stderr %q; want 1 and the bad samples counted", code, stderr)
			}
			objs := parseJSONL(t, out)
			got := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			if len(objs) != len(lines) {
				t.Fatalf("%d output lines for %d samples", len(objs), len(lines))
			}
			g := 0
			for i := range lines {
				b, isBad := bad[i]
				if !isBad {
					if got[i] != want[g] {
						t.Errorf("line %d: %s, but the same sample scores %s alone", i+1, got[i], want[g])
					}
					g++
					continue
				}
				msg, _ := objs[i]["error"].(string)
				where := fmt.Sprintf("%s:%d: sample %d: ", path, i+1, i)
				if len(objs[i]) != 1 || !strings.HasPrefix(msg, where) || !strings.Contains(msg, badSamples[b].problem) {
					t.Errorf("%s: line %d is %s\nwant an error starting %q and saying %q", badSamples[b].name, i+1, got[i], where, badSamples[b].problem)
				}
			}
		})
	}

	// A file that ends in the middle of a sample, with no newline.
	cut := writeFile(t, "cut.jsonl", goodAround[0]+"\n"+goodAround[2][:70])
	out, _, code := runAgentcheck(t, "", "eval", "--format", "jsonl", cut)
	objs := parseJSONL(t, out)
	if code != 1 || len(objs) != 2 || strings.Split(out, "\n")[0] != want[0] ||
		!strings.HasPrefix(fmt.Sprint(objs[1]["error"]), cut+":2: sample 1: column 70: unexpected end of input, want a value") {
		t.Errorf("a file cut mid-sample: exit %d:\n%s", code, out)
	}
}

// foodLines are n samples for foodScript, and the scores it gives them.
func foodLines(n int) (lines, scores []string) {
	for i := range n {
		c := foodCases[i%len(foodCases)]
		lines = append(lines, fmt.Sprintf(`{"user_input": [{"type": "human", "content": "%s #%d"}, {"type": "ai", "content": "ok"}], "reference_topics": ["food delivery"]}`, c.word, i))
		goal, topics := "0.0", "0.0"
		if c.achieved {
			goal = "1.0"
		}
		if !c.refused && c.on {
			topics = "0.99999999985"
		}
		scores = append(scores, fmt.Sprintf(`{"agent_goal_accuracy":%s,"topic_adherence":%s}`, goal, topics))
	}
	return lines, scores
}

// wholeCassette loads a cassette with go-vcr's loader and checks that every
// interaction in it is whole: a chat completion request, and its answer.
func wholeCassette(t *testing.T, path string) []*cassette.Interaction {
	t.Helper()
	c, err := cassette.Load(strings.TrimSuffix(path, ".yaml"))
	if err != nil {
		t.Fatalf("the cassette does not load: %v", err)
	}
	for i, it := range c.Interactions {
		if it.ID != i || it.Request.Method != http.MethodPost || !strings.HasSuffix(it.Request.URL, "/chat/completions") ||
			it.Response.Code != 200 || !strings.HasPrefix(it.Response.Body, `{"choices":[{`) || !strings.HasSuffix(strings.TrimSpace(it.Response.Body), "}") {
			t.Errorf("interaction %d is not whole: %+v", i, it)
		}
	}
	return c.Interactions
}

// TestEvalInterruptedRecording: a judged run interrupted while it records
// (Ctrl-C cancels the command's context) stops promptly and saves a
// consistent cassette with what was recorded so far; run again with
// AGENTCHECK_RECORD=missing, it asks the judge only for the rest.
func TestEvalInterruptedRecording(t *testing.T) {
	checkGoroutines(t)
	const samples, perSample = 16, 5 // goal accuracy 2 calls, topics 3
	base := foodScript()
	srv := judgetest.NewServer(func(r judgetest.Request) judgetest.Reply {
		return base(r).After(time.Duration(r.Seq%3+1) * 5 * time.Millisecond)
	})
	defer srv.Close()
	lines, want := foodLines(samples)
	path := writeFile(t, "runs.jsonl", strings.Join(lines, "\n")+"\n")
	cassettePath := filepath.Join(t.TempDir(), "runs.yaml")
	args := judgedArgs("--judge-concurrency", "4", "--cassette", cassettePath, path)

	judgeEnv(t, srv.URL, testKey, "missing")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cancelled := make(chan time.Time, 1)
	go func() {
		for srv.Count() < samples*perSample/3 {
			time.Sleep(time.Millisecond)
		}
		cancelled <- time.Now()
		cancel()
	}()
	var out, errOut bytes.Buffer
	code := runContext(ctx, args, strings.NewReader(""), &out, &errOut)
	select {
	case at := <-cancelled:
		// Saving the cassette (an fsync) is part of stopping.
		if d := time.Since(at); d > 2*time.Second {
			t.Errorf("the command ran %v after the interrupt", d)
		}
	default:
		t.Fatalf("the run ended before the interrupt:\n%s", out.String())
	}
	if code != exitFailed || !strings.Contains(errOut.String(), "agentcheck eval: interrupted (context canceled) after reading ") {
		t.Errorf("interrupted: exit %d, stderr %q; want %d and a word on the interrupt", code, errOut.String(), exitFailed)
	}
	got := strings.Split(strings.TrimSuffix(onlyScores(t, out.String()), "\n"), "\n")
	scored := 0
	for i, l := range got {
		switch {
		case i >= len(want):
			t.Fatalf("the interrupted run wrote %d lines for %d samples:\n%s", len(got), len(want), out.String())
		case l == want[i]:
			scored++
		case strings.HasPrefix(l, fmt.Sprintf(`{"error":"%s:%d: sample %d: `, path, i+1, i)) && strings.Contains(l, "context canceled"):
		default:
			t.Errorf("line %d of the interrupted run: %s, want %s or an error saying it was cancelled", i+1, l, want[i])
		}
	}
	recorded := wholeCassette(t, cassettePath)
	if len(recorded) == 0 || len(recorded) >= samples*perSample || scored == samples {
		t.Fatalf("%d of %d judgments recorded, %d samples scored: the interrupt did not come mid-run", len(recorded), samples*perSample, scored)
	}
	if len(recorded) < perSample*scored {
		t.Errorf("%d samples were scored before the interrupt, but the cassette keeps only %d judgments", scored, len(recorded))
	}

	// The resumed run asks with a key of its own: a request the interrupted
	// run sent just before it stopped may reach the server only now (on one
	// CPU it does), and is none of the resumed run's.
	resumeKey := testKey + "-resumed"
	judgeEnv(t, srv.URL, resumeKey, "missing")
	resumed, stderr, code := runAgentcheck(t, "", args...)
	resumed = onlyScores(t, resumed)
	if code != 0 {
		t.Fatalf("the resumed run: exit %d: %s", code, stderr)
	}
	asked := 0
	for _, r := range srv.Requests() {
		if r.Header.Get("Authorization") == "Bearer "+resumeKey {
			asked++
		}
	}
	if asked != samples*perSample-len(recorded) {
		t.Errorf("the resumed run asked the judge %d times; %d of %d judgments were recorded before the interrupt, so want %d",
			asked, len(recorded), samples*perSample, samples*perSample-len(recorded))
	}
	if diff := cmp.Diff(strings.Join(want, "\n")+"\n", resumed); diff != "" {
		t.Errorf("the resumed run (-want +got):\n%s", diff)
	}
	if n := len(wholeCassette(t, cassettePath)); n != samples*perSample {
		t.Errorf("the cassette holds %d judgments after the resumed run, want %d", n, samples*perSample)
	}
	srv.Close()
	judgeEnv(t, offlineURL, "", "")
	replayed, stderr, code := runAgentcheck(t, "", args...)
	if replayed = onlyScores(t, replayed); code != 0 || replayed != resumed {
		t.Errorf("the offline replay: exit %d, %s\n(-resumed +replayed):\n%s", code, stderr, cmp.Diff(resumed, replayed))
	}
	if data, _ := os.ReadFile(cassettePath); bytes.Contains(data, []byte(testKey)) {
		t.Error("the cassette holds a key")
	}
}

// TestEvalInterruptStopsReading: Ctrl-C stops a run of the deterministic
// metrics too, which never wait on the context: the command stops reading,
// writes what it has scored, and says it was interrupted.
func TestEvalInterruptStopsReading(t *testing.T) {
	t.Parallel() // slow: it overlaps the package's other slow tests
	const n = 5000
	samples := synthLines(n, 13)
	input := strings.Join(samples, "\n")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The interrupt comes when a third of the input has been read.
	in := &interruptingReader{r: strings.NewReader(input), after: len(input) / 3, cancel: cancel}
	var out, errOut bytes.Buffer
	code := runContext(ctx, []string{"eval", "--format", "jsonl", "--workers", "2", "-"}, in, &out, &errOut)
	lines := strings.Count(out.String(), "\n")
	if code != exitFailed || lines == 0 || lines >= n ||
		!strings.Contains(errOut.String(), fmt.Sprintf("interrupted (context canceled) after reading %d samples; the rest of the input was not read", lines)) {
		t.Errorf("exit %d, %d lines for %d samples, stderr %q; want the run cut short and said so", code, lines, n, errOut.String())
	}
	read := strings.Join(samples[:min(lines, n)], "\n")
	want, _, _ := runAgentcheck(t, read, "eval", "--format", "jsonl", "-")
	if diff := cmp.Diff(parseJSONL(t, want), parseJSONL(t, out.String())); diff != "" {
		t.Errorf("the samples read before the interrupt score otherwise (-uninterrupted +interrupted):\n%s", diff)
	}
}

// interruptingReader calls cancel once after bytes have been read.
type interruptingReader struct {
	r      *strings.Reader
	after  int
	read   int
	cancel context.CancelFunc
}

func (r *interruptingReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	r.read += n
	if r.read >= r.after {
		r.cancel()
	}
	return n, err
}
