package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// oddTexts are texts a transcript or an id may hold that every format must
// carry without harm: markup, quotes, line breaks, runner commands, escape
// sequences, a bidi override, non-ASCII.
var oddTexts = []string{
	"plain", `<script>alert("x")</script>`, "a|b`c*d_e[f]", "line\nbreak\r\n", "::error::pwned", "##[warning]v1",
	"\x1b[31mred", "bidi\u202eevil", "naïve 東京 😀", `"quoted" & 'single'`, "tab\there", "", "<img src=x onerror=alert(1)>",
}

func oddText(rng *rand.Rand) string { return oddTexts[rng.IntN(len(oddTexts))] }

// genRun makes a random run: any mix of statuses, NaN scores, reasons,
// verdicts, transcripts, repeated runs, gates and a baseline, and odd
// texts everywhere a text goes.
func genRun(rng *rand.Rand) *Run {
	names := []string{"tool_call_accuracy", "tool_call_f1", "agent_goal_accuracy", "topic_adherence", "trajectory_match"}[:1+rng.IntN(5)]
	r := &Run{Title: oddText(rng), Inputs: []string{oddText(rng) + ".jsonl"}, Commit: oddText(rng)}
	if rng.IntN(2) == 0 {
		r.Started = time.Date(2026, 11, 26, 5, rng.IntN(60), rng.IntN(60), rng.IntN(1e9), time.UTC)
		r.Duration = time.Duration(rng.Int64N(int64(time.Hour)))
		r.Judges = []string{"gpt-4o-mini", oddText(rng)}
		r.PromptVersions = []string{"goal/v1"}
		r.CassetteMode = "replay"
	}
	for _, n := range names {
		r.Metrics = append(r.Metrics, MetricSummary{Name: n, Threshold: float64(rng.IntN(11)) / 10})
	}
	gen := func(i int, runs bool) Case {
		c := Case{ID: oddText(rng), File: oddText(rng), Line: i + 1, Index: i, Request: oddText(rng)}
		if rng.IntN(3) == 0 {
			c.ID = ""
		}
		switch rng.IntN(4) {
		case 0:
			c.Status, c.Error = Error, "could not: "+oddText(rng)
			return c
		case 1:
			c.Status = Fail
			c.Failures = []string{"Expected more: " + oddText(rng)}
			c.Report = "report\n" + oddText(rng)
			c.Transcript = []Message{{Role: "human", Content: oddText(rng)}, {Role: "ai", Reasoning: oddText(rng), Calls: []Call{{Name: oddText(rng), Args: `{"a":1}`}}}}
			c.Verdicts = []Verdict{{Metric: names[0], Judge: "gpt-4o-mini", Score: 0.5, Reason: oddText(rng), Criteria: []Criterion{{Name: oddText(rng), Met: true, Reason: oddText(rng)}}, Error: oddText(rng), Source: "cassette.yaml"}}
		case 2:
			c.Status = Flaky
		default:
			c.Status = Pass
		}
		for j := range names {
			x := float64(rng.IntN(1000)) / 999
			if rng.IntN(10) == 0 {
				x = math.NaN()
			}
			c.Scores = append(c.Scores, x)
			r.Metrics[j].Add(x)
		}
		if rng.IntN(2) == 0 {
			c.Reasons = make([]string, len(names))
			c.Reasons[rng.IntN(len(names))] = "why: " + oddText(rng)
		}
		return c
	}
	n := rng.IntN(20)
	for i := range n {
		c := gen(i, true)
		if c.Status == Flaky {
			c.Runs = []Case{gen(i, false), gen(i, false)}
		}
		r.Cases = append(r.Cases, c)
		r.Samples++
		if c.Status == Error {
			r.Errors++
		}
		if c.Status == Fail {
			r.Failed++
		}
	}
	for range rng.IntN(3) {
		// An input error: no sample, where it was met.
		r.Cases = append(r.Cases, Case{File: oddText(rng), Line: rng.IntN(9), Index: -1, Status: Error, Error: "unread: " + oddText(rng)})
		r.Unread++
	}
	r.Gates = []Gate{
		{Name: "--fail-under " + names[0], Flag: "fail-under", Kind: gateMean, Metric: names[0], Threshold: 0.9, Value: r.Metrics[0].Mean, Pass: rng.IntN(2) == 0, Detail: oddText(rng)},
		{Name: "--sample-threshold " + names[0], Flag: "sample-threshold", Kind: gateSample, Metric: names[0], Threshold: 0.5, Value: math.NaN(), Below: 3, Cases: []string{oddText(rng), oddText(rng)}},
		{Name: "pass@3", Kind: "pass@3", Threshold: 0.8, Value: 0.5, Below: 1, Cases: []string{oddText(rng)}, Detail: oddText(rng)},
	}
	if rng.IntN(2) == 0 {
		r.Baseline = &Comparison{File: oddText(rng), Tolerance: 0.01, Regressions: []Delta{{Case: oddText(rng), Metric: names[0], Old: 1, New: 0.5}},
			NewlyFailing: 4, Improvements: []Delta{{Case: oddText(rng), Metric: names[0], Old: 0, New: 1}}, NewlyPassing: 1,
			New: 2, NewCases: []string{oddText(rng)}, Missing: 1, MissingCases: []string{oddText(rng)}, Unknown: []string{"x"}}
	}
	r.Problems = []string{oddText(rng)}
	r.Pass = rng.IntN(2) == 0
	return r
}

