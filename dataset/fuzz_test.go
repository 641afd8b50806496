package dataset_test

// Fuzz targets for the readers of untrusted input. Each checks invariants,
// not only the absence of panics. Seeds live in testdata/fuzz/<target>; run
// one with, for example,
//
//	go test -run '^$' -fuzz '^FuzzParseSample$' -fuzztime 60s ./dataset
//
// The root package's FuzzParseValue holds the JSON parser to its round trip,
// and its FuzzParseSampleReference ParseSample to the plain decoder it
// replaced; these targets do not repeat them.

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/dataset"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// lineCount is the number of lines of text as an editor numbers them, and
// as the readers do: CR, LF and CRLF each end a line.
func lineCount(text string) int {
	return strings.Count(text, "\r\n") + strings.Count(strings.ReplaceAll(text, "\r\n", ""), "\r") +
		strings.Count(strings.ReplaceAll(text, "\r\n", ""), "\n") + 1
}

// FuzzParseSample: a ragas sample either loads into a valid conversation,
// and then survives being written back out and read again unchanged, or
// fails with a *LoadError on a line of the record, in its file, as its
// sample, wrapping what ParseSample says of the record's text.
func FuzzParseSample(f *testing.F) {
	f.Fuzz(func(t *testing.T, text string, first uint16) {
		start := int(first)%5000 + 1
		rec := dataset.Record{File: "data.jsonl", Line: start, Index: 7, Text: text}
		checkReadSamples(t, text)
		s, err := rec.Sample()
		if err != nil {
			var le *dataset.LoadError
			if !errors.As(err, &le) {
				t.Fatalf("error %v (%T) is not a *LoadError", err, err)
			}
			if le.File != "data.jsonl" || le.Sample != 7 || le.Err == nil {
				t.Fatalf("error %v names file %q, sample %d; want data.jsonl, 7", err, le.File, le.Sample)
			}
			if le.Line < start || le.Line >= start+lineCount(text) {
				t.Fatalf("error %v names line %d, outside the record's lines %d..%d", err, le.Line, start, start+lineCount(text)-1)
			}
			// ParseSample's error is the same, its lines numbered from 1.
			_, err2 := agentcheck.ParseSample(text)
			var se *jsonvalue.SyntaxError
			line := 1
			if errors.As(err2, &se) {
				line = se.Line
			}
			if err2 == nil || err2.Error() != le.Err.Error() || line != le.Line-start+1 {
				t.Fatalf("ParseSample error %v, want %v on line %d", err2, le.Err, le.Line-start+1)
			}
			return
		}
		if err := s.Conversation.Validate(); err != nil {
			t.Fatalf("loaded an invalid conversation: %v", err)
		}
		data := marshalSample(s)
		back, err := agentcheck.ParseSample(string(data))
		if err != nil {
			t.Fatalf("the sample written back does not load: %v\n%s", err, data)
		}
		if diff := cmp.Diff(s, back, sameValue); diff != "" {
			t.Fatalf("the sample written back loads differently (-loaded +reloaded):\n%s\nwritten: %s", diff, data)
		}
	})
}

// checkReadSamples reads text as a dataset file, as JSON Lines and as
// JSON: every sample it yields is valid, every error is a *LoadError on a
// line of the file, errors name samples in order, and an error of the
// framing (which names no sample: Sample -1) is the last thing read.
func checkReadSamples(t *testing.T, text string) {
	t.Helper()
	for _, file := range []string{"data.jsonl", "data.json"} {
		last, framing := -1, false
		for s, err := range dataset.ReadSamples(strings.NewReader(text), file) {
			if framing {
				t.Fatalf("%s: %v after the framing's error", file, err)
			}
			if err != nil {
				var le *dataset.LoadError
				if !errors.As(err, &le) {
					t.Fatalf("%s: error %v (%T) is not a *LoadError", file, err, err)
				}
				framing = le.Sample == -1
				if le.File != file || le.Line < 1 || le.Line > lineCount(text) || (le.Sample <= last && !framing) {
					t.Fatalf("%s: error %v names line %d of %d, sample %d after sample %d", file, err, le.Line, lineCount(text), le.Sample, last)
				}
				last = max(last, le.Sample)
				continue
			}
			if err := s.Conversation.Validate(); err != nil {
				t.Fatalf("%s: loaded an invalid conversation: %v", file, err)
			}
		}
	}
}

