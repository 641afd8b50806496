package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/agentcheck/agentcheck/calibrate"
	"github.com/agentcheck/agentcheck/judge/judgetest"
	"github.com/google/go-cmp/cmp"
)

// calibrate end to end: the command, eval's scorer, go-openai, the
// recorder and judgetest's scripted judge over real HTTP on loopback.

// deskRuns are eight runs of a help-desk agent, each with an id; the
// scripted judge below finds the goal achieved when the transcript says
// "DONE", and people (deskLabels) disagree with it on r3 and r6.
var deskRuns = func() string {
	var b strings.Builder
	for i, end := range []string{"DONE", "DONE", "DONE", "DONE", "FAILED", "FAILED", "FAILED", "DONE"} {
		fmt.Fprintf(&b, `{"id": "r%d", "user_input": [{"type": "human", "content": "ticket %d: reset my password"}, {"type": "ai", "content": "%s for ticket %d"}], "reference": "The password is reset"}`+"\n", i+1, i+1, end, i+1)
	}
	return b.String()
}()

// deskLabels: people pass r1, r2, r4, r6, r8 and fail r3, r5, r7; the
// judge passes r1-r4 and r8. So TP r1 r2 r4 r8, FP r3, FN r6, TN r5 r7.
const deskLabels = `{"id": "r1", "metric": "agent_goal_accuracy", "label": true}
{"id": "r2", "metric": "agent_goal_accuracy", "label": true, "labeler": "ana"}
{"id": "r3", "metric": "agent_goal_accuracy", "label": false, "rationale": "the agent says done but never called the reset tool", "labeler": "ana"}
{"id": "r4", "metric": "agent_goal_accuracy", "label": true}
{"id": "r5", "metric": "agent_goal_accuracy", "label": false}
{"id": "r6", "metric": "agent_goal_accuracy", "label": true, "rationale": "the reset mail went out; FAILED is the old status", "labeler": "bo"}
{"id": "r7", "metric": "agent_goal_accuracy", "label": false}
{"id": "r8", "metric": "agent_goal_accuracy", "label": true}
`

// deskScript judges the runs: achieved when the end state says DONE; a
// model named "strict" never passes ticket 2; a ticket whose number is in
// flaky alternates its verdict call by call.
func deskScript(flaky map[string]bool) judgetest.Script {
	var mu sync.Mutex
	calls := map[string]int{}
	return judgetest.BySchema(map[string]judgetest.Script{
		"agent_goal_infer": func(r judgetest.Request) judgetest.Reply {
			in := r.Message(1)
			ticket := strings.Fields(in[strings.Index(in, "ticket "):])[1]
			end := "FAILED"
			if strings.Contains(in, "DONE") {
				end = "DONE"
			}
			return judgetest.JSON(map[string]any{"user_goal": "reset the password", "end_state": end + " ticket " + ticket})
		},
		"agent_goal_compare": func(r judgetest.Request) judgetest.Reply {
			in := r.Message(1)
			ticket := strings.TrimSpace(in[strings.LastIndex(in, "ticket ")+len("ticket "):])
			achieved := strings.Contains(in, "DONE")
			if r.Chat.Model == "strict" && ticket == "2:" {
				achieved = false
			}
			mu.Lock()
			calls[ticket]++
			if flaky[ticket] && calls[ticket]%2 == 0 {
				achieved = !achieved
			}
			mu.Unlock()
			return judgetest.JSON(map[string]any{"reason": fmt.Sprintf("end state %q (%s)", in[strings.Index(in, "End state:\n")+len("End state:\n"):], r.Chat.Model), "achieved": achieved})
		},
	})
}

