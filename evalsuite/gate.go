package evalsuite

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

type gateKind uint8

const (
	gateMean gateKind = iota + 1
	gatePassRate
	gatePassAtK
	gatePassHatK
)

// Gate is a verdict over all the cases that ran, made with MeanAtLeast,
// PassRateAtLeast, PassAtK or PassHatK. When no case ran (go test -run
// picked none) every gate holds.
type Gate struct {
	kind   gateKind
	metric string
	k      int
	min    float64
}

// MeanAtLeast holds when the mean over the cases of their scores by the
// metric (each case's score the mean over its runs, a run that could not
// be scored counting 0) is at least min. Its table lists the cases that
// scored under min.
func MeanAtLeast(metric string, min float64) Gate {
	return Gate{kind: gateMean, metric: metric, min: min}
}

// PassRateAtLeast holds when at least the share min of all runs of all
// cases passed. Its table lists the cases with failed runs.
func PassRateAtLeast(min float64) Gate { return Gate{kind: gatePassRate, min: min} }

// PassAtK holds when pass@k, the chance that at least one of k runs of a
// case passes, estimated without bias for each case from its runs and
// averaged over the cases, is at least min. It needs a Repeat of at least
// k. Its table lists the cases whose pass@k is under 1.
func PassAtK(k int, min float64) Gate { return Gate{kind: gatePassAtK, k: k, min: min} }

// PassHatK holds when pass^k, the chance that all of k runs of a case
// pass (how reliably the agent does the task, as τ-bench measures it),
// estimated for each case and averaged over the cases, is at least min. It
// needs a Repeat of at least k. Its table lists the cases whose pass^k is
// under 1: every case that failed a run.
func PassHatK(k int, min float64) Gate { return Gate{kind: gatePassHatK, k: k, min: min} }

// label names what the gate measures: "mean tool_call_accuracy",
// "pass_rate", "pass@3", "pass^3".
func (g Gate) label() string {
	switch g.kind {
	case gateMean:
		return "mean " + g.metric
	case gatePassRate:
		return "pass_rate"
	case gatePassAtK:
		return "pass@" + strconv.Itoa(g.k)
	case gatePassHatK:
		return "pass^" + strconv.Itoa(g.k)
	}
	return "zero gate"
}

// String is the gate as a condition: "mean tool_call_accuracy ≥ 0.9".
func (g Gate) String() string { return g.label() + " ≥ " + fmtScore(g.min) }

func (g Gate) validate(metrics []string, repeat int) error {
	switch {
	case g.kind == 0:
		return errors.New("a zero Gate checks nothing: make gates with MeanAtLeast, PassRateAtLeast, PassAtK or PassHatK")
	case math.IsNaN(g.min):
		return errors.New("the least value is NaN")
	case g.kind == gateMean && index(metrics, g.metric) < 0:
		return fmt.Errorf("no check scores %s (checks: %v)", g.metric, metrics)
	case (g.kind == gatePassAtK || g.kind == gatePassHatK) && g.k < 1:
		return fmt.Errorf("k is %d, want at least 1", g.k)
	case (g.kind == gatePassAtK || g.kind == gatePassHatK) && g.k > repeat:
		return fmt.Errorf("needs at least %d runs of each case, but Repeat is %d", g.k, repeat)
	}
	return nil
}

// GateResult is how a gate fared.
type GateResult struct {
	Gate Gate
	// Value is what the gate measured: the mean, the pass rate, pass@k or
	// pass^k; NaN when no case ran.
	Value float64
	OK    bool
	// Below are the IDs of the cases that pulled the gate down, worst
	// first: those its table lists.
	Below []string

	cases, passed, runs int
	rows                []row
	errs                []string
}

// row is a line of a gate's table.
type row struct {
	id, metric       string
	score, threshold float64
	verdict          string
}

// maxTableCases bounds the cases a table lists; the rest are counted.
const maxTableCases = 50