var cmpRun = []cmp.Option{cmpopts.EquateNaNs(), cmpopts.IgnoreUnexported(MetricSummary{}), cmpopts.EquateEmpty()}

// TestJSONRoundTrip: ReadJSON of a --format json rendering gives back the
// Run that was written, over generated runs: written again, the same
// bytes, on 120 runs (any field ReadJSON lost would be missing), and the
// same Run field by field (cmp, slow under -race) on 24 of them (any
// field Write left out would be missing).
func TestJSONRoundTrip(t *testing.T) {
	t.Parallel() // slow: it overlaps the package's other slow tests
	// 120 seeds in four parallel parts (300 took 2 s of CPU under -race);
	// FuzzJSONRoundTrip draws more.
	const parts = 4
	for p := range uint64(parts) {
		t.Run(fmt.Sprint(p), func(t *testing.T) {
			t.Parallel()
			for seed := p; seed < 120; seed += parts {
				checkJSONRoundTrip(t, seed, seed%5 == 0)
			}
		})
	}
}

// FuzzJSONRoundTrip is TestJSONRoundTrip on the run a seed draws.
func FuzzJSONRoundTrip(f *testing.F) {
	f.Add(uint64(300))
	f.Fuzz(func(t *testing.T, seed uint64) {
		checkJSONRoundTrip(t, seed, true)
	})
}

// checkJSONRoundTrip writes the run seed draws as JSON and reads it back:
// written again, the bytes are the same, and with compare, what is read is
// what was written.
func checkJSONRoundTrip(t *testing.T, seed uint64, compare bool) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	want := genRun(rng)
	var out bytes.Buffer
	if err := Write(&out, want, JSON); err != nil {
		t.Fatal(err)
	}
	got, err := ReadJSON(bytes.NewReader(out.Bytes()), "run.json")
	if err != nil {
		t.Fatalf("seed %d: %v\n%s", seed, err, out.Bytes())
	}
	if compare {
		if d := cmp.Diff(want, got, cmpRun...); d != "" {
			t.Fatalf("seed %d: read back differs (-written +read):\n%s\n%s", seed, d, out.Bytes())
		}
	}
	var again bytes.Buffer
	if err := Write(&again, got, JSON); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), again.Bytes()) {
		t.Fatalf("seed %d: rewritten differs:\n%s", seed, cmp.Diff(out.String(), again.String()))
	}
}

