package metric

import (
	"bufio"
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/internal/pytext"
	"github.com/agentcheck/agentcheck/internal/pyvalue"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// pyScoreMetrics are the metrics behind the "scores" of a sample line of
// testdata/pyvectors.jsonl, in the order gen_pyvectors.py's SCORES lists them.
var pyScoreMetrics = []struct {
	name string
	m    interface {
		Compare(predicted, reference []agentcheck.ToolCall) Result
	}
}{
	{"tool_call_accuracy", ToolCallAccuracy{}},
	{"tool_call_accuracy_any_order", ToolCallAccuracy{AnyOrder: true}},
	{"tool_call_f1", ToolCallF1{}},
	{"tool_call_accuracy_levenshtein", ToolCallAccuracy{ArgSimilarity: Levenshtein}},
	{"tool_call_accuracy_hamming", ToolCallAccuracy{ArgSimilarity: Hamming}},
	{"tool_call_accuracy_jaro", ToolCallAccuracy{ArgSimilarity: Jaro}},
	{"tool_call_accuracy_jaro_winkler", ToolCallAccuracy{ArgSimilarity: JaroWinkler}},
	{"tool_call_accuracy_any_order_levenshtein", ToolCallAccuracy{AnyOrder: true, ArgSimilarity: Levenshtein}},
}

// pySimilarities are the "scores" of a sim line, in the order of
// gen_pyvectors.py's SIMILARITIES.
var pySimilarities = []StringSimilarity{ExactText, Levenshtein, Hamming, Jaro, JaroWinkler}

// TestPythonVectors is the differential test against Python: every str()
// and every score in testdata/pyvectors.jsonl was computed by real Python
// (str, ==, sets, sorted, round) on the values json.loads gives, from the
// metric definitions of the spec; gen_pyvectors.py regenerates the file.
// Each must come out of the Go code bit for bit.
func TestPythonVectors(t *testing.T) {
	t.Parallel() // it overlaps the package's other slow tests
	f, err := os.Open("testdata/pyvectors.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	failures := 0
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf(format, args...)
		if failures++; failures >= 30 {
			t.Fatalf("too many failures")
		}
	}
	var samples, sims, strs, scores int
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		rec, err := jsonvalue.Parse([]byte(text))
		if err != nil {
			t.Fatalf("line %d: %v", line, err)
		}
		kind, _ := rec.Get("kind")
		switch kind.Text() {
		case "sample":
			samples++
			// Parse the sample from its own text, as a dataset file gives it.
			end := strings.LastIndex(text, `,"kind":"sample"`)
			s, err := agentcheck.ParseSample(text[len(`{"sample":`):end])
			if err != nil {
				fail("line %d: %v", line, err)
				continue
			}
			want, _ := rec.Get("strs")
			pred, ref := s.Conversation.ToolCalls(), s.ReferenceToolCalls
			for _, side := range []struct {
				name  string
				calls []agentcheck.ToolCall
			}{{"pred", pred}, {"ref", ref}} {
				idx, _ := rec.Get(side.name)
				if idx.Len() != len(side.calls) {
					fail("line %d: %d %s calls, Python has %d", line, len(side.calls), side.name, idx.Len())
					continue
				}
				for i, tc := range side.calls {
					strs++
					w := want.Index(int(idx.Index(i).Float())).Text()
					if got := pyvalue.Str(tc.Args); got != w {
						fail("line %d: %s call %d: str(args)\n got %q\nwant %q", line, side.name, i, got, w)
					}
					// Python's str(v) is repr(v) for all but a str, which is itself.
					for _, m := range tc.Args.Members() {
						want := pyvalue.Repr(m.Value)
						if m.Value.Kind() == jsonvalue.StringKind {
							want = m.Value.Text()
						}
						if got := pyvalue.Str(m.Value); got != want {
							fail("line %d: %s call %d arg %q: str() = %q, want %q", line, side.name, i, m.Key, got, want)
						}
					}
				}
			}
			ws, _ := rec.Get("scores")
			for i, pm := range pyScoreMetrics {
				scores++
				want := ws.Index(i).Float()
				r := pm.m.Compare(pred, ref)
				if math.Float64bits(r.Score) != math.Float64bits(want) {
					fail("line %d: %s = %v, Python gives %v\npred %v\nref  %v", line, pm.name, r.Score, want, pred, ref)
				}
			}
			wantWarn, _ := rec.Get("warnings")
			r := ToolCallAccuracy{}.Compare(pred, ref)
			if len(r.Warnings) != wantWarn.Len() {
				fail("line %d: warnings %q, want %v", line, r.Warnings, wantWarn)
			} else {
				for i, w := range r.Warnings {
					if w != wantWarn.Index(i).Text() {
						fail("line %d: warning %q, want %q", line, w, wantWarn.Index(i).Text())
					}
				}
			}
		case "sim":
			sims++
			a, _ := rec.Get("a")
			b, _ := rec.Get("b")
			ws, _ := rec.Get("scores")
			for i, sim := range pySimilarities {
				scores++
				want := ws.Index(i).Float()
				if got := sim.Score(a.Text(), b.Text()); math.Float64bits(got) != math.Float64bits(want) {
					fail("line %d: %s(%q, %q) = %v, Python gives %v", line, sim, a.Text(), b.Text(), got, want)
				}
			}
		default:
			t.Fatalf("line %d: unknown kind %q", line, kind.Text())
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	// The file is the evidence: a truncated one must not pass quietly.
	if samples < 1500 || sims < 200 {
		t.Fatalf("only %d samples and %d similarity pairs in pyvectors.jsonl", samples, sims)
	}
	t.Logf("%d samples (%d str(args)), %d similarity pairs, %d scores", samples, strs, sims, scores)
}

// benchCalls is a typical sample's calls: 5 calls of 3 arguments each (a
// string, an int, and a float or a nested object), the prediction differing
// from the reference in one argument and in the order of two calls.
func benchCalls() (pred, ref []agentcheck.ToolCall) {
	ref = []agentcheck.ToolCall{
		agentcheck.MustParseToolCall("search_flights", `{"origin": "Berlin", "passengers": 2, "max_price": 450.5}`),
		agentcheck.MustParseToolCall("search_hotels", `{"city": "Paris", "nights": 3, "filters": {"stars": 4, "area": ["center", "north"]}}`),
		agentcheck.MustParseToolCall("book_flight", `{"flight_id": "LH1042", "seats": 2, "price": 449.99}`),
		agentcheck.MustParseToolCall("book_hotel", `{"hotel_id": "H-77", "rooms": 1, "guest": {"name": "Ada", "vip": true}}`),
		agentcheck.MustParseToolCall("send_email", `{"to": "ada@example.com", "priority": 1, "delay": 0.25}`),
	}
	pred = []agentcheck.ToolCall{
		ref[0],
		agentcheck.MustParseToolCall("search_hotels", `{"city": "Paris", "nights": 3, "filters": {"stars": 4, "area": ["center", "south"]}}`),
		ref[3],
		ref[2],
		agentcheck.MustParseToolCall("send_email", `{"to": "ada@example.org", "priority": 1, "delay": 0.25}`),
	}
	return pred, ref
}

func benchmarkCompare(b *testing.B, m interface {
	Compare(predicted, reference []agentcheck.ToolCall) Result
}) {
	pred, ref := benchCalls()
	b.ReportAllocs()
	for b.Loop() {
		m.Compare(pred, ref)
	}
}

func BenchmarkToolCallAccuracy(b *testing.B) { benchmarkCompare(b, ToolCallAccuracy{}) }

func BenchmarkToolCallAccuracyAnyOrder(b *testing.B) {
	benchmarkCompare(b, ToolCallAccuracy{AnyOrder: true})
}

func BenchmarkToolCallAccuracyLevenshtein(b *testing.B) {
	benchmarkCompare(b, ToolCallAccuracy{ArgSimilarity: Levenshtein})
}

func BenchmarkToolCallF1(b *testing.B) { benchmarkCompare(b, ToolCallF1{}) }

func call(name, args string) agentcheck.ToolCall { return agentcheck.MustParseToolCall(name, args) }

// TestToolCallAccuracySpec checks the consequences the spec lists, and the
// edge cases of ragas's definition, with scores worked out by hand from it.
func TestToolCallAccuracySpec(t *testing.T) {
	w := func(city string) agentcheck.ToolCall { return call("weather", `{"city": "`+city+`"}`) }
	tests := []struct {
		name       string
		pred, ref  []agentcheck.ToolCall
		strict     float64
		anyOrder   float64
		warnPrefix string
	}{
		{"both empty", nil, nil, 1, 1, ""},
		{"no predictions", nil, []agentcheck.ToolCall{w("Paris")}, 0, 0, "No tool calls found in the user input"},
		{"empty reference", []agentcheck.ToolCall{w("Paris")}, []agentcheck.ToolCall{}, 0, 0, "Reference tool calls are empty but predictions exist"},
		{"same", []agentcheck.ToolCall{w("Paris"), w("Rome")}, []agentcheck.ToolCall{w("Paris"), w("Rome")}, 1, 1, ""},
		{"extra call", []agentcheck.ToolCall{w("Paris"), w("Paris")}, []agentcheck.ToolCall{w("Paris")}, 0, 0, "Length mismatch: predicted tool calls (2) vs reference tool calls (1). Only the first 1 tool calls will be compared."},
		{"missing call", []agentcheck.ToolCall{w("Paris")}, []agentcheck.ToolCall{w("Paris"), call("book", `{}`)}, 0, 0, "Length mismatch"},
		{"swapped", []agentcheck.ToolCall{call("book", `{}`), w("Paris")}, []agentcheck.ToolCall{w("Paris"), call("book", `{}`)}, 0, 1, ""},
		// Paired after sorting, not by best match.
		{"sorted pairing", []agentcheck.ToolCall{w("Berlin"), w("Paris")}, []agentcheck.ToolCall{w("Paris"), w("London")}, 0, 0.5, ""},
		{"int vs float", []agentcheck.ToolCall{call("f", `{"n": 1}`)}, []agentcheck.ToolCall{call("f", `{"n": 1.0}`)}, 0, 0, ""},
		{"bool vs its str", []agentcheck.ToolCall{call("f", `{"b": true}`)}, []agentcheck.ToolCall{call("f", `{"b": "True"}`)}, 1, 1, ""},
		{"null vs None", []agentcheck.ToolCall{call("f", `{"b": null}`)}, []agentcheck.ToolCall{call("f", `{"b": "None"}`)}, 1, 1, ""},
		{"list vs its str", []agentcheck.ToolCall{call("f", `{"b": "[1, 'a']"}`)}, []agentcheck.ToolCall{call("f", `{"b": [1, "a"]}`)}, 1, 1, ""},
		{"float vs its str", []agentcheck.ToolCall{call("f", `{"b": "1e-05"}`)}, []agentcheck.ToolCall{call("f", `{"b": 0.00001}`)}, 1, 1, ""},
		{"nested key order", []agentcheck.ToolCall{call("f", `{"o": {"a": 1, "b": 2}}`)}, []agentcheck.ToolCall{call("f", `{"o": {"b": 2, "a": 1}}`)}, 0, 0, ""},
		{"extra args ignored", []agentcheck.ToolCall{call("f", `{"a": 1, "z": 2}`)}, []agentcheck.ToolCall{call("f", `{"a": 1}`)}, 1, 1, ""},
		{"missing arg", []agentcheck.ToolCall{call("f", `{"a": 1}`)}, []agentcheck.ToolCall{call("f", `{"a": 1, "b": 2, "c": 3}`)}, 1.0 / 3, 1.0 / 3, ""},
		{"no args both", []agentcheck.ToolCall{call("f", `{}`)}, []agentcheck.ToolCall{{Name: "f"}}, 1, 1, ""},
		{"reference without args", []agentcheck.ToolCall{call("f", `{"a": 1}`)}, []agentcheck.ToolCall{call("f", `{}`)}, 0, 0, ""},
		{"renamed", []agentcheck.ToolCall{call("g", `{"a": 1}`)}, []agentcheck.ToolCall{call("f", `{"a": 1}`)}, 0, 0, ""},
		// Any order sorts by name, then by arguments in key order.
		{"same name any order", []agentcheck.ToolCall{w("b"), w("a"), call("x", `{}`)}, []agentcheck.ToolCall{call("x", `{}`), w("a"), w("b")}, 0, 1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, c := range []struct {
				m    ToolCallAccuracy
				want float64
			}{{ToolCallAccuracy{}, tt.strict}, {ToolCallAccuracy{AnyOrder: true}, tt.anyOrder}} {
				r := c.m.Compare(tt.pred, tt.ref)
				if r.Score != c.want {
					t.Errorf("AnyOrder=%v: score %v, want %v (%s)", c.m.AnyOrder, r.Score, c.want, r.Reason)
				}
				if tt.warnPrefix == "" && len(r.Warnings) > 0 || tt.warnPrefix != "" && (len(r.Warnings) != 1 || !strings.HasPrefix(r.Warnings[0], tt.warnPrefix)) {
					t.Errorf("AnyOrder=%v: warnings %q, want one starting %q", c.m.AnyOrder, r.Warnings, tt.warnPrefix)
				}
				if r.Metric != "tool_call_accuracy" || r.Reason == "" {
					t.Errorf("metric %q, reason %q", r.Metric, r.Reason)
				}
			}
		})
	}
}

func TestToolCallAccuracyExplains(t *testing.T) {
	pred := []agentcheck.ToolCall{call("search", `{"q": "go"}`), call("open", `{"url": "x"}`), call("close", `{}`)}
	ref := []agentcheck.ToolCall{call("open", `{"url": "x"}`), call("search", `{"q": "golang"}`)}
	r := ToolCallAccuracy{}.Compare(pred, ref)
	want := []CallPair{
		{Reference: 0, Predicted: 0},
		{Reference: 1, Predicted: 1},
		{Reference: -1, Predicted: 2},
	}
	if diff := cmp.Diff(want, r.Pairs); diff != "" {
		t.Errorf("strict pairs (-want +got):\n%s", diff)
	}
	if want := "the called tools [search, open, close] do not match the reference [open, search] in order, so the score is 0"; r.Reason != want {
		t.Errorf("reason %q, want %q", r.Reason, want)
	}
	// Any order: both sides sorted by name; "close" sorts first and pairs
	// with "open"; the other pairs line up by name.
	r = ToolCallAccuracy{AnyOrder: true}.Compare(pred, ref)
	want = []CallPair{
		{Reference: 0, Predicted: 2},
		{Reference: 1, Predicted: 1},
		{Reference: -1, Predicted: 0},
	}
	if diff := cmp.Diff(want, r.Pairs); diff != "" {
		t.Errorf("any-order pairs (-want +got):\n%s", diff)
	}
	if !strings.HasSuffix(r.Reason, "in any order, so the score is 0") {
		t.Errorf("reason %q", r.Reason)
	}
	// A matching sample: pairs carry argument scores.
	pred = []agentcheck.ToolCall{call("search", `{"q": "go", "n": 1}`), call("open", `{"url": "x"}`)}
	ref = []agentcheck.ToolCall{call("search", `{"q": "go", "n": 2}`), call("open", `{"url": "x"}`)}
	r = ToolCallAccuracy{}.Compare(pred, ref)
	want = []CallPair{{0, 0, 0.5, false}, {1, 1, 1, true}}
	if diff := cmp.Diff(want, r.Pairs); diff != "" || r.Score != 0.75 {
		t.Errorf("score %v, pairs (-want +got):\n%s", r.Score, diff)
	}
	if want := "2 calls aligned by name; mean argument score 0.75"; r.Reason != want {
		t.Errorf("reason %q, want %q", r.Reason, want)
	}
	if got := r.String(); got != "tool_call_accuracy = 0.75: "+r.Reason {
		t.Errorf("String() = %q", got)
	}
	// Unpaired sides when one is empty.
	r = ToolCallAccuracy{}.Compare(nil, ref)
	if diff := cmp.Diff([]CallPair{{0, -1, 0, false}, {1, -1, 0, false}}, r.Pairs); diff != "" || r.Reason != "no tool calls made, 2 expected" {
		t.Errorf("reason %q, pairs (-want +got):\n%s", r.Reason, diff)
	}
	r = ToolCallAccuracy{}.Compare(pred, nil)
	if diff := cmp.Diff([]CallPair{{-1, 0, 0, false}, {-1, 1, 0, false}}, r.Pairs); diff != "" || r.Reason != "no tool calls expected, 2 made" {
		t.Errorf("reason %q, pairs (-want +got):\n%s", r.Reason, diff)
	}
}

func TestToolCallMetricsEvaluate(t *testing.T) {
	s := agentcheck.Sample{Conversation: agentcheck.Conversation{
		{Role: agentcheck.Human, Content: "hi"},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{call("a", `{"x": 1}`)}},
		{Role: agentcheck.Tool, Content: "ok"},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{call("b", `{}`)}},
	}}
	if _, err := (ToolCallAccuracy{}).Evaluate(context.Background(), s); err == nil || !strings.Contains(err.Error(), "reference_tool_calls") {
		t.Errorf("accuracy without reference calls: err = %v", err)
	}
	r, err := ToolCallF1{}.Evaluate(context.Background(), s)
	if err != nil || r.Score != 0 || r.Metric != "tool_call_f1" {
		t.Errorf("F1 without reference calls = %v, %v; want 0 as ragas scores it against nothing", r, err)
	}
	s.ReferenceToolCalls = []agentcheck.ToolCall{call("a", `{"x": 1.0}`), call("b", `{}`)}
	r, err = ToolCallAccuracy{}.Evaluate(context.Background(), s)
	if err != nil || r.Score != 0.5 {
		t.Errorf("accuracy = %v, %v; want 0.5 (calls from every ai message, 1 != 1.0)", r, err)
	}
	r, err = ToolCallF1{}.Evaluate(context.Background(), s)
	if err != nil || r.Score != 1 {
		t.Errorf("F1 = %v, %v; want 1 (1 == 1.0)", r, err)
	}
	for _, m := range []Metric{ToolCallAccuracy{}, ToolCallF1{}} {
		if m.Name() == "" {
			t.Errorf("%T has no name", m)
		}
	}
}

