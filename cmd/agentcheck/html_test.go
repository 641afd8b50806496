package main

import (
	"encoding/json"
	"fmt"
	"html"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// htmlCases are the cases of an HTML report, in page order, each with its
// filter class ("fail", "flaky", "pass"): a case in full is a <details>, a
// summarised one a table row (passing ones in a table of their own).
var htmlCases = regexp.MustCompile(`<details class="case s-(\w+) [^>]*>\s*<summary><span class="badge [^"]*">\w+</span> <span class="cid">([^<]*)</span>|<tr(?: class=s-(\w+))?><td>([^<]*)<td>`)

func casesOfPage(page string) (names, filters []string) {
	for _, m := range htmlCases.FindAllStringSubmatch(page, -1) {
		name, filter := m[2], m[1]
		if name == "" {
			name, filter = m[4], m[3]
		}
		if filter == "" {
			filter = "pass"
		}
		names, filters = append(names, html.UnescapeString(name)), append(filters, filter)
	}
	return names, filters
}

// casesOfJSON are the names and filter classes of --format json's samples,
// failing ones first as the page orders them.
func casesOfJSON(t *testing.T, out string) (names, filters []string) {
	t.Helper()
	var run struct {
		Samples []struct {
			ID     string `json:"id"`
			Line   int    `json:"line"`
			Status string `json:"status"`
		} `json:"samples"`
	}
	if err := json.Unmarshal([]byte(out), &run); err != nil {
		t.Fatalf("Expected --format json to be a run, but: %v\n%s", err, out)
	}
	for _, class := range []string{"fail", "flaky", "pass"} {
		for _, s := range run.Samples {
			filter := map[string]string{"fail": "fail", "error": "fail", "flaky": "flaky", "pass": "pass"}[s.Status]
			if filter != class {
				continue
			}
			name := s.ID
			if name == "" {
				name = fmt.Sprintf("line %d", s.Line)
			}
			names, filters = append(names, name), append(filters, filter)
		}
	}
	return names, filters
}

// checkPage fails unless page is a self-contained report: one document, a
// policy forbidding scripts and requests, no script, no link.
func checkPage(t *testing.T, page string) {
	t.Helper()
	if !strings.HasPrefix(page, "<!doctype html>") || strings.Count(page, "</html>") != 1 {
		t.Fatalf("Expected one HTML document on standard output, but it starts %.80q and ends %.80q", page, page[max(0, len(page)-80):])
	}
	if !strings.Contains(page, `content="default-src 'none'; style-src 'unsafe-inline'`) {
		t.Errorf("Expected a Content-Security-Policy that allows no request and no script, but the page has none")
	}
	for _, tag := range pageTag.FindAllString(page, -1) {
		if m := bannedMarkup.FindString(tag); m != "" {
			t.Errorf("Expected a self-contained page with no script, image, frame, link or handler, but it has %q in %.120q", m, tag)
		}
	}
}

var (
	pageTag      = regexp.MustCompile(`<[a-zA-Z][^>]*>`)
	bannedMarkup = regexp.MustCompile(`(?i)^<(script|img|iframe|object|embed|a|form|base)\b|\s(src|on[a-z]+|action|formaction)=|\shref="(?:[^d]|d[^a])`)
)

var demoThresholds = []string{"--sample-threshold", "tool_call_accuracy=0.8", "--sample-threshold", "agent_goal_accuracy=0.5"}

func TestEvalFormatHTML(t *testing.T) {
	judgeEnv(t, offlineURL, "", "")
	page, stderr, code := runAgentcheck(t, "", append([]string{"eval", "--format", "html"}, demoThresholds...)...)
	if code != exitFailed {
		t.Fatalf("Expected exit %d (the thresholds fail), but got %d: %s", exitFailed, code, stderr)
	}
	checkPage(t, page)
	out, stderr, code := runAgentcheck(t, "", append([]string{"eval", "--format", "json"}, demoThresholds...)...)
	if code != exitFailed {
		t.Fatalf("Expected exit %d, but got %d: %s", exitFailed, code, stderr)
	}
	wantNames, wantFilters := casesOfJSON(t, out)
	names, filters := casesOfPage(page)
	if !slices.Equal(names, wantNames) || !slices.Equal(filters, wantFilters) {
		t.Errorf("Expected the page to list the demo's cases failing first as --format json has them,\n  %q %q\nbut it lists\n  %q %q", wantNames, wantFilters, names, filters)
	}
	if !slices.Contains(filters, "fail") || !slices.Contains(filters, "pass") {
		t.Fatalf("Expected the demo to have failing and passing cases under %q, but its filters are %q", demoThresholds, filters)
	}
	for _, want := range []string{
		"The forecast was given in Fahrenheit (64°F), not in Celsius as desired.", // a judge's reason
		"get_weather</span>(<code>",             // a tool call in a transcript
		"Expected against made",                 // the call diff
		"--sample-threshold tool_call_accuracy", // a gate
		"histogram of tool_call_accuracy",       // a metric's histogram
	} {
		if !strings.Contains(page, want) {
			t.Errorf("Expected the demo's page to show %q, but it does not", want)
		}
	}
}

// A transcript that tries to run a script, through eval from a dataset file
// to the page: the page shows its text and has no script.
func TestEvalFormatHTMLEscapesTheTranscript(t *testing.T) {
	const sample = `{"id": "<script>window.__pwned=1</script>", "user_input": [` +
		`{"type": "human", "content": "<img src=x onerror=\"window.__pwned=2\">"},` +
		`{"type": "ai", "content": "<a href=\"javascript:window.__pwned=3\">here</a>", "tool_calls": [{"name": "search", "args": {"q": "</code></pre><script>window.__pwned=4</script>"}}]},` +
		`{"type": "tool", "content": "</details><svg onload=\"window.__pwned=5\">"}],` +
		`"reference_tool_calls": [{"name": "book", "args": {}}]}`
	file := writeFile(t, "poisoned.jsonl", sample+"\n")
	page, stderr, code := runAgentcheck(t, "", "eval", "--format", "html", "--metrics", "tool_call_accuracy", "--sample-threshold", "tool_call_accuracy=1", file)
	if code != exitFailed {
		t.Fatalf("Expected exit %d (the sample fails), but got %d: %s", exitFailed, code, stderr)
	}
	checkPage(t, page)
	for _, want := range []string{
		"&lt;script&gt;window.__pwned=1&lt;/script&gt;",
		"&lt;img src=x onerror=&#34;window.__pwned=2&#34;&gt;",
		"&lt;a href=&#34;javascript:window.__pwned=3&#34;&gt;here&lt;/a&gt;",
		"&lt;/details&gt;&lt;svg onload=&#34;window.__pwned=5&#34;&gt;",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("Expected the page to show %q as text, but it does not", want)
		}
	}
	if names, filters := casesOfPage(page); !slices.Equal(names, []string{"<script>window.__pwned=1</script>"}) || !slices.Equal(filters, []string{"fail"}) {
		t.Errorf("Expected the one failing case, named by its id, but the page lists %q %q", names, filters)
	}
}

