package report

import (
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/internal/plainreason"
	"github.com/agentcheck/agentcheck/metric"
)

// Bounds on what a Case keeps, so that a run of many cases stays small.
const (
	// maxReason bounds a reason, in runes; maxText a text of a transcript
	// or a verdict.
	maxReason = 500
	maxText   = 4000
	// maxMessages bounds a transcript: its first and last messages are
	// kept, a note says how many were left out between.
	maxMessages = 200
)

// SetResult puts a metric's result in the case as its score by the metric
// j of the run (Scores and Reasons grow to hold it): the score, the reason
// on one line and cut short, and the judges' verdicts.
func (c *Case) SetResult(j int, r *metric.Result) {
	c.grow(j)
	c.Scores[j] = r.Score
	c.Reasons[j] = oneLine(r.Reason, maxReason)
	for _, v := range r.Verdicts {
		rv := Verdict{Metric: r.Metric, Judge: v.Model, Score: v.Score, Reason: cut(v.Reason, maxText), Source: v.Source}
		if v.Err != nil {
			rv.Error = cut(v.Err.Error(), maxText)
		}
		for _, t := range v.Topics {
			reason := "answered"
			if !t.Answered {
				reason = "refused"
			}
			rv.Criteria = append(rv.Criteria, Criterion{Name: cut(t.Topic, maxText), Met: t.OnTopic, Reason: reason})
		}
		c.Verdicts = append(c.Verdicts, rv)
	}
}

// grow makes Scores and Reasons hold metric j's.
func (c *Case) grow(j int) {
	for len(c.Scores) <= j {
		c.Scores = append(c.Scores, math.NaN())
	}
	for len(c.Reasons) <= j {
		c.Reasons = append(c.Reasons, "")
	}
}

func init() {
	plainreason.SetResult = func(c *Case, j int, r *metric.Result) bool {
		if len(r.Reason) > maxReason || len(r.Verdicts) > 0 {
			c.SetResult(j, r)
			return false
		}
		c.grow(j)
		c.Scores[j], c.Reasons[j] = r.Score, r.Reason
		return true
	}
	plainreason.WriteCase = func(w *Writer, c *Case, plain uint64) error {
		w.plain = plain
		defer func() { w.plain = 0 }()
		return w.WriteCase(c)
	}
}

// Transcript is a conversation as a report keeps it: each message's role,
// text, reasoning and tool calls, each text cut to a bound, and of a long
// conversation its first and last messages with a note between of how
// many were left out.
func Transcript(conv agentcheck.Conversation) []Message {
	var ms []Message
	for i, m := range conv {
		if len(conv) > maxMessages && i == maxMessages/2 {
			ms = append(ms, Message{Role: "note", Content: fmt.Sprintf("… %d messages left out …", len(conv)-maxMessages)})
		}
		if len(conv) > maxMessages && i >= maxMessages/2 && i < len(conv)-maxMessages/2 {
			continue
		}
		rm := Message{Role: string(m.Role), Content: cut(m.Content, maxText), Reasoning: cut(m.Reasoning, maxText)}
		if m.IsError {
			rm.Content = "error: " + rm.Content
		}
		for _, tc := range m.ToolCalls {
			args := tc.InvalidArgs
			if args == "" {
				p, err := tc.Args.MarshalJSON()
				if err != nil {
					p = []byte(err.Error())
				}
				args = string(p)
			}
			rm.Calls = append(rm.Calls, Call{Name: cut(tc.Name, maxText), Args: cut(args, maxText)})
		}
		ms = append(ms, rm)
	}
	return ms
}

// cut is s cut to n runes, with "…" when it was longer.
func cut(s string, n int) string {
	if len(s) <= n || utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