func TestToolCallF1Spec(t *testing.T) {
	tests := []struct {
		name      string
		pred, ref []agentcheck.ToolCall
		want      float64
	}{
		{"both empty", nil, nil, 0},
		{"same", []agentcheck.ToolCall{call("a", `{"x": 1}`)}, []agentcheck.ToolCall{call("a", `{"x": 1}`)}, 1},
		{"python equality", []agentcheck.ToolCall{call("a", `{"x": 1, "y": {"p": [1, 0]}}`)}, []agentcheck.ToolCall{call("a", `{"y": {"p": [true, false]}, "x": 1.0}`)}, 1},
		{"string is not a number", []agentcheck.ToolCall{call("a", `{"x": "1"}`)}, []agentcheck.ToolCall{call("a", `{"x": 1}`)}, 0},
		{"list order matters", []agentcheck.ToolCall{call("a", `{"x": [1, 2]}`)}, []agentcheck.ToolCall{call("a", `{"x": [2, 1]}`)}, 0},
		{"duplicates collapse", []agentcheck.ToolCall{call("a", `{}`), call("a", `{}`), call("a", `{}`)}, []agentcheck.ToolCall{call("a", `{}`)}, 1},
		{"no args is empty args", []agentcheck.ToolCall{{Name: "a"}}, []agentcheck.ToolCall{call("a", `{}`)}, 1},
		{"one of two", []agentcheck.ToolCall{call("a", `{}`)}, []agentcheck.ToolCall{call("a", `{}`), call("b", `{}`)}, 0.6667},
		{"two of three, one extra", []agentcheck.ToolCall{call("a", `{}`), call("b", `{}`), call("c", `{}`)}, []agentcheck.ToolCall{call("a", `{}`), call("b", `{}`), call("d", `{}`)}, 0.6667},
		{"NaN equals NaN as json decodes it", []agentcheck.ToolCall{call("a", `{"x": NaN}`)}, []agentcheck.ToolCall{call("a", `{"x": NaN}`)}, 1},
		{"name with separator", []agentcheck.ToolCall{call("a:1", `{}`)}, []agentcheck.ToolCall{call("a", `{"1": null}`)}, 0},
		{"one in three", []agentcheck.ToolCall{call("a", `{}`)}, []agentcheck.ToolCall{call("a", `{}`), call("b", `{}`), call("c", `{}`), call("d", `{}`), call("e", `{}`), call("f", `{}`)}, 0.2857},
	}
	for _, tt := range tests {
		r := ToolCallF1{}.Compare(tt.pred, tt.ref)
		if r.Score != tt.want {
			t.Errorf("%s: F1 = %v, want %v (%s)", tt.name, r.Score, tt.want, r.Reason)
		}
	}
	// Pairs: every reference call with an equal predicted call, first
	// come first served; then the predicted calls left over.
	pred := []agentcheck.ToolCall{call("b", `{}`), call("a", `{"x": 1}`), call("a", `{"x": 1.0}`), call("c", `{}`)}
	ref := []agentcheck.ToolCall{call("a", `{"x": true}`), call("d", `{}`), call("a", `{"x": 1}`), call("b", `{}`)}
	r := ToolCallF1{}.Compare(pred, ref)
	want := []CallPair{{0, 1, 1, true}, {1, -1, 0, false}, {2, 2, 1, true}, {3, 0, 1, true}, {-1, 3, 0, false}}
	if diff := cmp.Diff(want, r.Pairs); diff != "" {
		t.Errorf("pairs (-want +got):\n%s", diff)
	}
	if want := "2 of 3 distinct calls made were expected (precision 0.6666666666666666), 2 of 3 distinct expected calls were made (recall 0.6666666666666666)"; r.Reason != want || r.Score != 0.6667 {
		t.Errorf("score %v, reason %q, want %q", r.Score, r.Reason, want)
	}
}

