package report

import (
	"fmt"
	"html"
	"html/template"
	"io"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// htmlRun is a run with every part the report shows: gates, a baseline,
// failing, erring, flaky and passing cases, judges' verdicts with criteria,
// transcripts with tool calls, and a repeated case's runs.
func htmlRun() *Run {
	r := &Run{
		Title: "agentcheck eval", Inputs: []string{"demo.jsonl"},
		Started: time.Date(2026, 11, 26, 5, 0, 0, 0, time.UTC), Duration: 1234 * time.Millisecond,
		Commit: "0ffe0ec", Judges: []string{"gpt-4o-mini"}, PromptVersions: []string{"agent_goal_compare@2"},
		CassetteMode: "replay",
		Metrics: []MetricSummary{
			{Name: "tool_call_accuracy", N: 5, Mean: 0.6, SD: 0.1, Threshold: 1, PassRate: 0.6, Histogram: [10]int{2, 0, 0, 0, 0, 0, 0, 0, 0, 3}},
			{Name: "agent_goal_accuracy", N: 4, Mean: 0.75, SD: 0.5, Threshold: 0.5, PassRate: 0.75, Histogram: [10]int{1, 0, 0, 0, 0, 0, 0, 0, 0, 3}},
		},
		Gates: []Gate{
			{Name: "--fail-under tool_call_accuracy", Metric: "tool_call_accuracy", Kind: "mean", Threshold: 0.8, Value: 0.6, Detail: "the mean 0.6 is under 0.8"},
			{Name: "--sample-threshold agent_goal_accuracy", Metric: "agent_goal_accuracy", Kind: "sample", Threshold: 0.5, Below: 1, Cases: []string{"wrong-city"}},
		},
		Baseline: &Comparison{File: "baseline.json", Tolerance: 0.05,
			Regressions: []Delta{{Case: "wrong-city", Metric: "tool_call_accuracy", Old: 1, New: 0}}, NewlyFailing: 1,
			Improvements: []Delta{{Case: "retry", Metric: "agent_goal_accuracy", Old: 0, New: 1}}, NewlyPassing: 1,
			New: 1, NewCases: []string{"booking"}},
		Samples: 5, Errors: 1, Failed: 2,
		Problems: []string{"2 samples are named \"retry\""},
	}
	r.Cases = []Case{
		{ID: "booking", File: "demo.jsonl", Line: 1, Status: Pass, Scores: []float64{1, 1}, Reasons: []string{"", ""}, Request: "Book a table"},
		{ID: "wrong-city", File: "demo.jsonl", Line: 2, Status: Fail, Scores: []float64{0, 0}, Request: "Find a restaurant in Paris",
			Reasons:  []string{"search_restaurants(city) differs: \"Lyon\" against \"Paris\"", "the user wanted Paris"},
			Failures: []string{"Expected tool_call_accuracy to be at least 1, but it is 0"},
			Report:   "  ~ [0] search_restaurants(city: \"Paris\")\n      - city: \"Paris\"\n      + city: \"Lyon\"",
			Verdicts: []Verdict{{Metric: "agent_goal_accuracy", Judge: "gpt-4o-mini", Score: 0, Reason: "booked in Lyon", Source: "cassette",
				Criteria: []Criterion{{Name: "city", Met: false, Reason: "Lyon is not Paris"}, {Name: "party", Met: true}}}},
			Transcript: []Message{
				{Role: "human", Content: "Find a restaurant in Paris"},
				{Role: "ai", Reasoning: "search first", Calls: []Call{{Name: "search_restaurants", Args: `{"city":"Lyon"}`}}},
				{Role: "tool", Content: `[{"id":"r_1"}]`},
				{Role: "ai", Content: "Booked in Lyon."},
			}},
		{ID: "unreadable", File: "demo.jsonl", Line: 3, Status: Error, Scores: []float64{math.NaN(), math.NaN()}, Error: "demo.jsonl:3: message 2: tool call 0: arguments are not JSON"},
		{ID: "retry", File: "demo.jsonl", Line: 4, Status: Flaky, Scores: []float64{0.5, 1}, Reasons: []string{"1 of 2 runs passed", ""},
			Runs: []Case{
				{ID: "retry", Status: Pass, Scores: []float64{1, 1}},
				{ID: "retry", Status: Fail, Scores: []float64{0, 1}, Failures: []string{"run 2 called cancel_booking"}, Report: "  + [1] cancel_booking()"},
			}},
		{ID: "refund", File: "demo.jsonl", Line: 5, Status: Fail, Scores: []float64{0.99999999, math.NaN()}},
	}
	return r
}

func renderHTML(t testing.TB, r *Run) string {
	t.Helper()
	return renderHTMLSized(t, r, 0)
}

// renderHTMLSized is renderHTML into a buffer that holds size bytes before
// it grows: a page of megabytes written into a buffer that doubles as it
// goes is fresh memory twice its size, copied, which costs seconds under
// -race.
func renderHTMLSized(t testing.TB, r *Run, size int) string {
	t.Helper()
	var b strings.Builder
	b.Grow(size)
	if err := Write(&b, r, HTML); err != nil {
		t.Fatalf("Expected the run to render as html, but: %v", err)
	}
	return b.String()
}

func TestHTMLShowsTheRun(t *testing.T) {
	page := renderHTML(t, htmlRun())
	for _, want := range []string{
		"2026-11-26 05:00:00 UTC", "took 1.234s", "0ffe0ec", "gpt-4o-mini", "agent_goal_compare@2", "replay", // the run
		"--fail-under tool_call_accuracy", "the mean 0.6 is under 0.8", // gates
		"mean <b>0.6</b> <span class=\"muted\">[0.4759, 0.7241] 95%", // tool_call_accuracy's mean interval: 0.6 ± 2.776·0.1/√5
		"[0, 1] 95%", // agent_goal_accuracy's: 0.75 ± 3.182·0.5/√4, within [0, 1]
		"histogram of tool_call_accuracy: 0.0–0.1: 2", // its histogram
		"baseline.json", "Newly failing", "Newly passing", "-1</td>", "&#43;1</td>", // the baseline
		"search_restaurants</span>(<code>{&#34;city&#34;:&#34;Lyon&#34;}</code>)", // a tool call with its arguments
		"[{&#34;id&#34;:&#34;r_1&#34;}]",                                          // a tool's result
		"&#43; city: &#34;Lyon&#34;",                                              // the call diff
		"✗ not met</span> <b>city</b>: Lyon is not Paris",                         // a judge's criterion
		"arguments are not JSON",                                                  // an error
		"run 2 called cancel_booking",                                             // a repeated case's bad run
		"2 samples are named &#34;retry&#34;",                                     // a problem
		"tool_call_accuracy 0.99999999</span>",                                    // a score under its threshold of 1, not rounded up to it
	} {
		if !strings.Contains(page, want) {
			t.Errorf("Expected the page to show %q, but it does not", want)
		}
	}
	if t.Failed() {
		t.Logf("the page:\n%s", page)
	}
}

// caseOrder is the ids of the cases in the page, in order, with the filter
// class each has: a case in full is a <details>, a summarised one a row.
var caseOrder = regexp.MustCompile(`<details class="case s-(\w+) [^>]*>\s*<summary><span class="badge [^"]*">\w+</span> <span class="cid">([^<]*)</span>|<tr(?: class=s-(\w+))?><td>([^<]*)<td>`)

func casesIn(page string) (ids, filters []string) {
	for _, m := range caseOrder.FindAllStringSubmatch(page, -1) {
		if m[2] != "" {
			filters, ids = append(filters, m[1]), append(ids, html.UnescapeString(m[2]))
		} else {
			filter := m[3]
			if filter == "" {
				filter = "pass" // the passing cases' table
			}
			filters, ids = append(filters, filter), append(ids, html.UnescapeString(m[4]))
		}
	}
	return ids, filters
}

func TestHTMLListsEveryCaseFailingFirst(t *testing.T) {
	ids, filters := casesIn(renderHTML(t, htmlRun()))
	want := []string{"wrong-city", "unreadable", "refund", "retry", "booking"}
	if !slices.Equal(ids, want) {
		t.Errorf("Expected the cases in the order %q (failing, then flaky, then passing), but they are %q", want, ids)
	}
	if wantF := []string{"fail", "fail", "fail", "flaky", "pass"}; !slices.Equal(filters, wantF) {
		t.Errorf("Expected the filters' classes %q, but they are %q", wantF, filters)
	}
}

// The bound: past htmlFullCases failing and flaky cases, the others are
// summarised rows, failing before flaky before passing, and every id is
// still in the page. The page is written under a bound of 25 (the
// writer's html.full), the same code as under htmlFullCases, 250, which a
// Writer takes and README.md states: 550 cases kept whole were 43 MB of
// copies, most of the test's CPU under -race.
func TestHTMLIsBounded(t *testing.T) {
	t.Parallel() // slow: it overlaps the package's other slow tests
	if got := NewWriter(io.Discard, HTML, &Run{}).html.fullCases(); got != htmlFullCases || htmlFullCases != 250 {
		t.Fatalf("Expected a report to show 250 failing or flaky cases in full, as README.md says, but a Writer shows %d (htmlFullCases %d)", got, htmlFullCases)
	}
	const htmlFullCases = 25 // the bound of this test's page
	r := &Run{Metrics: []MetricSummary{{Name: "m", Threshold: 1}}}
	// 29 kB: a text left uncut, even the report (cut at 16 kB), takes a
	// case in full past the 40 kB checked below.
	long := strings.Repeat("the agent said a great deal. ", 1000)
	const failing, flaky, passing = htmlFullCases + 50, htmlFullCases + 50, 2000
	var nFailing, nFlaky int
	for i := range failing + flaky + passing {
		c := Case{ID: fmt.Sprintf("case-%d", i), Status: Pass, Scores: []float64{1}}
		switch {
		case i%7 == 0 && nFailing < failing:
			nFailing++
			c.Status, c.Scores, c.Failures, c.Report = Fail, []float64{0}, []string{"Expected m to be 1, but it is 0: " + long}, long
			c.Transcript = []Message{{Role: "human", Content: long}, {Role: "ai", Content: long, Calls: []Call{{Name: "f", Args: long}}}}
		case i%7 == 1 && nFlaky < flaky:
			nFlaky++
			c.Status, c.Scores = Flaky, []float64{0.5}
			c.Runs = []Case{{Status: Pass, Scores: []float64{1}}, {Status: Fail, Scores: []float64{0}, Report: long}}
		}
		r.Cases = append(r.Cases, c)
	}
	var b strings.Builder
	b.Grow(1 << 20)
	w := NewWriter(&b, HTML, r)
	w.html.full = htmlFullCases
	for i := range r.Cases {
		if err := w.WriteCase(&r.Cases[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	ids, filters := casesIn(page)
	if len(ids) != len(r.Cases) {
		t.Fatalf("Expected all %d cases in the page, but %d are", len(r.Cases), len(ids))
	}
	full := strings.Count(page, `<details class="case`)
	if full != htmlFullCases {
		t.Errorf("Expected %d cases in full, but %d are", htmlFullCases, full)
	}
	var want []string
	for _, n := range []struct {
		filter string
		count  int
	}{{"fail", failing}, {"flaky", flaky}, {"pass", passing}} {
		for range n.count {
			want = append(want, n.filter)
		}
	}
	if !slices.Equal(filters, want) {
		t.Errorf("Expected the %d failing cases, then the %d flaky ones, then the %d passing ones, but the order is %q", failing, flaky, passing, filters)
	}
	for i := 1; i < len(ids); i++ {
		var a, b int
		fmt.Sscanf(ids[i-1], "case-%d", &a)
		fmt.Sscanf(ids[i], "case-%d", &b)
		if filters[i-1] == filters[i] && a >= b {
			t.Fatalf("Expected the %s cases in input order, but %s comes before %s", filters[i], ids[i-1], ids[i])
		}
	}
	if want := fmt.Sprintf("%d more failing or flaky cases are summarised", failing+flaky-htmlFullCases); !strings.Contains(page, want) {
		t.Errorf("Expected the page to say %q, but it does not", want)
	}
	// Each case in full shows its long texts cut: about 6 kB + 4 kB + 3 kB
	// + 2 kB + 16 kB, not the 29 kB × 5 it has.
	if perCase := len(page) / htmlFullCases; perCase > 40_000 {
		t.Errorf("Expected a case in full to take at most 40 kB, but the page is %d bytes (%d per case)", len(page), perCase)
	}
	if !strings.Contains(page, "more bytes)") {
		t.Errorf("Expected a cut text to say how much was left out, but none does")
	}
}

// poison sets every string in v (fields, slices' elements, at any depth) to
// payload followed by what it was.
func poison(v reflect.Value, payload string) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			poison(v.Elem(), payload)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				poison(v.Field(i), payload)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			poison(v.Index(i), payload)
		}
	case reflect.String:
		if v.Type() == reflect.TypeFor[Status]() {
			return // a status is the report's own word, not the run's text
		}
		v.SetString(payload + v.String())
	}
}

// The page's own markup: every tag and attribute the template writes.
var (
	pageTags  = regexp.MustCompile(`^(!doctype|html|head|meta|link|title|style|body|main|h1|h2|h3|div|dl|dt|dd|ul|li|table|thead|tbody|tr|th|td|p|span|b|code|pre|svg|rect|line|text|details|summary|section|input|label)$`)
	pageAttrs = regexp.MustCompile(`^(lang|charset|http-equiv|content|name|rel|href|class|id|for|type|checked|open|width|height|viewbox|role|aria-label|x|y|x1|y1|x2|y2|fill|stroke|font-size|html)$`)
	tagRE     = regexp.MustCompile(`<(/?)([a-zA-Z!][a-zA-Z0-9-]*)([^>]*)>`)
	attrRE    = regexp.MustCompile(`\s([^\s=>"']+)(?:=("[^"]*"|'[^']*'|[^\s>]*))?`)
)

// checkMarkup fails when the page has a tag or attribute the template does
// not write, a script, an event handler, or a link anywhere but to data:.
func checkMarkup(t testing.TB, page, payload string) {
	t.Helper()
	for _, m := range tagRE.FindAllStringSubmatch(page, -1) {
		tag := strings.ToLower(m[2])
		if !pageTags.MatchString(tag) {
			t.Fatalf("Expected only the template's tags, but the page has <%s%s> (payload %q)", tag, m[3], payload)
		}
		if tag == "style" && m[1] == "" {
			continue
		}
		for _, a := range attrRE.FindAllStringSubmatch(m[3], -1) {
			name := strings.ToLower(a[1])
			if !pageAttrs.MatchString(name) {
				t.Fatalf("Expected only the template's attributes, but <%s> has %s (payload %q)", tag, a[0], payload)
			}
			if name == "href" && a[2] != `"data:,"` {
				t.Fatalf("Expected no link but the icon's, but <%s> has %s (payload %q)", tag, a[0], payload)
			}
		}
	}
}

var payloads = []string{
	`<script>window.__pwned=1</script>`,
	`<img src=x onerror="window.__pwned=1">`,
	`<a href="javascript:window.__pwned=1">click</a>`,
	`"><svg onload=alert(1)>`,
	`' onmouseover='alert(1)`,
	`</style><script>alert(1)</script>`,
	`</pre></details></div></section><script>alert(1)</script>`,
	`<!-- --><script>alert(1)</script>`,
	`]]><iframe src=javascript:alert(1)>`,
	`javascript:alert(1)`,
}

// TestHTMLEscapesEverythingFromTheRun: whatever text a run holds, in any
// field (a transcript, a judge's reason, an id, a gate's name), the page has
// only the template's own tags and attributes: no script, no handler, no
// link.
func TestHTMLEscapesEverythingFromTheRun(t *testing.T) {
	for _, payload := range payloads {
		r := htmlRun()
		poison(reflect.ValueOf(r), payload)
		page := renderHTML(t, r)
		checkMarkup(t, page, payload)
		if n := strings.Count(page, html.EscapeString(payload)) + strings.Count(page, template.HTMLEscapeString(payload)); n == 0 {
			t.Errorf("Expected the payload %q in the page as text, but it is not there", payload)
		}
		ids, _ := casesIn(page)
		if want := []string{payload + "wrong-city", payload + "unreadable", payload + "refund", payload + "retry", payload + "booking"}; !slices.Equal(ids, want) {
			t.Errorf("Expected the ids to read %q as text, but they read %q", want, ids)
		}
	}
}

func FuzzHTMLEscapes(f *testing.F) {
	for _, p := range payloads {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, payload string) {
		t.Parallel() // the seeds at once; no effect when fuzzing
		r := htmlRun()
		poison(reflect.ValueOf(r), payload)
		checkMarkup(t, renderHTML(t, r), payload)
	})
}