// agentcheck report renders a saved --format json run as the same page:
// the same cases, with their reasons, verdicts and transcripts.
func TestReportFormatHTML(t *testing.T) {
	judgeEnv(t, offlineURL, "", "")
	out, stderr, code := runAgentcheck(t, "", append([]string{"eval", "--format", "json"}, demoThresholds...)...)
	if code != exitFailed {
		t.Fatalf("Expected exit %d, but got %d: %s", exitFailed, code, stderr)
	}
	saved := writeFile(t, "run.json", out)
	page, stderr, code := runAgentcheck(t, "", "report", "--format", "html", saved)
	if code != exitOK {
		t.Fatalf("Expected agentcheck report to exit 0, but got %d: %s", code, stderr)
	}
	checkPage(t, page)
	again, _, _ := runAgentcheck(t, out, "report", "--format", "html", "-")
	if again != page {
		t.Errorf("Expected the same page from the file and from standard input, but they differ")
	}
	evalPage, _, _ := runAgentcheck(t, "", append([]string{"eval", "--format", "html"}, demoThresholds...)...)
	names, filters := casesOfPage(page)
	evalNames, evalFilters := casesOfPage(evalPage)
	if !slices.Equal(names, evalNames) || !slices.Equal(filters, evalFilters) {
		t.Errorf("Expected the saved run's page to list eval's cases %q %q, but it lists %q %q", evalNames, evalFilters, names, filters)
	}
	// Past the run's time, the pages are the same.
	when := regexp.MustCompile(`<dd>[^<]* UTC( · took [^<]*)?</dd>`)
	if a, b := when.ReplaceAllString(page, ""), when.ReplaceAllString(evalPage, ""); a != b {
		t.Errorf("Expected the saved run's page to be eval's but for the time, but it differs:\n%s", firstDifference(a, b))
	}
}

func firstDifference(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return fmt.Sprintf("report: …%.200q\n  eval: …%.200q", a[max(0, i-60):], b[max(0, i-60):])
}