// TestToolCallMetricsPermutations: F1 is a function of two sets, and
// any-order accuracy of two sorted lists, so shuffling either side must
// not change them; checked on every Python vector.
func TestToolCallMetricsPermutations(t *testing.T) {
	t.Parallel() // it overlaps the package's other slow tests
	r := rand.New(rand.NewPCG(3, 4))
	n := 0
	forEachPyVector(t, func(line int, s agentcheck.Sample) {
		pred, ref := s.Conversation.ToolCalls(), s.ReferenceToolCalls
		f1 := ToolCallF1{}.Compare(pred, ref)
		acc := ToolCallAccuracy{AnyOrder: true, ArgSimilarity: Levenshtein}.Compare(pred, ref)
		sp, sr := slices.Clone(pred), slices.Clone(ref)
		r.Shuffle(len(sp), func(i, j int) { sp[i], sp[j] = sp[j], sp[i] })
		r.Shuffle(len(sr), func(i, j int) { sr[i], sr[j] = sr[j], sr[i] })
		if got := (ToolCallF1{}).Compare(sp, sr); got.Score != f1.Score || got.Reason != f1.Reason || len(got.Pairs) != len(f1.Pairs) {
			t.Errorf("line %d: shuffled F1 %v, was %v", line, got, f1)
		}
		if got := (ToolCallAccuracy{AnyOrder: true, ArgSimilarity: Levenshtein}).Compare(sp, sr); math.Float64bits(got.Score) != math.Float64bits(acc.Score) {
			t.Errorf("line %d: shuffled any-order accuracy %v, was %v", line, got.Score, acc.Score)
		}
		n++
	})
	if n < 1000 {
		t.Fatalf("only %d samples", n)
	}
}

