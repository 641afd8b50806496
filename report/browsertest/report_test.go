package browsertest

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentcheck/agentcheck/report"
	"github.com/chromedp/chromedp"
)

// render writes r as the HTML report.
func render(t *testing.T, r *report.Run) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := report.Write(&b, r, report.HTML); err != nil {
		t.Fatalf("Expected the run to render as html, but: %v", err)
	}
	return b.Bytes()
}

// idsOf are the ids of r's cases whose status is one of statuses, sorted.
func idsOf(r *report.Run, statuses ...report.Status) []string {
	var ids []string
	for i := range r.Cases {
		if slices.Contains(statuses, r.Cases[i].Status) {
			ids = append(ids, r.Name(&r.Cases[i]))
		}
	}
	slices.Sort(ids)
	return ids
}

// caseIDs are the ids in the page: a case in full's summary, a summarised
// case's first cell; all of them, or those the reader can see.
const caseIDs = `[...document.querySelectorAll("details.case > summary .cid, table.rows tbody tr > td:first-child")]`

// checkClean fails the test when the page made a request, wrote an error,
// opened a dialog or ran a script that set window.__pwned.
func checkClean(t *testing.T, p *loadedPage) {
	t.Helper()
	p.settle()
	requests, errors, dialogs := p.seen()
	if len(requests) > 0 {
		t.Errorf("Expected the page to make no request, but it requested %q", requests)
	}
	if len(errors) > 0 {
		t.Errorf("Expected no console error, but the browser said %q", errors)
	}
	if len(dialogs) > 0 {
		t.Errorf("Expected no dialog, but %q opened", dialogs)
	}
	if got := eval[string](p, `typeof window.__pwned`); got != "undefined" {
		t.Errorf("Expected no script from the run to run, but window.__pwned is a %s", got)
	}
}

// checkFilter clicks the filter's button and compares the case ids visible
// with want (sorted).
func checkFilter(t *testing.T, p *loadedPage, filter string, want []string) {
	t.Helper()
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.CSS(`label[for="show-`+filter+`"]`))); err != nil {
		t.Fatalf("Expected to click the %s filter, but: %v", filter, err)
	}
	if got := eval[bool](p, `document.getElementById("show-`+filter+`").checked`); !got {
		t.Fatalf("Expected the %s filter to be on once clicked, but it is not", filter)
	}
	visible := eval[[]string](p, caseIDs+`.filter(e => e.checkVisibility()).map(e => e.textContent)`)
	slices.Sort(visible)
	if !slices.Equal(visible, want) {
		t.Errorf("Expected the %s filter to show exactly the %d cases %s, but it shows %d: %s",
			filter, len(want), sample(want), len(visible), diffIDs(want, visible))
	}
}

func sample(ids []string) string {
	if len(ids) > 8 {
		return fmt.Sprintf("%q…", ids[:8])
	}
	return fmt.Sprintf("%q", ids)
}

// diffIDs says which ids are missing from got and which are extra.
func diffIDs(want, got []string) string {
	var missing, extra []string
	for _, id := range want {
		if _, ok := slices.BinarySearch(got, id); !ok {
			missing = append(missing, id)
		}
	}
	for _, id := range got {
		if _, ok := slices.BinarySearch(want, id); !ok {
			extra = append(extra, id)
		}
	}
	return fmt.Sprintf("missing %s, extra %s", sample(missing), sample(extra))
}

// checkReport is what every report must do in the browser: load clean,
// have every case's id as loaded, failing first, open on the failing cases
// when there are, and filter exactly.
func checkReport(t *testing.T, p *loadedPage, r *report.Run) {
	t.Helper()
	checkClean(t, p)
	all := eval[[]string](p, caseIDs+`.map(e => e.textContent)`)
	var want []string
	for _, statuses := range [][]report.Status{{report.Fail, report.Error}, {report.Flaky}, {report.Pass}} {
		want = append(want, idsOf(r, statuses...)...)
	}
	sortedAll := slices.Sorted(slices.Values(all))
	sortedWant := slices.Sorted(slices.Values(want))
	if !slices.Equal(sortedAll, sortedWant) {
		t.Fatalf("Expected every one of the %d cases' ids in the page as loaded, but it has %d: %s",
			len(want), len(all), diffIDs(sortedWant, sortedAll))
	}
	failing, flaky := idsOf(r, report.Fail, report.Error), idsOf(r, report.Flaky)
	for i, id := range all[:len(failing)] {
		if _, ok := slices.BinarySearch(failing, id); !ok {
			t.Fatalf("Expected the %d failing cases first, but case %d of the page is %q", len(failing), i, id)
		}
	}
	if len(failing) > 0 {
		if on := eval[bool](p, `document.getElementById("show-failing").checked`); !on {
			t.Errorf("Expected the page to open on its failing cases, but the failing filter is off")
		}
	}
	checkFilter(t, p, "failing", failing)
	checkFilter(t, p, "flaky", flaky)
	checkFilter(t, p, "all", sortedWant)
	checkFilter(t, p, "failing", failing)
	checkClean(t, p)
}