// marshalSample writes s as a ragas MultiTurnSample. A nil list is left
// out and an empty one written, since the two mean different things.
func marshalSample(s agentcheck.Sample) []byte {
	b := []byte(`{"user_input": [`)
	for i, m := range s.Conversation {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, `{"type": `...)
		b = appendJSON(b, jsonvalue.String(string(m.Role)))
		b = append(b, `, "content": `...)
		b = appendJSON(b, jsonvalue.String(m.Content))
		if m.ToolCalls != nil {
			b = append(b, `, "tool_calls": `...)
			b = appendRagasCalls(b, m.ToolCalls)
		}
		b = append(b, '}')
	}
	b = append(b, ']')
	if s.Reference != "" {
		b = append(b, `, "reference": `...)
		b = appendJSON(b, jsonvalue.String(s.Reference))
	}
	if s.ReferenceToolCalls != nil {
		b = append(b, `, "reference_tool_calls": `...)
		b = appendRagasCalls(b, s.ReferenceToolCalls)
	}
	if s.ReferenceTopics != nil {
		b = append(b, `, "reference_topics": [`...)
		for i, topic := range s.ReferenceTopics {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendJSON(b, jsonvalue.String(topic))
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

func appendRagasCalls(b []byte, calls []agentcheck.ToolCall) []byte {
	b = append(b, '[')
	for i, tc := range calls {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, `{"name": `...)
		b = appendJSON(b, jsonvalue.String(tc.Name))
		b = append(b, `, "args": `...)
		args := tc.Args
		if args.Kind() == jsonvalue.NullKind {
			args = jsonvalue.Object()
		}
		b = appendJSON(b, args)
		b = append(b, '}')
	}
	return append(b, ']')
}

func appendJSON(b []byte, v jsonvalue.Value) []byte {
	out, err := v.MarshalJSON()
	if err != nil {
		panic(err)
	}
	return append(b, out...)
}

// FuzzParseOpenAIMessages: OpenAI messages either load into a valid
// conversation with one message per input message, which survives being
// written back out, or fail with an error that says where: a *MessageError
// on a message (and tool call) that exists, a *SyntaxError where the JSON
// breaks, or, only when the document is not a list of messages at all, an
// error about the document.
func FuzzParseOpenAIMessages(f *testing.F) {
	f.Fuzz(func(t *testing.T, text string) {
		conv, err := dataset.ParseOpenAIMessages([]byte(text))
		doc, docErr := jsonvalue.Parse([]byte(text))
		msgs := doc
		if doc.Kind() == jsonvalue.ObjectKind {
			msgs, _ = doc.Get("messages")
		}
		if err != nil {
			var me *agentcheck.MessageError
			var se *jsonvalue.SyntaxError
			switch {
			case errors.As(err, &me):
				if docErr != nil || msgs.Kind() != jsonvalue.ArrayKind || me.Message < 0 || me.Message >= msgs.Len() {
					t.Fatalf("error %v names message %d of %d", err, me.Message, msgs.Len())
				}
				calls, _ := msgs.Index(me.Message).Get("tool_calls")
				if me.ToolCall < -1 || me.ToolCall >= calls.Len() {
					t.Fatalf("error %v names tool call %d of %d", err, me.ToolCall, calls.Len())
				}
			case errors.As(err, &se):
				var want *jsonvalue.SyntaxError
				if !errors.As(docErr, &want) || *se != *want {
					t.Fatalf("error %v, but the document's own syntax error is %v", err, docErr)
				}
				if se.Line < 1 || se.Line > lineCount(text) || se.Column < 1 {
					t.Fatalf("error %v names line %d, column %d of %d lines", err, se.Line, se.Column, lineCount(text))
				}
			default:
				if docErr != nil || msgs.Kind() == jsonvalue.ArrayKind {
					t.Fatalf("error %v (%T) names no message, but the document is a list of messages", err, err)
				}
			}
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		if docErr != nil || msgs.Kind() != jsonvalue.ArrayKind || len(conv) != msgs.Len() {
			t.Fatalf("loaded %d messages from a document with %d (parse error %v)", len(conv), msgs.Len(), docErr)
		}
		if err := conv.Validate(); err != nil {
			t.Fatalf("loaded an invalid conversation: %v", err)
		}
		for _, tc := range conv.ToolCalls() {
			if _, perr := jsonvalue.Parse([]byte(tc.InvalidArgs)); tc.InvalidArgs != "" && (perr == nil || tc.Args.Kind() != jsonvalue.NullKind) {
				t.Fatalf("call %s keeps arguments %q as not valid JSON (parse error %v), with Args %s", tc.Name, tc.InvalidArgs, perr, tc.Args)
			}
		}
		data := marshalOpenAI(conv)
		back, err := dataset.ParseOpenAIMessages(data)
		if err != nil {
			t.Fatalf("the messages written back do not load: %v\n%s", err, data)
		}
		if diff := cmp.Diff(conv, back, sameValue); diff != "" {
			t.Fatalf("the messages written back load differently (-loaded +reloaded):\n%s\nwritten: %s", diff, data)
		}
	})
}

var openAIRoles = map[agentcheck.Role]string{
	agentcheck.Human: "user", agentcheck.AI: "assistant", agentcheck.Tool: "tool", agentcheck.System: "system",
}

// marshalOpenAI writes conv as Chat Completions messages, arguments as JSON
// strings as the API sends them.
func marshalOpenAI(conv agentcheck.Conversation) []byte {
	b := []byte{'['}
	for i, m := range conv {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"role":`...)
		b = appendJSON(b, jsonvalue.String(openAIRoles[m.Role]))
		b = append(b, `,"content":`...)
		b = appendJSON(b, jsonvalue.String(m.Content))
		if m.ToolCallID != "" {
			b = append(b, `,"tool_call_id":`...)
			b = appendJSON(b, jsonvalue.String(m.ToolCallID))
		}
		if m.ToolCalls != nil {
			b = append(b, `,"tool_calls":[`...)
			for j, tc := range m.ToolCalls {
				if j > 0 {
					b = append(b, ',')
				}
				b = append(b, `{"id":`...)
				b = appendJSON(b, jsonvalue.String(tc.ID))
				b = append(b, `,"type":"function","function":{"name":`...)
				b = appendJSON(b, jsonvalue.String(tc.Name))
				b = append(b, `,"arguments":`...)
				if tc.InvalidArgs != "" {
					// Arguments that are not JSON go back as they came.
					b = appendJSON(b, jsonvalue.String(tc.InvalidArgs))
					b = append(b, "}}"...)
					continue
				}
				args := tc.Args
				if args.Kind() == jsonvalue.NullKind {
					args = jsonvalue.Object()
				}
				b = appendJSON(b, jsonvalue.String(string(appendJSON(nil, args))))
				b = append(b, "}}"...)
			}
			b = append(b, ']')
		}
		b = append(b, '}')
	}
	return append(b, ']')
}