// A run with nothing in it, and one whose cases have no metric, still
// render a page: the filter opens on all, and no table has missing cells.
func TestHTMLRendersEmptyRuns(t *testing.T) {
	page := renderHTML(t, &Run{})
	checkMarkup(t, page, "")
	for _, want := range []string{"<title>agentcheck run — FAIL</title>", `id="show-all" checked`, "all (0)"} {
		if !strings.Contains(page, want) {
			t.Errorf("Expected the empty run's page to have %q, but it does not:\n%s", want, page)
		}
	}
	if strings.Contains(page, "<table") {
		t.Errorf("Expected no table for a run with no case, metric or gate, but the page has one")
	}
	page = renderHTML(t, &Run{Pass: true, Cases: []Case{{ID: "a", Status: Pass}, {ID: "b", Status: Error, Error: "unreadable"}}})
	if ids, filters := casesIn(page); !slices.Equal(ids, []string{"b"}) || !slices.Equal(filters, []string{"fail"}) {
		t.Errorf("Expected the erring case in full, but the page lists %q %q", ids, filters)
	}
	if !strings.Contains(page, "<tr><td>a\n") {
		t.Errorf("Expected the passing case as a row of its name alone, but the page is:\n%s", page)
	}
}

// appendClipped writes what HTMLEscapeString and clip write, for any text.
func FuzzAppendClipped(f *testing.F) {
	for _, s := range append(payloads, "", "plain", "naïve café", "a\x00b", strings.Repeat("é", 150)) {
		f.Add(s, 200)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		n = max(0, n%400)
		if got, want := string(appendClipped([]byte("x"), s, n)), "x"+template.HTMLEscapeString(clip(s, n)); got != want {
			t.Errorf("Expected appendClipped(%q, %d) to write %q, but it wrote %q", s, n, want, got)
		}
	})
}