// generated is a run of n cases of which about 1 in 20 fails, 1 in 50 errs
// and 1 in 40 is flaky, the failing ones with a transcript, as agentcheck
// eval and evalsuite make them.
func generated(n int) *report.Run {
	rng := rand.New(rand.NewPCG(uint64(n), 19))
	r := &report.Run{
		Title: fmt.Sprintf("generated run of %d cases", n), Inputs: []string{"generated.jsonl"},
		Started: time.Date(2026, 11, 26, 6, 0, 0, 0, time.UTC), Duration: 3 * time.Second,
		Commit: "f7562c5", Judges: []string{"gpt-4o-mini"}, CassetteMode: "replay",
		Metrics: []report.MetricSummary{{Name: "tool_call_accuracy", Threshold: 1}, {Name: "agent_goal_accuracy", Threshold: 0.5}},
	}
	for i := range n {
		c := report.Case{ID: fmt.Sprintf("case-%05d", i), File: "generated.jsonl", Line: i + 1, Index: i, Status: report.Pass,
			Scores: []float64{1, 1}, Reasons: []string{"", ""}, Request: "Book a table for 2 at 7pm"}
		switch u := rng.Float64(); {
		case u < 0.05:
			c.Status = report.Fail
			c.Scores = []float64{float64(rng.IntN(3)) / 3, float64(rng.IntN(2))}
			c.Reasons[0] = "book_table(time) differs: \"20:00\" against \"19:00\""
			c.Failures = []string{"Expected tool_call_accuracy to be at least 1, but it is " + fmt.Sprint(c.Scores[0])}
			c.Report = "  = [0] restaurant_search(cuisine: \"Chinese\")\n  ~ [1] book_table(time: \"19:00\")\n      - time: \"19:00\"\n      + time: \"20:00\""
			c.Verdicts = []report.Verdict{{Metric: "agent_goal_accuracy", Judge: "gpt-4o-mini", Score: c.Scores[1], Reason: "booked at 20:00", Source: "cassette"}}
			c.Transcript = []report.Message{
				{Role: "human", Content: "Book a table for 2 at 7pm"},
				{Role: "ai", Calls: []report.Call{{Name: "book_table", Args: `{"time":"20:00","guests":2}`}}},
				{Role: "tool", Content: "Booked for 20:00"},
				{Role: "ai", Content: "Booked."},
			}
		case u < 0.07:
			c.Status, c.Scores, c.Error = report.Error, []float64{nan(), nan()}, fmt.Sprintf("generated.jsonl:%d: message 1: tool call 0: arguments are not JSON", i+1)
		case u < 0.095:
			c.Status = report.Flaky
			c.Scores = []float64{0.5, 1}
			c.Runs = []report.Case{{ID: c.ID, Status: report.Pass, Scores: []float64{1, 1}},
				{ID: c.ID, Status: report.Fail, Scores: []float64{0, 1}, Failures: []string{"run 2 called cancel_booking"}}}
		}
		for m := range r.Metrics {
			r.Metrics[m].Add(c.Scores[m])
		}
		r.Samples++
		switch c.Status {
		case report.Fail:
			r.Failed++
		case report.Error:
			r.Errors++
		}
		r.Cases = append(r.Cases, c)
	}
	return r
}

func nan() float64 { return math.NaN() }

func TestATenThousandCaseRunInChromium(t *testing.T) {
	b := startBrowser(t)
	r := generated(10_000)
	page := render(t, r)
	t.Logf("a run of %d cases (%d failing, %d flaky): a page of %d bytes", len(r.Cases),
		len(idsOf(r, report.Fail, report.Error)), len(idsOf(r, report.Flaky)), len(page))
	start := time.Now()
	p := b.open(t, "report-10k.html", page)
	t.Logf("loaded in %v", time.Since(start))
	checkReport(t, p, r)
	t.Logf("checked in %v", time.Since(start))
	p.screenshot("report-10k.png", "")
	t.Logf("screenshot in %v", time.Since(start))
}

