package dataset_test

import (
	"errors"
	"fmt"
	"io"
	"iter"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentcheck/agentcheck/dataset"
	"github.com/agentcheck/agentcheck/internal/samplereuse"
)

// boundedTraces reads data as agentcheck eval reads --input-format otel:
// with bytes the most one export and one trace may hold, values the most
// JSON values one export may hold, held the most all traces may hold. It
// returns each trace's ID, or its error's text, in order.
func boundedTraces(t *testing.T, data string, bytes, values, held int) []string {
	t.Helper()
	read := samplereuse.ReadOTLPTraces.(func(io.Reader, string, int, string, int, string, int, string) iter.Seq2[dataset.TraceSample, error])
	var got []string
	for ts, err := range read(strings.NewReader(data), "t.jsonl", bytes, "--max-sample-bytes", values, "--max-sample-values", held, "--max-otel-bytes") {
		if err != nil {
			var te *dataset.TraceError
			if !errors.As(err, &te) {
				t.Errorf("error %T is not a *dataset.TraceError: %v", err, err)
			}
			got = append(got, err.Error())
			continue
		}
		got = append(got, ts.TraceID)
	}
	return got
}

// messagesAttr is a gen_ai.input.messages attribute of one user message
// of n bytes.
func messagesAttr(n int) string {
	return strAttr("gen_ai.input.messages", `[{"role":"user","parts":[{"type":"text","content":"`+strings.Repeat("m", n)+`"}]}]`)
}

// Each bound of an OTLP input loses only what is over it: an export over
// the bytes or values of one is an error in its place, its spans lost; a
// trace whose kept attributes pass the bytes of one is an error of its
// own, naming the span that passed them; every other trace is read.
func TestOTLPBoundsLoseOnlyWhatIsOver(t *testing.T) {
	lines := []string{
		otlpLine("t1", "s1", "", "chat", 1, chatOp, hiIn, hiOut),
		otlpLine("t2", "s2", "", "chat", 1, chatOp, hiIn, hiOut, strAttr("http.response.body", strings.Repeat("b", 5000))),
		otlpLine("t3", "s3", "", "chat", 1, chatOp, hiIn, hiOut, `{"key":"http.list","value":{"arrayValue":{"values":[`+strings.TrimSuffix(strings.Repeat(`{"intValue":"0"},`, 150), ",")+`]}}}`),
		otlpLine("t4", "s4a", "s4", "chat", 1, chatOp, messagesAttr(1500)),
		otlpLine("t4", "s4b", "s4", "chat", 2, chatOp, messagesAttr(1500)),
		otlpLine("t4", "s4c", "s4", "chat", 3, chatOp, messagesAttr(1500)),
		otlpLine("t5", "s5", "", "chat", 1, chatOp, hiIn, hiOut),
		otlpLine("t4", "s4", "", "invoke_agent", 4),
	}
	got := boundedTraces(t, strings.Join(lines, "\n")+"\n", 4096, 200, 1<<20)
	want := []string{
		"t1",
		"t.jsonl:2: the export is over 4096 bytes, the most one export may hold (--max-sample-bytes): it was skipped, its spans lost",
		"t.jsonl:3: the export holds more than 200 JSON values, the most one export may hold (--max-sample-values): its spans were lost",
		`t.jsonl:6: trace t4, span s4c "chat": the trace's spans hold over 4096 bytes, the most one trace may hold (--max-sample-bytes): its spans were no longer held`,
		"t5",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// Unbounded but for the trace, the same input reads every export.
	got = boundedTraces(t, strings.Join(lines, "\n")+"\n", 4096*4, 0, 1<<20)
	if want := []string{"t1", "t2", "t3", "t4", "t5"}; !cmp.Equal(want, got) {
		t.Errorf("with room for every export and trace: %q, want %q", got, want)
	}
}

// Past the bound on what all traces hold at once, the input is read no
// further and none of its traces is yielded (any may lack a span that
// comes later): only its errors, the bound's at the line that passed it,
// and those met before it.
func TestOTLPHeldBoundYieldsNoTrace(t *testing.T) {
	var lines []string
	for i := range 12 {
		lines = append(lines, otlpLine(fmt.Sprintf("t%d", i), fmt.Sprintf("s%d", i), "", "chat", 1, chatOp, messagesAttr(700)))
		if i == 2 {
			lines = append(lines, `{"resourceSpans": [`) // malformed: its own error, kept
		}
	}
	data := strings.Join(lines, "\n") + "\n"
	got := boundedTraces(t, data, 1<<20, 0, 5000)
	want := []string{
		"t.jsonl:4: column 20: unexpected end of input, want a value",
		"t.jsonl:6: the input's traces hold over 5000 bytes, the most held at once to put each trace's spans together (--max-otel-bytes): it was read no further, and none of its traces was scored (any may lack spans that come later)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := boundedTraces(t, data, 1<<20, 0, 1<<20); len(got) != 13 {
		t.Errorf("under the bound: %d traces and errors, want 13: %q", len(got), got)
	}
}

// heldWhileYielding reads data as boundedTraces does and returns the heap
// the reading holds once every trace is read (at its first yield), what
// it yields (trace IDs and error texts), in order.
func heldWhileYielding(t *testing.T, data string, bytes, values, held int) (int64, []string) {
	t.Helper()
	read := samplereuse.ReadOTLPTraces.(func(io.Reader, string, int, string, int, string, int, string) iter.Seq2[dataset.TraceSample, error])
	var before, during runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var got []string
	for ts, err := range read(strings.NewReader(data), "t.jsonl", bytes, "--max-sample-bytes", values, "--max-sample-values", held, "--max-otel-bytes") {
		if got == nil { // every export read, and what it kept held
			runtime.GC()
			runtime.ReadMemStats(&during)
		}
		if err != nil {
			got = append(got, err.Error())
		} else {
			got = append(got, ts.TraceID)
		}
	}
	runtime.KeepAlive(data) // in both measures
	return int64(during.HeapAlloc) - int64(before.HeapAlloc), got
}

// exports writes n export lines, the i-th by line(i).
func exports(n int, line func(i int) string) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(line(i))
		b.WriteByte('\n')
	}
	return b.String()
}

