package recorder

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// ReplayMissError is the error of a request the cassette has no
// interaction left for, when recording is off. Its message names the
// cassette, the test, the closest recorded request with a diff against it,
// and the command that records it.
//
// [Recorder.RoundTrip] returns it. The transports of [Recorder.Client]
// and [Recorder.Transport], which SDKs are given, make a miss final
// instead: an SDK retries an error from its transport as a dropped
// connection (openai-go and anthropic-sdk-go twice by default, about 1.4 s
// per miss), so they answer with a response no SDK retries, status 404
// Not Found with X-Should-Retry: false. Its body reads as the miss in
// JSON ({"error":{"message":...}}), then fails with the *ReplayMissError
// itself, so that the error the SDK returns is (or wraps) it: errors.As
// finds it through go-openai, openai-go, anthropic-sdk-go and genai alike.
type ReplayMissError struct {
	Cassette string // the cassette file
	Test     string // the test, when known
	Request  string // "POST /v1/chat/completions"
	Reason   string // why nothing matched
	Closest  string // the closest recorded request, "" when there is none
	Diff     string // -recorded +got lines against Closest
	Hint     string // e.g. that the prompt version changed
	Command  string // the command that records the missing interaction
}

func (e *ReplayMissError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "agentcheck: replay miss: %s: %s\n", e.Request, e.Reason)
	fmt.Fprintf(&b, "  cassette: %s\n", e.Cassette)
	if e.Test != "" {
		fmt.Fprintf(&b, "  test: %s\n", e.Test)
	}
	if e.Closest != "" {
		fmt.Fprintf(&b, "  closest recorded request: %s\n", e.Closest)
	}
	if e.Diff != "" {
		b.WriteString("  diff (-recorded +got):\n")
		for _, l := range strings.Split(e.Diff, "\n") {
			b.WriteString("    " + l + "\n")
		}
	}
	if e.Hint != "" {
		fmt.Fprintf(&b, "  hint: %s\n", e.Hint)
	}
	fmt.Fprintf(&b, "  record it with: %s", e.Command)
	return b.String()
}

// miss builds the error for a request nothing answers. It is off the fast
// path, so it may scan every request of the route.
func (r *Recorder) miss(q request, path string) error {
	key := q.canonical()
	route := key[:strings.IndexByte(key, '\n')]
	e := &ReplayMissError{
		Cassette: r.path,
		Test:     r.test,
		Request:  q.method + " " + path,
		Command:  r.command(),
	}
	if q.label != "" {
		e.Request += " (case " + q.label + ")"
	}
	r.mu.Lock()
	recorded, used := r.idx.matching(q)
	var best *group
	bestKey, bestDist := "", -1
	total := 0
	for _, g := range r.idx.groups {
		total += len(g.its)
		k := g.canonical()
		if !strings.HasPrefix(k, route+"\n") || g.req.label != q.label && g.req.label != "" {
			continue
		}
		if d := bodyDistance(k, key); bestDist < 0 || d < bestDist {
			best, bestKey, bestDist = g, k, d
		}
	}
	r.mu.Unlock()

	switch {
	case recorded > 0:
		e.Reason = fmt.Sprintf("the cassette holds %d interaction(s) for this exact request and this run already replayed them all (this is identical request #%d); record the extra call", recorded, used+1)
		return e
	case !r.existed && r.oldName != "":
		e.Reason = "the cassette file does not exist, but the test's cassette under its name before agentcheck's portable cassette names does; rename it (the case of a name now shows in it): " + renameCommand(r.oldName, r.path)
	case !r.existed:
		e.Reason = "the cassette file does not exist yet"
	case best == nil:
		e.Reason = fmt.Sprintf("no recorded request has this method and path (the cassette holds %d interaction(s))", total)
	default:
		e.Reason = "no recorded request has this body"
	}
	if best == nil {
		return e
	}
	it := best.its[0]
	e.Closest = r.scrubText(fmt.Sprintf("interaction %d, %s %s", it.ID, it.Request.Method, it.Request.URL))
	wantQuery, wantBody := splitKey(bestKey)
	gotQuery, gotBody := splitKey(key)
	var diff []string
	if wantQuery != gotQuery {
		diff = append(diff, "- query: "+strings.TrimPrefix(wantQuery, "?"), "+ query: "+strings.TrimPrefix(gotQuery, "?"))
	}
	diff = append(diff, lineDiff(prettyBody(wantBody), prettyBody(gotBody), 24)...)
	e.Diff = r.scrubText(strings.Join(diff, "\n"))
	w, g := bodyFields(wantBody), bodyFields(gotBody)
	switch {
	case w.version() != g.version():
		e.Hint = fmt.Sprintf("the prompt version differs (recorded %q, now %q): the judge's prompt changed, so its cassettes need re-recording; %s also drops the old prompt's interactions",
			w.version(), g.version(), r.RerecordCommand())
	case w.Model != g.Model && w.Model != "":
		e.Hint = fmt.Sprintf("the cassette was recorded with model %q and this run asks for %q: name no model (unset AGENTCHECK_JUDGE_MODEL, drop judge.WithModel) to replay with the recorded one, or record the new model's answers with: %s",
			w.Model, g.Model, r.command())
	}
	return e
}