type calibrationOut struct {
	Metrics map[string]struct {
		N                int                    `json:"n"`
		Accuracy         *float64               `json:"accuracy"`
		Kappa            *float64               `json:"kappa"`
		MCC              *float64               `json:"mcc"`
		BaseRate         *float64               `json:"base_rate"`
		MajorityAccuracy *float64               `json:"majority_accuracy"`
		FleissKappa      *float64               `json:"fleiss_kappa"`
		Confusion        map[string]int         `json:"confusion"`
		Intervals        map[string]any         `json:"intervals"`
		Disagreements    []string               `json:"disagreements"`
		Details          []map[string]any       `json:"disagreement_details"`
		Consistency      *calibrate.Consistency `json:"consistency"`
	} `json:"metrics"`
	LabelsWithoutSample  []string `json:"labels_without_sample"`
	SamplesWithoutLabels []string `json:"samples_without_labels"`
	Pass                 bool     `json:"pass"`
}

func parseCalibration(t *testing.T, out string) calibrationOut {
	t.Helper()
	var c calibrationOut
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatalf("calibrate --format json wrote no JSON: %v\n%s", err, out)
	}
	return c
}

// TestCalibrateReplaysEvalCassette: a cassette recorded by eval --metrics
// agent_goal_accuracy replays calibrate offline, because calibrate asks
// exactly what eval asks; the statistics are those of the confusion matrix
// the labels and the script make.
func TestCalibrateReplaysEvalCassette(t *testing.T) {
	checkGoroutines(t)
	srv := judgetest.NewServer(deskScript(nil))
	defer srv.Close()
	data := writeFile(t, "desk.jsonl", deskRuns)
	labels := writeFile(t, "labels.jsonl", deskLabels)

	judgeEnv(t, srv.URL, testKey, "all")
	if _, stderr, code := runAgentcheck(t, "", "eval", "--format", "jsonl", "--metrics", "agent_goal_accuracy", data); code != 0 {
		t.Fatalf("eval recording: exit %d: %s", code, stderr)
	}
	asked := srv.Count()
	srv.Close()

	judgeEnv(t, offlineURL, "", "")
	out, stderr, code := runAgentcheck(t, "", "calibrate", "--labels", labels, "--format", "json", data)
	if code != 0 {
		t.Fatalf("Expected calibrate to replay eval's cassette offline (exit 0), but exit %d: %s", code, stderr)
	}
	c := parseCalibration(t, out)
	m := c.Metrics["agent_goal_accuracy"]
	if diff := cmp.Diff(map[string]int{"tp": 4, "fp": 1, "fn": 1, "tn": 2}, m.Confusion); diff != "" {
		t.Errorf("confusion (-want +got):\n%s", diff)
	}
	// scikit-learn on TP 4, FP 1, FN 1, TN 2: kappa 0.4666666666666667,
	// mcc 0.4666666666666667, accuracy 0.75; majority label 5/8.
	want := calibrate.Confusion{TP: 4, FP: 1, FN: 1, TN: 2}
	if m.N != 8 || !near(*m.Accuracy, 0.75) || !near(*m.Kappa, 0.4666666666666667) || !near(*m.MCC, 0.4666666666666667) || !near(*m.MajorityAccuracy, 0.625) || !near(*m.BaseRate, 0.625) {
		t.Errorf("Expected n 8, accuracy 0.75, kappa and mcc 0.4667, majority 0.625, but got n %d, accuracy %v, kappa %v, mcc %v, majority %v", m.N, *m.Accuracy, *m.Kappa, *m.MCC, *m.MajorityAccuracy)
	}
	if !near(want.Kappa(), *m.Kappa) {
		t.Errorf("kappa %v is not the confusion's %v", *m.Kappa, want.Kappa())
	}
	if diff := cmp.Diff([]string{"r3", "r6"}, m.Disagreements); diff != "" {
		t.Errorf("disagreements (-want +got):\n%s", diff)
	}
	if len(m.Details) != 2 || m.Details[0]["rationales"].([]any)[0] != "ana: the agent says done but never called the reset tool" ||
		!strings.Contains(m.Details[0]["reason"].(string), "DONE ticket 3") {
		t.Errorf("Expected r3's disagreement with ana's rationale and the judge's reason, got %v", m.Details)
	}
	if m.Intervals["seed"] != float64(calibrate.BootstrapSeed) || m.Intervals["kappa"] == nil {
		t.Errorf("intervals %v lack their seed or kappa", m.Intervals)
	}
	if len(c.LabelsWithoutSample) != 0 || len(c.SamplesWithoutLabels) != 0 || !c.Pass {
		t.Errorf("unexpected: %+v", c)
	}

	// The table and markdown say the same, and the disagreement's reasons.
	table, _, _ := runAgentcheck(t, "", "calibrate", "--labels", labels, data)
	for _, w := range []string{"agent_goal_accuracy: 8 samples compared", "cohen's kappa      0.4667", "r3: people fail, judge pass (1.0)",
		"people: ana: the agent says done but never called the reset tool", `judge:  end state "DONE ticket 3:`} {
		if !strings.Contains(table, w) {
			t.Errorf("Expected the table to say %q:\n%s", w, table)
		}
	}
	md, _, _ := runAgentcheck(t, "", "calibrate", "--labels", labels, "--format", "markdown", data)
	if !strings.Contains(md, "| `agent_goal_accuracy` | 8 | 62.5% | 0.7500 | 0.6250 | 0.4667 [") || !strings.Contains(md, "| r6 | pass | fail (0.0) | bo: the reset mail went out; FAILED is the old status |") {
		t.Errorf("markdown:\n%s", md)
	}
	if asked != 2*8 {
		t.Errorf("eval asked %d questions, want 16", asked)
	}
}