// TestEveryFormatCarriesOddTexts: every format carries ids and reasons
// with odd characters escaped: the XML parses to the same text, the
// Markdown holds no raw markup, no format a line a runner reads as a
// command.
func TestEveryFormatCarriesOddTexts(t *testing.T) {
	r := &Run{Title: "agentcheck eval", Inputs: []string{"a.jsonl"}, Metrics: []MetricSummary{{Name: "tool_call_f1"}}, Samples: 1, Failed: 1}
	id := "<b>x</b>|`y`\n::error::z"
	r.Cases = []Case{{ID: id, File: "a.jsonl", Line: 1, Status: Fail, Scores: []float64{0}, Reasons: []string{"no call to <script>book</script> was made"},
		Failures: []string{"Expected tool_call_f1 to be at least 0.5 (--sample-threshold), but it is 0.0: no call to <script>book</script> was made"}}}
	r.Metrics[0].Add(0)
	for f := range Format(HTML) {
		var out bytes.Buffer
		if err := Write(&out, r, f); err != nil {
			t.Fatalf("%v: %v", f, err)
		}
		s := out.String()
		for _, l := range strings.Split(s, "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), "::") || strings.Contains(l, "##[") {
				t.Errorf("%v: a line reads as a runner command: %q", f, l)
			}
		}
		if f != Table && !strings.Contains(s, "book") {
			t.Errorf("%v: the reason is not in the output:\n%s", f, s)
		}
		switch f {
		case JUnit:
			var doc struct {
				Cases []struct {
					Name    string `xml:"name,attr"`
					Failure struct {
						Message string `xml:"message,attr"`
						Text    string `xml:",chardata"`
					} `xml:"failure"`
				} `xml:"testsuite>testcase"`
			}
			if err := xml.Unmarshal(out.Bytes(), &doc); err != nil {
				t.Fatalf("junit does not parse: %v\n%s", err, s)
			}
			if len(doc.Cases) != 1 || doc.Cases[0].Name != `<b>x</b>|`+"`y`"+`\n::error::z` || !strings.Contains(doc.Cases[0].Failure.Text, "tool_call_f1 = 0.0: no call to <script>book</script> was made") {
				t.Errorf("junit: %+v", doc.Cases)
			}
		case Markdown:
			if strings.Contains(s, "<script>") || strings.Contains(s, "<b>") {
				t.Errorf("markdown holds raw markup:\n%s", s)
			}
			if !strings.Contains(s, `&lt;b&gt;x&lt;/b&gt;\|\`+"`y\\`") {
				t.Errorf("markdown: the id is not escaped as expected:\n%s", s)
			}
		}
	}
}

// TestMarkdownBound: a run with many failing cases with long reasons gives
// a step summary under MaxSummary that says how many cases it left out.
func TestMarkdownBound(t *testing.T) {
	r := &Run{Title: "agentcheck eval", Inputs: []string{"big.jsonl"}, Metrics: []MetricSummary{{Name: "tool_call_f1"}, {Name: "tool_call_accuracy"}}}
	long := strings.Repeat("the booking went to the wrong restaurant and time ", 40)
	// Every case's texts are the same strings, made once: 5,000 cases'
	// own copies were 30 MB to allocate, most of the test's CPU under
	// -race, for texts the summary cuts at maxMarkdownText all the same.
	f1, accuracy, failure := "f1: "+long, "accuracy: "+long, "Expected tool_call_f1 to be at least 0.5: "+long
	n := 5000
	for i := range n {
		r.Cases = append(r.Cases, Case{ID: fmt.Sprintf("case-%d", i), Line: i + 1, Status: Fail, Scores: []float64{0, 0},
			Reasons: []string{f1, accuracy}, Failures: []string{failure}})
	}
	r.Samples, r.Failed = n, n
	var out bytes.Buffer
	if err := Write(&out, r, Markdown); err != nil {
		t.Fatal(err)
	}
	if out.Len() > MaxSummary || out.Len() < MaxSummary*9/10 {
		t.Fatalf("the summary is %d bytes, want at most %d and near it", out.Len(), MaxSummary)
	}
	shownCases := strings.Count(out.String(), "\n- **case-")
	want := fmt.Sprintf("… and %d more failing cases left out: the step summary is kept under", n-shownCases)
	if !strings.Contains(out.String(), want) || shownCases == 0 {
		t.Fatalf("%d cases shown; no note %q in the tail:\n%s", shownCases, want, out.String()[out.Len()-500:])
	}
	// A small run is shown whole, with no note.
	r.Cases, r.Samples, r.Failed = r.Cases[:3], 3, 3
	out.Reset()
	if err := Write(&out, r, Markdown); err != nil {
		t.Fatal(err)
	}
	if strings.Count(out.String(), "\n- **case-") != 3 || strings.Contains(out.String(), "left out") {
		t.Fatalf("small run:\n%s", out.String())
	}
}

func TestFormatText(t *testing.T) {
	for f := range Format(HTML + 1) {
		text, err := f.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back Format
		if err := back.UnmarshalText(text); err != nil || back != f {
			t.Errorf("%v: read back as %v, %v", f, back, err)
		}
	}
	var f Format
	if err := f.UnmarshalText([]byte("yaml")); err == nil || !strings.Contains(err.Error(), `"yaml"`) {
		t.Errorf("yaml: %v", err)
	}
}

// TestReadJSONErrors: a bad run names the file, the line and the field.
func TestReadJSONErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"{\"samples\": [\n{\"tool_call_f1\": 1.0},\n{\"tool_call_f1\": \"high\"}\n], \"summary\": {}, \"run\": {\"metrics\": [{\"name\": \"tool_call_f1\"}]}}", `run.json:3: samples[1]: tool_call_f1: want a number or null, got "high"`},
		{"{\"samples\": [\n{\"reasons\": {\"f1\": \"x\"}, \"tool_call_f1\": 1.0}], \"summary\": {}, \"run\": {\"metrics\": [{\"name\": \"tool_call_f1\"}]}}", `run.json:2: samples[0]: reasons: f1 is not a metric of the run`},
		{"{\"samples\": [\n{\"line\": \"7\"}], \"summary\": {}, \"run\": {}}", `run.json:2: samples[0]: line: want a number, got a string`},
		{"{\"samples\": []}", `run.json: not a run written by --format json`},
		{"{\"samples\": [\n,", `run.json:2: not JSON`},
		{"{\"samples\": [], \"summary\": {\"gates\": [{\"kind\": 3}]}, \"run\": {}}", `run.json:1: summary.gates.kind: want a string, got a number`},
		{"[]", `run.json:1: the document: want an object, got an array`},
		{"{\"samples\": 5, \"summary\": {}, \"run\": {}}", `run.json:1: samples: want an array, got a number`},
		{"", `run.json: empty: not a run written by --format json`},
		{"{\"samples\": [\n{\"tool_call_f1\": 1.0},\n{\"tool_c", `run.json:3: cut short: the run's JSON ends there, after 45 bytes`},
	} {
		_, err := ReadJSON(strings.NewReader(tc.in), "run.json")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s:\n got %v\nwant %s", tc.in, err, tc.want)
		}
	}
}