// poisoned is a failing case whose every text tries to run a script: a
// <script> element, an onerror handler, a javascript: link, a closing tag
// to break out of its element.
func poisoned(id string) report.Case {
	const (
		script  = `<script>window.__pwned = "script"; alert(1)</script>`
		onerror = `<img src=x onerror="window.__pwned = 'onerror'; alert(2)">`
		link    = `<a id=pwn href="javascript:window.__pwned='link';alert(3)">click me</a>`
		breaks  = `</pre></code></div></details></section><script>window.__pwned = "breakout"</script><svg onload="window.__pwned='svg'">`
		attr    = `" onmouseover="window.__pwned='attr'" x="`
	)
	all := script + onerror + link + breaks + attr
	return report.Case{
		ID: id + all, Status: report.Fail, Scores: []float64{0, 0}, Request: all,
		Reasons: []string{all, all}, Failures: []string{all}, Report: all, Error: "",
		Verdicts: []report.Verdict{{Metric: "agent_goal_accuracy", Judge: all, Reason: all, Source: all,
			Criteria: []report.Criterion{{Name: all, Reason: all}}}},
		Transcript: []report.Message{
			{Role: "human", Content: all},
			{Role: all, Reasoning: all, Content: all, Calls: []report.Call{{Name: all, Args: `{"html":"` + strings.ReplaceAll(all, `"`, `\"`) + `"}`}}},
			{Role: "tool", Content: all},
		},
		Runs: []report.Case{{ID: all, Status: report.Fail, Scores: []float64{0, 0}, Report: all, Failures: []string{all}}},
	}
}

func TestInjectedScriptsNeverRunInChromium(t *testing.T) {
	b := startBrowser(t)
	r := generated(20)
	r.Title = `<script>window.__pwned = "title"</script>`
	r.Commit, r.Judges, r.Problems = `<img src=x onerror="window.__pwned='commit'">`, []string{`<script>alert(1)</script>`}, []string{`<script>alert(1)</script>`}
	r.Metrics[0].Name = `<svg onload="window.__pwned='metric'">`
	r.Gates = []report.Gate{{Name: `<a href="javascript:alert(1)">gate</a>`, Detail: `<script>alert(1)</script>`, Cases: []string{`<script>alert(1)</script>`}}}
	r.Baseline = &report.Comparison{File: `<script>alert(1)</script>`, NewlyFailing: 1,
		Regressions: []report.Delta{{Case: `<script>alert(1)</script>`, Metric: `<img src=x onerror=alert(1)>`, Old: 1}}}
	r.Cases = append(r.Cases, poisoned("poisoned-1"), poisoned("poisoned-2"))
	r.Cases[0].ID = `<img src=x onerror="window.__pwned='passing id'">` // a passing case's id, in a summarised row
	r.Cases[0].Status = report.Pass
	p := b.open(t, "report-injected.html", render(t, r))
	checkClean(t, p)
	// The page's own markup only: no element the run's text could have
	// made, no handler, no link.
	if n := eval[int](p, `document.querySelectorAll("script, img, iframe, object, embed, a, form, [href]:not(link[rel=icon])").length`); n != 0 {
		t.Errorf("Expected no script, image, frame or link in the page, but it has %d", n)
	}
	if got := eval[[]string](p, `[...document.querySelectorAll("*")].flatMap(e => [...e.attributes].filter(a => a.name.startsWith("on")).map(a => e.tagName + " " + a.name))`); len(got) > 0 {
		t.Errorf("Expected no event handler attribute in the page, but found %q", got)
	}
	// The reader opens every case, picks every filter and hovers over the
	// texts: still nothing runs.
	if _, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](
		`document.querySelectorAll("details").forEach(d => d.open = true); `+
			`document.querySelectorAll("label, summary, .content, code, pre, td").forEach(e => { e.dispatchEvent(new MouseEvent("mouseover", {bubbles: true})); }); true`)); err != nil {
		t.Fatalf("Expected to open the cases, but: %v", err)
	}
	for _, f := range []string{"flaky", "all", "failing"} {
		if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.CSS(`label[for="show-`+f+`"]`))); err != nil {
			t.Fatalf("Expected to click the %s filter, but: %v", f, err)
		}
	}
	checkClean(t, p)
	// And the texts are there, as text.
	text := eval[string](p, `document.body.textContent`)
	for _, want := range []string{`<script>window.__pwned = "script"; alert(1)</script>`, `href="javascript:window.__pwned='link';alert(3)"`, `<img src=x onerror="window.__pwned='passing id'">`} {
		if !strings.Contains(text, want) {
			t.Errorf("Expected the page to show %q as text, but it does not", want)
		}
	}
	checkReport(t, p, r)
}