// RerecordCommand is the shell command that records the cassette's
// interactions anew, dropping its old ones: AGENTCHECK_RECORD=all go test
// with the package and the test (-run '^TestX$/^subtest$'), or the command
// given with WithRecordCommand with AGENTCHECK_RECORD=all. Failure messages
// print it next to the cassette an answer came from.
func (r *Recorder) RerecordCommand() string {
	cmd := r.command()
	if rest, ok := strings.CutPrefix(cmd, RecordEnv+"=missing "); ok {
		return RecordEnv + "=all " + rest
	}
	return RecordEnv + "=all " + cmd
}

// command is the shell command that records this test's missing
// interactions.
func (r *Recorder) command() string {
	if r.recordCmd != "" {
		return r.recordCmd
	}
	return recordCommand(r.pkg, r.test, runTest)
}

func splitKey(key string) (query, body string) {
	rest := key[strings.IndexByte(key, '\n')+1:]
	nl := strings.IndexByte(rest, '\n')
	return rest[:nl], rest[nl+1:]
}

// bodyDistance is a cheap stand-in for the size of a textual diff between
// two canonical requests: the members and elements (split at , { [) that one
// has and the other lacks are paired in order, and each pair costs the bytes
// left after trimming their common prefix and suffix.
func bodyDistance(a, b string) int {
	ta, tb := tokens(a), tokens(b)
	ua, ub := unmatched(ta, tb), unmatched(tb, ta)
	cost := 0
	for i := range max(len(ua), len(ub)) {
		switch {
		case i >= len(ua):
			cost += len(ub[i])
		case i >= len(ub):
			cost += len(ua[i])
		default:
			x, y := ua[i], ub[i]
			p := 0
			for p < len(x) && p < len(y) && x[p] == y[p] {
				p++
			}
			s := 0
			for s < len(x)-p && s < len(y)-p && x[len(x)-1-s] == y[len(y)-1-s] {
				s++
			}
			cost += len(x) + len(y) - 2*(p+s)
		}
	}
	return cost
}

// unmatched returns, in order, the tokens of a that b does not have (as
// multisets).
func unmatched(a, b []string) []string {
	count := make(map[string]int, len(b))
	for _, t := range b {
		count[t]++
	}
	var out []string
	for _, t := range a {
		if count[t] > 0 {
			count[t]--
			continue
		}
		out = append(out, t)
	}
	return out
}

func tokens(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '{' || r == '[' || r == '\n' })
}

// prettyBody is a canonical body as indented lines, object members sorted,
// for the diff of a miss; a body that is not JSON is its own lines.
func prettyBody(body string) []string {
	d := json.NewDecoder(strings.NewReader(body))
	d.UseNumber()
	var v any
	if d.Decode(&v) == nil {
		if _, err := d.Token(); err == io.EOF {
			var buf bytes.Buffer
			e := json.NewEncoder(&buf)
			e.SetEscapeHTML(false)
			e.SetIndent("", "  ")
			e.Encode(v) // decoded JSON: always encodable
			return strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
		}
	}
	return strings.Split(body, "\n")
}