func TestMetricSummary(t *testing.T) {
	var a, all MetricSummary
	a.Threshold, all.Threshold = 0.5, 0.5
	xs := []float64{0, 0.25, 0.5, 1, 1, math.NaN(), 0.95}
	for _, x := range xs {
		all.Add(x)
	}
	a.AddAll(xs[:3])
	a.AddAll(xs[3:])
	if d := cmp.Diff(all, a, cmpopts.EquateNaNs(), cmp.AllowUnexported(MetricSummary{})); d != "" {
		t.Errorf("added in two lists differs from added one by one: %s", d)
	}
	if all.N != 6 || all.Mean != 3.7/6 || all.PassRate != 4.0/6 || all.Histogram != [10]int{1, 0, 1, 0, 0, 1, 0, 0, 0, 3} {
		t.Errorf("%+v", all)
	}
	lo, hi := all.MeanInterval()
	if !(lo < all.Mean && all.Mean < hi) || math.Abs((hi-lo)/2-2.571*all.SD/math.Sqrt(6)) > 1e-12 {
		t.Errorf("mean interval [%v, %v] around %v (sd %v)", lo, hi, all.Mean, all.SD)
	}
	lo, hi = all.PassInterval()
	if !(lo > 0.29 && lo < 0.31 && hi > 0.90 && hi < 0.91) {
		t.Errorf("Wilson interval of 4/6: [%v, %v], want about [0.300, 0.903]", lo, hi)
	}
}

// TestPerfectPasses: against the default Threshold of 1, ragas's perfect
// TopicAdherence (1 - about 1e-10, never 1) passes, and a score a hair
// further below does not; other thresholds are taken literally.
func TestPerfectPasses(t *testing.T) {
	// ragas's F1 of a perfect topic run: precision = recall = n/(n+1e-10).
	for _, n := range []float64{1, 2, 3, 10, 1000} {
		p := n / (n + 1e-10)
		ta := 2 * p * p / (p + p + 1e-10)
		m := MetricSummary{Threshold: 1}
		if ta >= 1 || !m.Passes(ta) {
			t.Errorf("topic_adherence's perfect score %v for %v topics: Passes = %v", ta, n, m.Passes(ta))
		}
	}
	one := MetricSummary{Threshold: 1}
	for _, x := range []float64{0.999, 1 - 2e-9, math.NaN()} {
		if one.Passes(x) {
			t.Errorf("Passes(%v) against 1, want false", x)
		}
	}
	half := MetricSummary{Threshold: 0.5}
	if half.Passes(0.5-1e-12) || !half.Passes(0.5) {
		t.Errorf("a threshold under 1 is not literal")
	}
	one.Add(0.99999999985)
	one.Add(0.5)
	if one.PassRate != 0.5 {
		t.Errorf("PassRate %v, want 0.5", one.PassRate)
	}
}