func near(a, b float64) bool { return a-b < 1e-12 && b-a < 1e-12 }

// TestCalibrateMinKappaAndCounts: --min-kappa gates with eval's exit
// codes; labels of ids the dataset lacks and samples nobody labelled are
// counted and named, not dropped.
func TestCalibrateMinKappaAndCounts(t *testing.T) {
	srv := judgetest.NewServer(deskScript(nil))
	defer srv.Close()
	data := writeFile(t, "desk.jsonl", deskRuns)
	// r8 unlabelled; "r9" labelled but not in the dataset.
	partial := strings.Replace(deskLabels, `"id": "r8"`, `"id": "r9"`, 1)
	labels := writeFile(t, "labels.jsonl", partial)
	judgeEnv(t, srv.URL, testKey, "missing")
	out, stderr, code := runAgentcheck(t, "", "calibrate", "--labels", labels, "--format", "json", "--min-kappa", "0.2", data)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	c := parseCalibration(t, out)
	if !cmp.Equal(c.LabelsWithoutSample, []string{"r9"}) || !cmp.Equal(c.SamplesWithoutLabels, []string{"r8"}) {
		t.Errorf("Expected r9 counted as a label without a sample and r8 as a sample without labels, got %v and %v", c.LabelsWithoutSample, c.SamplesWithoutLabels)
	}
	if !strings.Contains(stderr, `note: 1 labelled id is not in the dataset, so not compared: r9`) || !strings.Contains(stderr, `note: 1 sample has no label, so not judged: r8`) {
		t.Errorf("stderr does not name them: %s", stderr)
	}
	if c.Metrics["agent_goal_accuracy"].N != 7 {
		t.Errorf("n %d, want 7", c.Metrics["agent_goal_accuracy"].N)
	}

	_, stderr, code = runAgentcheck(t, "", "calibrate", "--labels", labels, "--min-kappa", "0.9", data)
	if code != exitFailed || !strings.Contains(stderr, "Expected the judge's kappa on agent_goal_accuracy over 7 samples to be at least 0.9 (--min-kappa), but it is ") {
		t.Errorf("below --min-kappa: exit %d, stderr %s", code, stderr)
	}
}