// forEachPyVector parses the samples of testdata/pyvectors.jsonl.
func forEachPyVector(t *testing.T, f func(line int, s agentcheck.Sample)) {
	t.Helper()
	data, err := os.ReadFile("testdata/pyvectors.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		end := strings.LastIndex(text, `,"kind":"sample"`)
		if end < 0 {
			continue
		}
		s, err := agentcheck.ParseSample(text[len(`{"sample":`):end])
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		f(i+1, s)
	}
}

// TestSortKeyOrder: the byte encoding of ragas's sort tuples compares as
// Python compares the tuples (element by element, shorter prefix first),
// including elements with 0 bytes and code points past the BMP.
func TestSortKeyOrder(t *testing.T) {
	alphabet := []string{"", "\x00", "\x00\x00", "\x01", "a", "a\x00", "ab", "\xff", "é", "😀", "\ud7ff", "\ue000", "\x7f"}
	r := rand.New(rand.NewPCG(5, 6))
	tuple := func() []string {
		n := r.IntN(4)
		out := make([]string, n)
		for i := range out {
			for range r.IntN(3) {
				out[i] += alphabet[r.IntN(len(alphabet))]
			}
		}
		return out
	}
	enc := func(tu []string) []byte {
		var b []byte
		for _, s := range tu {
			b = appendKeyPart(b, s)
		}
		return b
	}
	for range 20000 {
		a, b := tuple(), tuple()
		want := slices.Compare(a, b) // Go compares strings by bytes: UTF-8 code point order
		if got := bytes.Compare(enc(a), enc(b)); got != want {
			t.Fatalf("%q vs %q: encoded compare %d, tuples compare %d", a, b, got, want)
		}
	}
}

