package dataset_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/dataset"
	"github.com/agentcheck/agentcheck/internal/samplereuse"
)

// A bounded Parser reading Auto reads a record that does not write
// "user_input" as a provider's messages first, and as a ragas sample only
// when they are not there: whichever it reads first, each record gives
// what its own format gives, and a record of no format the error of its
// reading as a ragas sample, as SampleAs(Auto) does. One Parser reads them
// all in turn, so that each reading also follows another's in its memory.
func TestAutoReadsEachShapeAsItsFormat(t *testing.T) {
	bound := samplereuse.BoundValues.(func(*dataset.Parser, int, string))
	escapedKey := strings.Replace(sameRun[dataset.Ragas], `"user_input"`, `"user_inp\u0075t"`, 1)
	contentNamesKey := strings.Replace(sameRun[dataset.OpenAI], `"content": "rain"`, `"content": "user_input"`, 1)
	cases := []struct {
		name, text string
		as         dataset.Format // the format that must read it the same, "" for none
		err        string         // else the error's end
	}{
		{"ragas", sameRun[dataset.Ragas], dataset.Ragas, ""},
		{"ragas, its key escaped", escapedKey, dataset.Ragas, ""},
		{"openai", sameRun[dataset.OpenAI], dataset.OpenAI, ""},
		{"openai, a content that is the key's name", contentNamesKey, dataset.OpenAI, ""},
		{"responses", sameRun[dataset.Responses], dataset.Responses, ""},
		{"anthropic", sameRun[dataset.Anthropic], dataset.Anthropic, ""},
		{"gemini", sameRun[dataset.Gemini], dataset.Gemini, ""},
		{"neither", `{"foo": 1}`, "", `"user_input" is missing`},
		{"messages not a list", `{"messages": 3}`, "", "openai messages: want a list of messages, got int"},
		{"a malformed message", `{"messages": [{"role": "robot", "content": "x"}]}`, "", `unknown role "robot"`},
		{"both keys", `{"messages": [], "user_input": 3}`, "", `"user_input" must be a list of messages, got int`},
		{"both keys, user_input escaped", `{"messages": [], "user_inp\u0075t": 3}`, "", `"user_input" must be a list of messages, got int`},
		{"an OTLP export", `{"resourceSpans": []}`, "", "read the file with ReadOTLPTraces (agentcheck eval --input-format otel)"},
		{"not an object", `[1, 2]`, "", "a sample must be a JSON object"},
	}
	var p dataset.Parser
	bound(&p, 1<<20, "--max-sample-values")
	for round := range 2 {
		for _, tc := range cases {
			rec := dataset.Record{File: "a.jsonl", Line: 3, Index: 2, Text: tc.text}
			got, gotErr := p.Sample(rec)
			want, wantErr := rec.SampleAs(dataset.Auto)
			if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || gotErr == nil && !reflect.DeepEqual(comparable(got), comparable(want)) {
				t.Fatalf("round %d, %s: the Parser gives %+v, %v; SampleAs(Auto) %+v, %v", round, tc.name, got, gotErr, want, wantErr)
			}
			if tc.as != "" {
				as, err := rec.SampleAs(tc.as)
				if gotErr != nil || err != nil || !reflect.DeepEqual(comparable(got), comparable(as)) {
					t.Fatalf("round %d, %s: Auto gives %+v, %v; %s gives %+v, %v", round, tc.name, got, gotErr, tc.as, as, err)
				}
				continue
			}
			if gotErr == nil || !strings.HasSuffix(gotErr.Error(), tc.err) && !strings.Contains(gotErr.Error(), tc.err) {
				t.Fatalf("round %d, %s: error %v, want one with %q", round, tc.name, gotErr, tc.err)
			}
		}
	}
}

// comparable is s with its arguments as JSON: two readings of one
// sample give the same values, written from texts spaced apart.
func comparable(s agentcheck.Sample) string {
	return fmt.Sprintf("%s|%s|%v|%s|%v", s.ID, s.Conversation, s.ReferenceToolCalls, s.Reference, s.ReferenceTopics)
}