// TestJSONStringsReadBack: the JSON formats escape what a terminal or a CI
// runner would act on and keep the data: a JSON reader reads every odd
// text back as it was.
func TestJSONStringsReadBack(t *testing.T) {
	for _, h := range append(oddTexts, "\u2028line sep", "emoji 😀 \U000E0001 tag", "bad utf8 \xff", "\x00nul") {
		p := appendString(nil, h)
		for _, r := range string(p) {
			if !strconv.IsPrint(r) {
				t.Errorf("appendString(%q) = %s holds %U", h, p, r)
			}
		}
		if bytes.Contains(p, []byte("##[")) {
			t.Errorf("appendString(%q) = %s holds a runner command", h, p)
		}
		var got string
		if err := json.Unmarshal(p, &got); err != nil {
			t.Fatalf("appendString(%q) = %s: %v", h, p, err)
		}
		if want := strings.ToValidUTF8(h, "\uFFFD"); got != want {
			t.Errorf("appendString(%q) = %s reads back as %q", h, p, got)
		}
	}
}

// TestSpool: a JUnit report larger than the memory allowed goes to a
// temporary file, which is removed after.
func TestSpool(t *testing.T) {
	s := spool{limit: 10}
	var want bytes.Buffer
	for _, p := range []string{"<a/>", "<bb/>", "<ccc/>", "<dddd/>"} {
		s.Write([]byte(p))
		want.WriteString(p)
	}
	if s.f == nil {
		t.Fatalf("17 bytes over a limit of 10 are still in memory")
	}
	name := s.f.Name()
	var got bytes.Buffer
	if err := s.writeTo(&got); err != nil || got.String() != want.String() {
		t.Errorf("writeTo: %v, %q, want %q", err, got.String(), want.String())
	}
	if err := s.close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(name); !os.IsNotExist(err) {
		t.Errorf("the temporary file is still there: %v", err)
	}
}

// FuzzAppendString: whatever the text, its JSON string reads back as the
// text (each byte that is not UTF-8 as U+FFFD) and holds nothing a terminal or a CI
// runner acts on.
func FuzzAppendString(f *testing.F) {
	for _, s := range oddTexts {
		f.Add(s)
	}
	f.Add("###[x\xff\u2028")
	f.Fuzz(func(t *testing.T, s string) {
		p := appendString(nil, s)
		for _, r := range string(p) {
			if !strconv.IsPrint(r) {
				t.Fatalf("appendString(%q) = %s holds %U", s, p, r)
			}
		}
		if bytes.Contains(p, []byte("##[")) {
			t.Fatalf("appendString(%q) = %s holds a runner command", s, p)
		}
		var got string
		if err := json.Unmarshal(p, &got); err != nil || got != string([]rune(s)) {
			t.Fatalf("appendString(%q) = %s reads back as %q (%v)", s, p, got, err)
		}
	})
}

// TestOneSample: the counts of one sample are singular.
func TestOneSample(t *testing.T) {
	r := &Run{Title: "agentcheck eval", Metrics: []MetricSummary{{Name: "tool_call_f1"}}, Samples: 1, Pass: true,
		Cases: []Case{{ID: "a", Line: 1, Status: Pass, Scores: []float64{1}}}}
	r.Metrics[0].Add(1)
	for f, want := range map[Format]string{Table: "  1 sample, 1 scored, 0 could not be scored\n", Markdown: "\n1 sample, 1 scored, 0 could not be scored.\n"} {
		var out bytes.Buffer
		if err := Write(&out, r, f); err != nil || !strings.Contains(out.String(), want) {
			t.Errorf("%v: %v\n%s", f, err, out.String())
		}
	}
}