// requestFields are the fields of a JSON request body that a miss's hint
// looks at.
type requestFields struct {
	Model string `json:"model"`
	User  string `json:"user"`
}

func bodyFields(body string) requestFields {
	var v requestFields
	json.Unmarshal([]byte(body), &v) // a body that is not JSON has neither
	return v
}

func (f requestFields) version() string { return strings.TrimPrefix(f.User, PromptVersionPrefix) }

// lineDiff renders the changed lines of want → got with one line of context,
// at most limit lines; long lines are cut around their first difference.
func lineDiff(want, got []string, limit int) []string {
	pre := 0
	for pre < len(want) && pre < len(got) && want[pre] == got[pre] {
		pre++
	}
	suf := 0
	for suf < len(want)-pre && suf < len(got)-pre && want[len(want)-1-suf] == got[len(got)-1-suf] {
		suf++
	}
	w, g := want[pre:len(want)-suf], got[pre:len(got)-suf]
	type op struct {
		kind byte // ' ', '-', '+'
		line string
	}
	var ops []op
	if pre > 0 {
		ops = append(ops, op{' ', want[pre-1]})
	}
	if len(w)*len(g) <= 250_000 {
		// Longest common subsequence, walked forwards.
		lcs := make([][]int32, len(w)+1)
		for i := range lcs {
			lcs[i] = make([]int32, len(g)+1)
		}
		for i := len(w) - 1; i >= 0; i-- {
			for j := len(g) - 1; j >= 0; j-- {
				if w[i] == g[j] {
					lcs[i][j] = lcs[i+1][j+1] + 1
				} else {
					lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
				}
			}
		}
		i, j := 0, 0
		for i < len(w) || j < len(g) {
			switch {
			case i < len(w) && j < len(g) && w[i] == g[j]:
				ops = append(ops, op{' ', w[i]})
				i++
				j++
			case j == len(g) || i < len(w) && lcs[i+1][j] >= lcs[i][j+1]:
				ops = append(ops, op{'-', w[i]})
				i++
			default:
				ops = append(ops, op{'+', g[j]})
				j++
			}
		}
	} else {
		for _, l := range w {
			ops = append(ops, op{'-', l})
		}
		for _, l := range g {
			ops = append(ops, op{'+', l})
		}
	}
	if suf > 0 {
		ops = append(ops, op{' ', want[len(want)-suf]})
	}
	// Keep changed lines and their immediate neighbours.
	var out []string
	lastKept := -2
	for k, o := range ops {
		near := o.kind != ' ' || k > 0 && ops[k-1].kind != ' ' || k+1 < len(ops) && ops[k+1].kind != ' '
		if !near {
			continue
		}
		if lastKept >= 0 && k > lastKept+1 {
			out = append(out, "  ...")
		}
		lastKept = k
		line := o.line
		if o.kind != ' ' {
			// Align the cut of a changed line with its counterpart.
			other := ""
			for _, p := range ops[k+1:] {
				if p.kind != ' ' && p.kind != o.kind {
					other = p.line
					break
				}
				if p.kind == ' ' {
					break
				}
			}
			if other == "" {
				for q := k - 1; q >= 0 && ops[q].kind != ' '; q-- {
					if ops[q].kind != o.kind {
						other = ops[q].line
					}
				}
			}
			line = cutAround(line, other)
		} else {
			line = cutAround(line, line)
		}
		out = append(out, string(o.kind)+" "+line)
		if len(out) >= limit {
			out = append(out, "  ... (diff cut)")
			break
		}
	}
	return out
}

// cutAround shortens a long line to a window around where it starts to
// differ from other.
func cutAround(line, other string) string {
	const width = 100
	if len(line) <= width {
		return line
	}
	p := 0
	for p < len(line) && p < len(other) && line[p] == other[p] {
		p++
	}
	if p == len(line) && line == other {
		p = 0
	}
	start := max(0, p-width/3)
	end := min(len(line), start+width)
	s := strings.ToValidUTF8(line[start:end], "")
	if start > 0 {
		s = "…" + s
	}
	if end < len(line) {
		s += "…"
	}
	return s
}