// TestToolCallF1PairwiseAgreesWithKeys checks that the pairwise comparison
// ToolCallF1 uses for a few calls counts and pairs exactly as the set keys
// do, on 5,000 random cases of calls built from values Python's == treats
// specially. They cover the package's code that the 20,000 it had covered
// (go test -coverprofile, the same blocks);
// FuzzToolCallF1PairwiseAgreesWithKeys draws more.
func TestToolCallF1PairwiseAgreesWithKeys(t *testing.T) {
	t.Parallel() // slow: it overlaps the package's other slow tests
	checkF1PairwiseAgreesWithKeys(t, rand.New(rand.NewPCG(7, 11)), 5000)
}

// FuzzToolCallF1PairwiseAgreesWithKeys is
// TestToolCallF1PairwiseAgreesWithKeys on 50 cases a seed draws.
func FuzzToolCallF1PairwiseAgreesWithKeys(f *testing.F) {
	f.Add(uint64(1))
	f.Add(uint64(2))
	f.Fuzz(func(t *testing.T, seed uint64) {
		checkF1PairwiseAgreesWithKeys(t, rand.New(rand.NewPCG(seed, 11)), 50)
	})
}

// checkF1PairwiseAgreesWithKeys fails t unless the pairwise comparison
// counts and pairs as the set keys do on cases random cases rng draws.
func checkF1PairwiseAgreesWithKeys(t *testing.T, rng *rand.Rand, cases int) {
	t.Helper()
	vals := []string{`1`, `1.0`, `true`, `false`, `0`, `-0`, `0.0`, `-0.0`, `NaN`, `Infinity`, `-Infinity`,
		`0.5`, `9007199254740993`, `9007199254740992.0`, `1e300`, `null`, `"1"`, `"a"`, `""`, `[]`, `{}`,
		`[1, "a"]`, `[1.0, "a"]`, `["a", 1]`, `{"x": 1, "y": [2]}`, `{"y": [2.0], "x": true}`, `{"x": 1, "x": 2}`, `{"x": 2, "x": 1}`}
	keys := []string{"a", "b", "c"}
	randCall := func() agentcheck.ToolCall {
		name := []string{"f", "g"}[rng.IntN(2)]
		switch rng.IntN(6) {
		case 0:
			return agentcheck.ToolCall{Name: name}
		case 1:
			return agentcheck.ToolCall{Name: name, Args: jsonvalue.MustParse(vals[rng.IntN(len(vals))])}
		}
		var b strings.Builder
		b.WriteByte('{')
		for i, k := range rng.Perm(len(keys))[:rng.IntN(len(keys)+1)] {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(`"` + keys[k] + `": ` + vals[rng.IntN(len(vals))])
		}
		b.WriteByte('}')
		return agentcheck.MustParseToolCall(name, b.String())
	}
	for n := range cases {
		np, nr := rng.IntN(9), rng.IntN(9)
		pred, ref := make([]agentcheck.ToolCall, np), make([]agentcheck.ToolCall, nr)
		for i := range pred {
			pred[i] = randCall()
		}
		for i := range ref {
			if i < np && rng.IntN(3) == 0 {
				ref[i] = pred[rng.IntN(np)]
			} else {
				ref[i] = randCall()
			}
		}
		if rng.IntN(4) == 0 {
			// The same calls on both sides (sameCalls), NaNs and
			// repeated keys among their arguments.
			ref, nr = slices.Clone(pred), np
		}
		type counts struct {
			Actual, Expected, TP, Paired int
			Match                        []int
		}
		run := func(f func(p, r []agentcheck.ToolCall, m []int) (int, int, int, int)) counts {
			m := make([]int, nr)
			for i := range m {
				m[i] = -1
			}
			a, e, tp, pa := f(pred, ref, m)
			return counts{a, e, tp, pa, m}
		}
		sc := getScratch()
		want := run(sc.f1Sorted)
		scratchPool.Put(sc)
		got := run(f1Pairwise)
		// cmp.Diff, slow, only to show how they differ.
		if want.Actual != got.Actual || want.Expected != got.Expected || want.TP != got.TP || want.Paired != got.Paired || !slices.Equal(want.Match, got.Match) {
			t.Fatalf("case %d: pred %v ref %v: pairwise differs from keys (-keys +pairwise):\n%s", n, pred, ref, cmp.Diff(want, got))
		}
	}
}