func TestCalibrateUsageErrors(t *testing.T) {
	data := writeFile(t, "desk.jsonl", deskRuns)
	judgeEnv(t, offlineURL, "", "")
	for _, tc := range []struct {
		labels string
		args   []string
		want   string
	}{
		{"", nil, "--labels FILE is required"},
		{"\n", nil, "holds no label"},
		{`{"id": "r1", "metric": "goal_accuracy", "label": true}`, nil, `labels.jsonl:1 labels unknown metric "goal_accuracy" (judged metrics: agent_goal_accuracy, topic_adherence)`},
		{`{"id": "r1", "metric": "tool_call_f1", "label": true}`, nil, "labels tool_call_f1, which no judge scores"},
		{"{\"id\": \"r1\", \"metric\": \"agent_goal_accuracy\", \"label\": true}\n{\"id\": \"r2\", \"metric\": \"agent_goal_accuracy\", \"label\": \"yes\"}", nil, `labels.jsonl:2: the label of "r2" for agent_goal_accuracy is "yes": want true, false or a score from 0 to 1`},
		{`{"id": "r1", "metric": "agent_goal_accuracy", "label": 1.5}`, nil, "is 1.5: want true, false or a score from 0 to 1"},
		{`{"metric": "agent_goal_accuracy", "label": true}`, nil, `labels.jsonl:1: the label has no "id"`},
		{"{\"id\": \"r1\", \"metric\": \"agent_goal_accuracy\", \"label\": true}\n{\"id\": \"r1\", \"metric\": \"agent_goal_accuracy\", \"label\": false}", nil, `labels.jsonl:2: sample "r1" is labelled for agent_goal_accuracy twice (first on line 1)`},
		{`{"id": "r1", "criterion": "look the order up", "label": true}`, nil, "labels a rubric criterion"},
		{deskLabels, []string{"--metrics", "topic_adherence"}, "labels agent_goal_accuracy, which is not among --metrics (topic_adherence)"},
		{deskLabels, []string{"--metrics", "agent_goal_accuracy,tool_call_f1"}, "--metrics: tool_call_f1 is not judged"},
		{deskLabels, []string{"--metrics", "agent_goal_accuracy,topic_adherence"}, "--metrics: topic_adherence has no label in "},
		{deskLabels, []string{"--format", "junit"}, `--format: unknown format "junit" (want table, json or markdown)`},
		{deskLabels, []string{"--repeats", "0"}, "--repeats must be a whole number from 1 to 100"},
		{deskLabels, []string{"--min-kappa", "2"}, "--min-kappa must be a number from -1 to 1"},
		{deskLabels, []string{"--fail-under", "agent_goal_accuracy=0.5"}, "calibrate takes no gates or baselines of eval's"},
	} {
		args := []string{"calibrate"}
		if tc.labels != "" {
			args = append(args, "--labels", writeFile(t, "labels.jsonl", tc.labels))
		}
		args = append(append(args, tc.args...), data)
		_, stderr, code := runAgentcheck(t, "", args...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: Expected exit 2 saying %q, but exit %d: %s", tc.args, tc.want, code, stderr)
		}
	}
}