func (g Gate) check(res *Result) GateResult {
	gr := GateResult{Gate: g, Value: math.NaN(), OK: true, cases: len(res.Cases)}
	gr.passed, gr.runs = res.runs()
	if len(res.Cases) == 0 {
		return gr
	}
	// each case's value for this gate, and which cases pulled it down
	value := func(c CaseResult) float64 {
		switch g.kind {
		case gateMean:
			return c.Score(index(res.Metrics, g.metric))
		case gatePassAtK:
			return c.PassAtK(g.k)
		case gatePassHatK:
			return c.PassHatK(g.k)
		}
		return float64(c.Passes()) / float64(len(c.Runs))
	}
	sum := 0.0
	var below []CaseResult
	for _, c := range res.Cases {
		v := value(c)
		sum += v
		if (g.kind == gateMean && !(v >= g.min)) || (g.kind != gateMean && v < 1) {
			below = append(below, c)
		}
	}
	if g.kind == gatePassRate {
		gr.Value = res.PassRate()
	} else {
		gr.Value = sum / float64(len(res.Cases))
	}
	gr.OK = gr.Value >= g.min
	slices.SortStableFunc(below, func(a, b CaseResult) int {
		return cmp.Or(cmp.Compare(value(a), value(b)), cmp.Compare(a.ID, b.ID))
	})
	for _, c := range below {
		gr.Below = append(gr.Below, c.ID)
	}
	if gr.OK {
		return gr
	}
	for i, c := range below {
		if i == maxTableCases {
			break
		}
		verdict := c.Verdict()
		if g.kind == gatePassAtK || g.kind == gatePassHatK {
			verdict += ", " + g.label() + " " + fmtScore(value(c))
		}
		if g.kind == gateMean {
			j := index(res.Metrics, g.metric)
			gr.rows = append(gr.rows, row{c.ID, g.metric, c.Score(j), c.Thresholds[j], verdict})
			continue
		}
		// the checks its runs fell short on, and its errors
		short := make([]bool, len(res.Metrics))
		failedErr := false
		for _, r := range c.Runs {
			for _, j := range r.Below {
				short[j] = true
			}
			if r.Err != nil {
				failedErr = true
				if len(gr.errs) < maxTableCases {
					gr.errs = append(gr.errs, c.ID+": "+firstLine(r.Err.Error()))
				}
			}
		}
		for j, s := range short {
			if s {
				gr.rows = append(gr.rows, row{c.ID, res.Metrics[j], c.Score(j), c.Thresholds[j], verdict})
			}
		}
		if failedErr {
			gr.rows = append(gr.rows, row{c.ID, "(error)", math.NaN(), math.NaN(), verdict})
		}
	}
	return gr
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// String is the gate's failure: what it measured against what it wants,
// then the table of the cases that pulled it down; "" when it held.
func (gr GateResult) String() string {
	if gr.OK {
		return ""
	}
	g := gr.Gate
	var b strings.Builder
	switch g.kind {
	case gateMean:
		fmt.Fprintf(&b, "Expected the mean %s over %s to be at least %s, but it is %s; the cases under %s:",
			g.metric, count(gr.cases, "case"), fmtScore(g.min), fmtScore(gr.Value), fmtScore(g.min))
	case gatePassRate:
		lo, hi := Wilson95(gr.passed, gr.runs)
		fmt.Fprintf(&b, "Expected the pass rate over %s to be at least %s, but it is %s (%d passed; 95%% Wilson interval [%.3f, %.3f]); the cases with failed runs:",
			count(gr.runs, "run"), fmtScore(g.min), fmtScore(gr.Value), gr.passed, lo, hi)
	default:
		fmt.Fprintf(&b, "Expected %s (the mean over %s of %s each) to be at least %s, but it is %s; the cases that pulled it down:",
			g.label(), count(gr.cases, "case"), count(gr.runs/max(gr.cases, 1), "run"), fmtScore(g.min), fmtScore(gr.Value))
	}
	b.WriteByte('\n')
	writeTable(&b, []string{"case", "metric", "score", "threshold", "verdict"}, gr.tableRows())
	if more := len(gr.Below) - maxTableCases; more > 0 {
		fmt.Fprintf(&b, "\n  ... and %d more cases", more)
	}
	if len(gr.errs) > 0 {
		b.WriteString("\nerrors:")
		for _, e := range gr.errs {
			b.WriteString("\n  " + e)
		}
	}
	return b.String()
}

func (gr GateResult) tableRows() [][]string {
	rows := make([][]string, len(gr.rows))
	for i, r := range gr.rows {
		rows[i] = []string{r.id, r.metric, fmtScore(r.score), fmtScore(r.threshold), r.verdict}
	}
	return rows
}

// writeTable writes an aligned plain-text table, indented by two spaces,
// without a trailing newline.
func writeTable(b *strings.Builder, header []string, rows [][]string) {
	var t strings.Builder
	w := tabwriter.NewWriter(&t, 0, 0, 2, ' ', 0)
	for _, r := range append([][]string{header}, rows...) {
		fmt.Fprintf(w, "  %s\n", strings.Join(r, "\t"))
	}
	w.Flush()
	b.WriteString(strings.TrimSuffix(t.String(), "\n"))
}