// TestAppendRatio checks the table of precision and recall texts against
// strconv, and the fallback past it.
func TestAppendRatio(t *testing.T) {
	for d := range 40 {
		for n := range d + 1 {
			x := 0.0
			if d > 0 {
				x = float64(n) / float64(d)
			}
			if got, want := string(appendRatio(nil, n, d, x)), strconv.FormatFloat(x, 'f', -1, 64); got != want {
				t.Errorf("appendRatio(%d, %d) = %q, want %q", n, d, got, want)
			}
		}
	}
}

// A 125-byte key is written with the byte that closes an object; the keys of
// two different argument sets must still differ.
func TestToolCallF1KeysDoNotCollideOnLongKeys(t *testing.T) {
	long := strings.Repeat("k", 125)
	a := agentcheck.MustParseToolCall("f", `{"a":{"b":1},"`+long+`":2}`)
	b := agentcheck.MustParseToolCall("f", `{"a":{"b":1,"`+long+`":2}}`)
	var ka, kb []byte
	ka = appendSetKey(ka, &a)
	kb = appendSetKey(kb, &b)
	if string(ka) == string(kb) {
		t.Fatalf("different arguments share the key %q", ka)
	}
	many := make([]agentcheck.ToolCall, 0, 20)
	for i := 0; i < 10; i++ {
		many = append(many, a)
	}
	for i := 0; i < 10; i++ {
		many = append(many, b)
	}
	// Over 16 calls F1 counts by keys: 2 distinct calls, 1 of them expected.
	if r := (ToolCallF1{}).Compare(many, []agentcheck.ToolCall{a}); r.Score != pytext.Round(2*0.5*1/(0.5+1), 4) {
		t.Errorf("F1 = %v, want %v: the two argument sets were taken as one", r.Score, pytext.Round(2*0.5*1/(0.5+1), 4))
	}
}