// TestCalibrateRepeats records three runs of each question, each its own
// cassette case, and replays them offline: the flip rate and the
// straddling sample come back the same.
func TestCalibrateRepeats(t *testing.T) {
	checkGoroutines(t)
	srv := judgetest.NewServer(deskScript(map[string]bool{"5:": true}))
	defer srv.Close()
	data := writeFile(t, "desk.jsonl", deskRuns)
	labels := writeFile(t, "labels.jsonl", deskLabels)
	judgeEnv(t, srv.URL, testKey, "all")
	args := []string{"calibrate", "--labels", labels, "--format", "json", "--repeats", "3", "--judge-concurrency", "1", data}
	recorded, stderr, code := runAgentcheck(t, "", args...)
	if code != 0 {
		t.Fatalf("recording: exit %d: %s", code, stderr)
	}
	if srv.Count() != 3*2*8 {
		t.Errorf("asked %d questions, want 48", srv.Count())
	}
	srv.Close()
	cassette, err := os.ReadFile(data + ".cassette.yaml")
	if err != nil || !strings.Contains(string(cassette), "#run3") {
		t.Fatalf("Expected the cassette to file run 3 under a case of its own: %v", err)
	}
	judgeEnv(t, offlineURL, "", "")
	replayed, stderr, code := runAgentcheck(t, "", args...)
	if code != 0 {
		t.Fatalf("replay: exit %d: %s", code, stderr)
	}
	if diff := cmp.Diff(recorded, replayed); diff != "" {
		t.Errorf("replay differs (-recorded +replayed):\n%s", diff)
	}
	cons := parseCalibration(t, replayed).Metrics["agent_goal_accuracy"].Consistency
	if cons == nil || cons.Runs != 3 || !cmp.Equal(cons.Straddling, []string{"r5"}) {
		t.Fatalf("Expected r5 to straddle over 3 runs, got %+v", cons)
	}
	// r5: fail, pass, fail: one pair of three agrees; 1 pass * 2 fails / 3 pairs.
	for _, f := range cons.Cases {
		want := 0.0
		if f.ID == "r5" {
			want = 2.0 / 3
		}
		if !near(f.FlipRate, want) {
			t.Errorf("%s: flip rate %v, want %v", f.ID, f.FlipRate, want)
		}
	}
	if !near(cons.FlipRate, 2.0/3/8) {
		t.Errorf("overall flip rate %v, want %v", cons.FlipRate, 2.0/3/8)
	}
	// The first run is what the statistics compare: the same as one run.
	one, _, _ := runAgentcheck(t, "", "calibrate", "--labels", labels, "--format", "json", data)
	if got, want := parseCalibration(t, replayed).Metrics["agent_goal_accuracy"].Confusion, parseCalibration(t, one).Metrics["agent_goal_accuracy"].Confusion; !cmp.Equal(got, want) {
		t.Errorf("repeats changed the compared verdicts: %v vs %v", got, want)
	}
}

// TestCalibratePanel: two judges that disagree on r2 make a panel whose
// agreement is Fleiss' kappa.
func TestCalibratePanel(t *testing.T) {
	srv := judgetest.NewServer(deskScript(nil))
	defer srv.Close()
	data := writeFile(t, "desk.jsonl", deskRuns)
	labels := writeFile(t, "labels.jsonl", deskLabels)
	judgeEnv(t, srv.URL, testKey, "all")
	out, stderr, code := runAgentcheck(t, "", "calibrate", "--labels", labels, "--format", "json", "--judge-model", "lenient", "--judge-model", "strict", "--aggregation", "unanimous", data)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	m := parseCalibration(t, out).Metrics["agent_goal_accuracy"]
	// Rows: r1 (2,0) r2 (1,1) r3 (2,0) r4 (2,0) r5 (0,2) r6 (0,2) r7 (0,2) r8 (2,0).
	want := calibrate.FleissKappa([][]int{{2, 0}, {1, 1}, {2, 0}, {2, 0}, {0, 2}, {0, 2}, {0, 2}, {2, 0}})
	if m.FleissKappa == nil || !near(*m.FleissKappa, want) || want > 0.8 || want < 0.6 {
		t.Errorf("Expected the panel's Fleiss' kappa %v, got %v", want, m.FleissKappa)
	}
	// Unanimous: r2 fails, so r2 joins the disagreements.
	if !cmp.Equal(m.Disagreements, []string{"r2", "r3", "r6"}) {
		t.Errorf("disagreements %v", m.Disagreements)
	}
}