// The attributes a trace keeps are copied out of their export: an input
// of exports each holding a large attribute that is not kept (an HTTP
// body) holds, once read, next to nothing of them, where it held every
// export's block; so does one whose traces each yield an error naming an
// attribute.
func TestOTLPKeepsNoExport(t *testing.T) {
	const n, big = 20, 64 << 10
	for name, kept := range map[string]string{"kept": hiIn, "error": `{"key":"gen_ai.bad","value":5}`} {
		data := exports(n, func(i int) string {
			return otlpLine(fmt.Sprintf("t%d", i), "s", "", "chat", 1, chatOp, hiOut, kept, strAttr("http.response.body", strings.Repeat("b", big)))
		})
		held, got := heldWhileYielding(t, data, 1<<20, 0, 1<<30)
		if len(got) != n || (name == "error") != strings.Contains(got[0], "gen_ai.bad") {
			t.Fatalf("%s: %d traces, want %d: %.300q", name, len(got), n, got)
		}
		if held > n*big/4 {
			t.Errorf("%s: the reader holds %d bytes of %d exports of %d bytes each once they are read, want under a quarter of them", name, held, n, big)
		}
	}
}

// The bound on what all traces hold counts what they hold in memory: the
// errors of traces that could not be read (which name their span), and
// the parsed values of a list attribute (some 72 bytes each, against two
// of text); past it the input is an error, and what it held stays near
// the bound.
func TestOTLPHeldBoundCountsWhatIsHeld(t *testing.T) {
	elems := strings.TrimSuffix(strings.Repeat(`{"intValue":"0"},`, 2500), ",")
	for _, tc := range []struct {
		name  string
		data  string
		bound int
	}{
		{"errors naming long spans", exports(30, func(i int) string {
			return otlpLine(fmt.Sprintf("t%d", i), "", "", strings.Repeat("n", 32<<10), 1, chatOp) // no spanId
		}), 128 << 10},
		{"spans without a trace", exports(30, func(i int) string {
			return otlpLine("", "s", "", strings.Repeat("n", 32<<10), 1, chatOp)
		}), 128 << 10},
		// 5 KB of text a trace, 180 KB once parsed: the text of all 30
		// is under the bound.
		{"lists of small values", exports(30, func(i int) string {
			return otlpLine(fmt.Sprintf("t%d", i), "s", "", "chat", 1, chatOp, hiIn, hiOut, `{"key":"gen_ai.request.stop_sequences","value":{"arrayValue":{"values":[`+elems+`]}}}`)
		}), 512 << 10},
	} {
		held, got := heldWhileYielding(t, tc.data, 64<<20, 0, tc.bound)
		if last := got[len(got)-1]; !strings.Contains(last, fmt.Sprintf("the input's traces hold over %d bytes", tc.bound)) {
			t.Errorf("%s: the bound was not met: the last of %d yields is %.200q", tc.name, len(got), last)
		}
		if held > 4*int64(tc.bound) {
			t.Errorf("%s: the reader holds %d bytes under a bound of %d", tc.name, held, tc.bound)
		}
	}
}

// Past the bound on what all traces hold, the errors of traces met before
// it are yielded still, in their place before the bound's.
func TestOTLPHeldBoundKeepsTraceErrors(t *testing.T) {
	data := strings.Join([]string{
		otlpLine("tbad", "", "", "chat", 1, chatOp), // no spanId: the trace's error
		otlpLine("t1", "s1", "", "chat", 1, chatOp, messagesAttr(700)),
		otlpLine("t2", "s2", "", "chat", 1, chatOp, messagesAttr(700)),
	}, "\n") + "\n"
	got := boundedTraces(t, data, 1<<20, 0, 2000)
	want := []string{
		`t.jsonl:1: trace tbad, span  "chat": "spanId" must be a non-empty string`,
		"t.jsonl:3: the input's traces hold over 2000 bytes, the most held at once to put each trace's spans together (--max-otel-bytes): it was read no further, and none of its traces was scored (any may lack spans that come later)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