// TestScoreIsCompareScore: Score and AppendReason, the CLI's paths, give
// bit for bit the score Compare explains, and AppendReason its reason
// after what dst held, for every vector and every mode.
func TestScoreIsCompareScore(t *testing.T) {
	t.Parallel() // it overlaps the package's other slow tests
	accs := []ToolCallAccuracy{{}, {AnyOrder: true}, {ArgSimilarity: Levenshtein}, {AnyOrder: true, ArgSimilarity: Levenshtein}}
	n := 0
	type metric interface {
		Compare(predicted, reference []agentcheck.ToolCall) Result
		Score(predicted, reference []agentcheck.ToolCall) float64
		AppendReason(dst []byte, predicted, reference []agentcheck.ToolCall) (float64, []byte)
	}
	var ms []metric
	for _, m := range accs {
		ms = append(ms, m)
	}
	ms = append(ms, ToolCallF1{}, ToolCallF1{NamesOnly: true})
	forEachPyVector(t, func(line int, s agentcheck.Sample) {
		pred, ref := s.Conversation.ToolCalls(), s.ReferenceToolCalls
		for _, m := range ms {
			want := m.Compare(pred, ref)
			if got := m.Score(pred, ref); math.Float64bits(got) != math.Float64bits(want.Score) {
				t.Errorf("line %d: %#v: Score %v, Compare's score %v", line, m, got, want.Score)
			}
			score, reason := m.AppendReason([]byte("before: "), pred, ref)
			if math.Float64bits(score) != math.Float64bits(want.Score) || string(reason) != "before: "+want.Reason {
				t.Errorf("line %d: %#v: AppendReason gives %v, %q; Compare %v, %q", line, m, score, reason, want.Score, want.Reason)
			}
		}
		n++
	})
	if n < 1000 {
		t.Fatalf("only %d samples", n)
	}
}

// AppendReason, once its buffer has grown, allocates nothing: the CLI
// explains every imperfect score of a large dataset with it.
func TestAppendReasonAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("under the race detector, sync.Pool drops scratch memory at random")
	}
	pred := []agentcheck.ToolCall{
		{Name: "search", Args: jsonvalue.MustParse(`{"q": "paris", "n": 3}`)},
		{Name: "book", Args: jsonvalue.MustParse(`{"city": "Paris"}`)},
	}
	ref := []agentcheck.ToolCall{
		{Name: "search", Args: jsonvalue.MustParse(`{"q": "paris", "n": 4}`)},
		{Name: "book", Args: jsonvalue.MustParse(`{"city": "Paris"}`)},
		{Name: "pay", Args: jsonvalue.MustParse(`{}`)},
	}
	buf := make([]byte, 0, 512)
	for _, m := range []interface {
		AppendReason(dst []byte, predicted, reference []agentcheck.ToolCall) (float64, []byte)
	}{ToolCallAccuracy{}, ToolCallAccuracy{AnyOrder: true}, ToolCallF1{}} {
		if n := testing.AllocsPerRun(100, func() { _, buf = m.AppendReason(buf[:0], pred, ref) }); n != 0 {
			t.Errorf("%#v: AppendReason allocates %v times a call, want 0", m, n)
		}
	}
}