// TestCalibrateReplayMiss: a judgment the cassette lacks is an error per
// sample naming the command that records it, and the run fails.
func TestCalibrateReplayMiss(t *testing.T) {
	data := writeFile(t, "desk.jsonl", deskRuns)
	labels := writeFile(t, "labels.jsonl", deskLabels)
	judgeEnv(t, offlineURL, "", "")
	out, stderr, code := runAgentcheck(t, "", "calibrate", "--labels", labels, "--format", "json", data)
	if code != exitFailed {
		t.Fatalf("Expected exit 1 for samples the judge could not judge, got %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "AGENTCHECK_RECORD=missing agentcheck calibrate --labels ") {
		t.Errorf("Expected the record command of calibrate in: %s", stderr)
	}
	m := parseCalibration(t, out).Metrics["agent_goal_accuracy"]
	if m.N != 0 || m.Kappa != nil {
		t.Errorf("Expected nothing compared and kappa null, got n %d, kappa %v", m.N, m.Kappa)
	}
}

// TestCalibrationFileAndGates: --save-calibration writes the judge, prompt
// version, criteria hash, n, statistics and date; eval's gates on a judged
// metric warn when that calibration is missing, stale or below its floor,
// and fail with --require-calibration.
func TestCalibrationFileAndGates(t *testing.T) {
	srv := judgetest.NewServer(deskScript(nil))
	defer srv.Close()
	data := writeFile(t, "desk.jsonl", deskRuns)
	labels := writeFile(t, "labels.jsonl", deskLabels)
	judgeEnv(t, srv.URL, testKey, "all")
	if _, stderr, code := runAgentcheck(t, "", "eval", "--metrics", "agent_goal_accuracy", data); code != 0 {
		t.Fatalf("eval recording: %d %s", code, stderr)
	}
	srv.Close()
	judgeEnv(t, offlineURL, "", "")
	t.Setenv("SOURCE_DATE_EPOCH", "1767225600") // 2026-01-01
	gate := []string{"eval", "--metrics", "agent_goal_accuracy", "--fail-under", "agent_goal_accuracy=0.5", data}

	_, stderr, code := runAgentcheck(t, "", gate...)
	if code != 0 || !strings.Contains(stderr, "warning: the agent_goal_accuracy gates trust a judge whose calibration is missing: no calibration file "+data+".calibration.json") {
		t.Errorf("missing: exit %d, stderr %s", code, stderr)
	}
	_, stderr, code = runAgentcheck(t, "", append(gate, "--require-calibration")...)
	if code != exitFailed || !strings.Contains(stderr, "Expected the judge of the agent_goal_accuracy gates to be calibrated (--require-calibration), but its calibration is missing") {
		t.Errorf("missing, required: exit %d, stderr %s", code, stderr)
	}

	cal := data + ".calibration.json"
	if _, stderr, code := runAgentcheck(t, "", "calibrate", "--labels", labels, "--min-kappa", "0.4", "--save-calibration", cal, data); code != 0 {
		t.Fatalf("calibrate: %d %s", code, stderr)
	}
	f, err := calibrate.Load(cal)
	if err != nil {
		t.Fatal(err)
	}
	e := f.Metrics["agent_goal_accuracy"]
	if f.Date != "2026-01-01" || !cmp.Equal(e.Judges, []string{"gpt-4o-mini"}) || e.PromptVersion != "goal/v1" || e.CriteriaHash != calibrate.CriteriaHash("agent_goal_accuracy") ||
		e.N != 8 || e.Kappa == nil || !near(*e.Kappa, 0.4666666666666667) || e.MinKappa != 0.4 || e.KappaLow == nil {
		t.Errorf("the calibration file holds %+v (date %s)", e, f.Date)
	}
	_, stderr, code = runAgentcheck(t, "", append(gate, "--require-calibration")...)
	if code != 0 || strings.Contains(stderr, "calibrat") {
		t.Errorf("calibrated: exit %d, stderr %s", code, stderr)
	}

	// Stale: calibrated with an older prompt.
	e.PromptVersion = "goal/v0"
	f.Metrics["agent_goal_accuracy"] = e
	if err := f.Save(cal); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = runAgentcheck(t, "", gate...)
	if code != 0 || !strings.Contains(stderr, "calibration is stale: prompt goal/v1, calibrated goal/v0 (calibrated 2026-01-01 in "+cal+")") {
		t.Errorf("stale: exit %d, stderr %s", code, stderr)
	}

	// Below its floor: calibrate fails --min-kappa 0.9 and still records it.
	_, _, code = runAgentcheck(t, "", "calibrate", "--labels", labels, "--min-kappa", "0.9", "--save-calibration", cal, data)
	if code != exitFailed {
		t.Errorf("calibrate under --min-kappa: exit %d", code)
	}
	_, stderr, code = runAgentcheck(t, "", append(gate, "--require-calibration", "--calibration", cal)...)
	if code != exitFailed || !strings.Contains(stderr, "but its calibration is below floor: kappa 0.4666666666666667 over 8 samples, floor 0.9") {
		t.Errorf("below floor: exit %d, stderr %s", code, stderr)
	}
	// A gate on a metric no judge scores needs no calibration.
	_, stderr, _ = runAgentcheck(t, "", "eval", "--fail-under", "tool_call_f1=0", data)
	if strings.Contains(stderr, "calibrat") {
		t.Errorf("a deterministic gate asked for a calibration: %s", stderr)
	}
}

// TestCalibrateTwoMetrics calibrates goal accuracy and topic adherence at
// once (eval's side-by-side path), topic adherence with scores as labels:
// its alpha with the judge is ordinal. The sample without reference_topics
// is labelled for goal accuracy only, so its topic error is no failure.
func TestCalibrateTwoMetrics(t *testing.T) {
	srv := judgetest.NewServer(foodScript())
	defer srv.Close()
	data := writeFile(t, "runs.jsonl", strings.Join(judgedSamples, "\n")+"\n")
	labels := writeFile(t, "labels.jsonl", `{"id": "line 1", "metric": "agent_goal_accuracy", "label": true}
{"id": "line 2", "metric": "agent_goal_accuracy", "label": false}
{"id": "line 3", "metric": "agent_goal_accuracy", "label": true}
{"id": "line 4", "metric": "agent_goal_accuracy", "label": false, "rationale": "it answered a question off its topic"}
{"id": "line 1", "metric": "topic_adherence", "label": 1}
{"id": "line 2", "metric": "topic_adherence", "label": 0.75}
{"id": "line 4", "metric": "topic_adherence", "label": 0}
`)
	judgeEnv(t, srv.URL, testKey, "all")
	out, stderr, code := runAgentcheck(t, "", "calibrate", "--labels", labels, "--format", "json", data)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	c := parseCalibration(t, out)
	goal, topics := c.Metrics["agent_goal_accuracy"], c.Metrics["topic_adherence"]
	// Goal: the judge passes lines 1, 3, 4 and fails 2: TP 2, FP 1 (line 4), TN 1.
	if !cmp.Equal(goal.Confusion, map[string]int{"tp": 2, "fp": 1, "fn": 0, "tn": 1}) || !cmp.Equal(goal.Disagreements, []string{"line 4"}) {
		t.Errorf("goal: %v %v", goal.Confusion, goal.Disagreements)
	}
	// Topics: the judge scores 0.99999999985, 0, 0; people 1, 0.75, 0.
	if !cmp.Equal(topics.Confusion, map[string]int{"tp": 1, "fp": 0, "fn": 1, "tn": 1}) {
		t.Errorf("topics: %v", topics.Confusion)
	}
	var alpha struct {
		Metrics map[string]struct {
			Alpha *float64 `json:"alpha_with_judge"`
		} `json:"metrics"`
	}
	if err := json.Unmarshal([]byte(out), &alpha); err != nil {
		t.Fatal(err)
	}
	want := calibrate.Alpha([][]float64{{1, 0.99999999985}, {0.75, 0}, {0, 0}}, calibrate.Ordinal)
	if a := alpha.Metrics["topic_adherence"].Alpha; a == nil || !near(*a, want) {
		t.Errorf("topic adherence's alpha with the judge: %v, want ordinal %v", a, want)
	}
}