// The same calls in the same order score 1 without being paired
// (sameCalls), and that is Compare's score and reason, which pairs them:
// on random reference lists, each made again from its text (the same
// arguments' source), from values built in code (no source), with an
// argument changed, two calls swapped, arguments invalid, a name changed,
// or a call more (arguments of every shape, absent and an array among
// them); in order and in any order. The 5,000 lists cover the package's
// code that the 20,000 it had covered (go test -coverprofile, the same
// blocks); FuzzSameCallsScoreAsPaired draws more.
func TestSameCallsScoreAsPaired(t *testing.T) {
	t.Parallel() // it overlaps the package's other slow tests
	const lists = 5000
	if same := checkSameCallsScoreAsPaired(t, rand.New(rand.NewPCG(11, 12)), lists); same < lists/5 {
		t.Fatalf("only %d of the %d lists were the same calls", same, lists)
	}
}

// FuzzSameCallsScoreAsPaired is TestSameCallsScoreAsPaired on 50 lists a
// seed draws.
func FuzzSameCallsScoreAsPaired(f *testing.F) {
	f.Add(uint64(1))
	f.Add(uint64(2))
	f.Fuzz(func(t *testing.T, seed uint64) {
		checkSameCallsScoreAsPaired(t, rand.New(rand.NewPCG(seed, 12)), 50)
	})
}

// checkSameCallsScoreAsPaired fails t unless, on lists random reference
// lists r draws and the calls made from each, the score and reason without
// pairing are Compare's; it is how many were the same calls.
func checkSameCallsScoreAsPaired(t *testing.T, r *rand.Rand, lists int) (same int) {
	t.Helper()
	texts := []string{`{"q": "paris", "n": 3}`, `{"n": 3, "q": "paris"}`, `{"q": "paris", "n": 3.0}`, `{}`, `{"a": [1, 2], "b": {"c": null}}`, `[1, 2]`, `null`}
	names := []string{"search", "book", "pay"}
	call := func() (agentcheck.ToolCall, string) {
		text := texts[r.IntN(len(texts))]
		return agentcheck.ToolCall{Name: names[r.IntN(len(names))], Args: jsonvalue.MustParse(text)}, text
	}
	for range lists {
		n := r.IntN(6)
		ref := make([]agentcheck.ToolCall, n)
		srcs := make([]string, n)
		for i := range ref {
			ref[i], srcs[i] = call()
		}
		pred := make([]agentcheck.ToolCall, n)
		for i := range pred {
			pred[i] = agentcheck.ToolCall{Name: ref[i].Name, Args: jsonvalue.MustParse(srcs[i])}
		}
		if n > 0 {
			i := r.IntN(n)
			switch r.IntN(10) {
			case 0: // the same values, built in code: no source
				if pred[i].Args.Kind() == jsonvalue.ObjectKind {
					pred[i].Args = jsonvalue.Object(pred[i].Args.Members()...)
				}
			case 7: // the same values, from other text
				pred[i].Args = jsonvalue.MustParse(string(mustMarshal(pred[i].Args)))
			case 8: // both built in code (no source), the values apart
				ref[i].Args = jsonvalue.Object(jsonvalue.Member{Key: "q", Value: jsonvalue.Int(1)})
				pred[i].Args = jsonvalue.Object(jsonvalue.Member{Key: "q", Value: jsonvalue.Int(2)})
			case 1:
				pred[i].Args = jsonvalue.MustParse(`{"q": "rome", "n": 3}`)
			case 2:
				j := r.IntN(n)
				pred[i], pred[j] = pred[j], pred[i]
			case 3:
				pred[i].InvalidArgs, pred[i].Args = "{oops", jsonvalue.Value{}
			case 4:
				ref[i].InvalidArgs, ref[i].Args = "{oops", jsonvalue.Value{}
			case 5:
				pred[i].Name = "other"
			case 6:
				extra, _ := call()
				pred = append(pred, extra)
			}
		}
		if sameCalls(pred, ref) {
			same++
		}
		for _, m := range []interface {
			Compare(predicted, reference []agentcheck.ToolCall) Result
			AppendReason(dst []byte, predicted, reference []agentcheck.ToolCall) (float64, []byte)
		}{ToolCallAccuracy{}, ToolCallAccuracy{AnyOrder: true}, ToolCallAccuracy{AnyOrder: true, ArgSimilarity: Levenshtein}} {
			want := m.Compare(pred, ref)
			score, reason := m.AppendReason(nil, pred, ref)
			if math.Float64bits(score) != math.Float64bits(want.Score) || string(reason) != want.Reason {
				t.Fatalf("%#v on %v vs %v: AppendReason gives %v, %q; Compare %v, %q", m, pred, ref, score, reason, want.Score, want.Reason)
			}
		}
	}
	return same
}
