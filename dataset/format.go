package dataset

import (
	"errors"
	"fmt"
	"strings"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/internal/samplereuse"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// Format is how a dataset writes a sample's conversation: as ragas does, or
// as a provider's API sends messages, under "messages" in a sample object
// that keeps ragas's references:
//
//	{"messages": [...], "reference_tool_calls": [{"name": ..., "args": {...}}], "reference": "...", "reference_topics": [...]}
type Format string

// The formats a sample may be written in.
const (
	// Auto tells the format apart sample by sample: ragas's "user_input",
	// or "messages" in the shape its messages have. "" means Auto too.
	Auto Format = "auto"
	// Ragas is a ragas MultiTurnSample (agentcheck.ParseSample).
	Ragas Format = "ragas"
	// OpenAI is OpenAI Chat Completions messages (ParseOpenAIMessages).
	OpenAI Format = "openai"
	// Responses is OpenAI Responses API items (ParseResponsesItems).
	Responses Format = "responses"
	// Anthropic is Anthropic Messages API messages (ParseAnthropicMessages).
	Anthropic Format = "anthropic"
	// Gemini is Gemini API contents (ParseGeminiContents).
	Gemini Format = "gemini"
)

var formats = []Format{Auto, Ragas, OpenAI, Responses, Anthropic, Gemini}

// ParseFormat reads a format's name: auto, ragas, openai, responses,
// anthropic or gemini.
func ParseFormat(name string) (Format, error) {
	for _, f := range formats {
		if name == string(f) {
			return f, nil
		}
	}
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = string(f)
	}
	return "", fmt.Errorf("unknown input format %q (want %s)", name, strings.Join(names, ", "))
}

// foreignCalls is an error when message m, read as format f, holds tool
// calls or their results the way another format writes them, which f's
// reader would pass over: a conversation read in the wrong format must
// not score as one in which the agent called nothing.
func foreignCalls(f Format, m jsonvalue.Value) error {
	if f != OpenAI {
		for _, k := range []string{"tool_calls", "function_call"} {
			if v, _ := m.Get(k); holds(v) {
				return fmt.Errorf("%q is how OpenAI chat messages write tool calls, not how %s messages do: read the sample as openai (or auto)", k, f)
			}
		}
	}
	if f != Responses {
		if t, _ := m.Get("type"); t.Kind() == jsonvalue.StringKind && responsesItem(t.Text()) {
			return fmt.Errorf("a %q item is how OpenAI's Responses API writes a call or its result, not how %s messages do: read the sample as responses (or auto)", t.Text(), f)
		}
	}
	if f != Gemini {
		if v, _ := m.Get("parts"); holds(v) {
			return fmt.Errorf(`"parts" is how Gemini contents write a message, not how %s messages do: read the sample as gemini (or auto)`, f)
		}
	}
	if f != Anthropic {
		if c, _ := m.Get("content"); c.Kind() == jsonvalue.ArrayKind {
			for j := 0; j < c.Len(); j++ {
				switch t, _ := c.Index(j).Get("type"); t.Text() {
				case "tool_use", "tool_result", "server_tool_use":
					return fmt.Errorf("content block %d is an Anthropic %q block, which %s messages do not have: read the sample as anthropic (or auto)", j, t.Text(), f)
				}
			}
		}
	}
	return nil
}

// holds reports whether v can hold a call or a part: an object, or a list
// that is not empty (a converter may leave "tool_calls": [] on every
// message, which loses nothing).
func holds(v jsonvalue.Value) bool {
	return v.Kind() == jsonvalue.ObjectKind || v.Kind() == jsonvalue.ArrayKind && v.Len() > 0
}

// SampleAs parses the record as a sample written in format f. The same
// conversation written in any format gives the same Sample, and so the
// same scores. Errors are *LoadError naming the file, line, sample and,
// inside it, the message and tool call.
func (r Record) SampleAs(f Format) (agentcheck.Sample, error) {
	var s agentcheck.Sample
	err := r.bounded(f, nil, nil, nil, 0, "", &s)
	return s, err
}

// A Parser parses records into samples as Record.SampleAs does, reusing
// its memory from record to record: the Sample it returns, with its
// messages, tool calls and argument values, is valid only until its next
// call (its strings stay valid: they share the record's text). It is how a
// program that scores samples one at a time reads a large dataset without
// allocating per sample. The zero Parser reads Auto; a Parser is not safe
// for concurrent use.
type Parser struct {
	Format Format
	into   func(text string, s *agentcheck.Sample) error // the root's reusing parser, made on first use
	// rawText: ragas samples are parsed with their messages' text kept
	// as written (samplereuse.KeepRawText).
	rawText bool
	// maxValues bounds the JSON values a sample may hold, none when 0;
	// boundName is what sets it (samplereuse.BoundValues).
	maxValues int
	boundName string
	// values reads a sample in a provider's shape, and args its calls'
	// arguments strings, their memory reused from sample to sample under
	// a bound (parseValues, newBudget).
	values jsonvalue.Decoder
	args   argDecoders
	fast   *openAIFast // OpenAI messages read in one pass, made on first use
}

// Sample parses the record as a sample written in p.Format.
func (p *Parser) Sample(r Record) (agentcheck.Sample, error) {
	var s agentcheck.Sample
	err := p.sampleInto(r, &s)
	return s, err
}

// sampleInto is Sample, the Sample set in *s (samplereuse.SampleInto).
func (p *Parser) sampleInto(r Record, s *agentcheck.Sample) error {
	if p.into == nil {
		p.into = samplereuse.NewInto.(func(bool, int, string) func(string, *agentcheck.Sample) error)(p.rawText, p.maxValues, p.boundName)
	}
	if f := p.Format; f == OpenAI || (f == Auto || f == "") && !strings.HasPrefix(r.Text, `{"user_input"`) {
		// The fast path takes the shape it knows, the general reading the
		// rest (and gives every error). A record with "user_input", however
		// written, it leaves to the general reading (one that starts with
		// it, as ragas writes it, is not even tried); one whose text only
		// names it reads as the general reading reads it, after the ragas
		// reading failed.
		if p.fast == nil {
			p.fast = &openAIFast{rawText: p.rawText}
		}
		if p.fast.read(r.Text, p.into, &p.args, p.maxValues, s) {
			return nil
		}
	}
	return r.bounded(p.Format, p.into, &p.values, &p.args, p.maxValues, p.boundName, s)
}

// bounded is SampleAs, the Sample set in *s (the zero Sample with an
// error), with ragas samples parsed by into when it is not nil, else by
// agentcheck.ParseSample, a provider's read by dec and its arguments by
// args when they are not nil, and a bound on the JSON values the sample
// may hold, maxValues (none when 0), which boundName names: a ragas
// sample's parse counts them (samplereuse.NewInto), and the parse of a
// sample in another format stops past the bound with the same error.
func (r Record) bounded(f Format, into func(string, *agentcheck.Sample) error, dec *jsonvalue.Decoder, args *argDecoders, maxValues int, boundName string, s *agentcheck.Sample) error {
	if f == "" {
		f = Auto
	}
	// The record read as values, once: v, used and perr when parsed.
	var (
		v      jsonvalue.Value
		used   int
		perr   error
		parsed bool
	)
	if f == Auto && !strings.HasPrefix(r.Text, `{"user_input"`) && !strings.Contains(r.Text, `"user_input"`) {
		// Not written as a ragas sample, but for a key with escapes: a
		// provider's messages are read first, and the reading as a ragas
		// sample, whose error is the record's when it has none, only if
		// they are not there. (Read the other way round, a provider's
		// sample took two readings more, both of the whole record.)
		v, used, perr = parseValues(r.Text, maxValues, boundName, dec)
		parsed = true
		if perr == nil && v.Kind() == jsonvalue.ObjectKind {
			_, ragas := v.Get("user_input")
			if _, ok := v.Get("messages"); ok && !ragas {
				var err error
				*s, err = messagesSample(v, Auto, newBudget(maxValues, used, boundName, args), into)
				return r.locate(err)
			}
		}
	}
	if f == Ragas || f == Auto {
		var err error
		if into != nil {
			err = into(r.Text, s)
		} else {
			*s, err = agentcheck.ParseSample(r.Text)
		}
		if err == nil || f == Ragas || overValues(err) {
			return r.locate(err)
		}
		// Not a ragas sample: a provider's messages, if it has them.
		*s = agentcheck.Sample{}
		if !parsed {
			v, used, perr = parseValues(r.Text, maxValues, boundName, dec)
		}
		if perr != nil || v.Kind() != jsonvalue.ObjectKind {
			return r.locate(err)
		}
		if _, ragas := v.Get("user_input"); ragas {
			return r.locate(err)
		}
		if _, ok := v.Get("messages"); !ok {
			if _, otlp := v.Get("resourceSpans"); otlp {
				// An OpenTelemetry trace export, whose samples are traces
				// that may spread over records: ReadOTLPTraces reads them.
				err = errors.New(`"resourceSpans" makes this an OpenTelemetry trace export, not a sample: read the file with ReadOTLPTraces (agentcheck eval --input-format otel)`)
			}
			return r.locate(err)
		}
		*s, err = messagesSample(v, Auto, newBudget(maxValues, used, boundName, args), into)
		return r.locate(err)
	}
	v, used, err := parseValues(r.Text, maxValues, boundName, dec)
	if err == nil { // (f names a provider: not parsed above)
		if *s, err = messagesSample(v, f, newBudget(maxValues, used, boundName, args), into); err == nil {
			return nil
		}
	}
	*s = agentcheck.Sample{}
	return r.locate(err)
}

// overValues reports whether err is a sample's reading stopped at the
// bound on its values.
func overValues(err error) bool {
	var over *jsonvalue.LimitError
	return errors.As(err, &over)
}

// parseValues is jsonvalue.Parse with a bound on the values text may
// hold, none when maxValues is 0: past it, the error a ragas sample's
// parse gives (samplereuse.NewInto). used is the values it holds,
// counted under a bound (0 without one).
func parseValues(text string, maxValues int, boundName string, d *jsonvalue.Decoder) (v jsonvalue.Value, used int, err error) {
	if maxValues <= 0 {
		v, err = jsonvalue.Parse([]byte(text))
		return v, 0, err
	}
	if d == nil {
		d = new(jsonvalue.Decoder)
	}
	d.Recycle(text)
	d.Limit(maxValues)
	v, err = d.Value(0)
	if err == nil {
		err = d.End("the JSON value")
	}
	if _, ok := err.(*jsonvalue.LimitError); ok {
		err = samplereuse.ValuesError(err, boundName)
	}
	if err != nil {
		return jsonvalue.Value{}, 0, err
	}
	return v, d.Count(), nil
}

// locate wraps err, a problem with the record's sample, in a *LoadError
// that says where it is; nil stays nil.
func (r Record) locate(err error) error {
	if err == nil {
		return nil
	}
	line := r.Line
	var se *jsonvalue.SyntaxError
	if errors.As(err, &se) {
		line += se.Line - 1
	}
	return &LoadError{File: r.File, Line: line, Sample: r.Index, Err: err}
}

// messagesSample reads a sample object whose conversation is "messages" in
// format f (Auto: the shape they have), and whose references are ragas's;
// the values of its calls' arguments written as JSON strings count toward
// budget, what the sample's reading left of its bound (nil: none). The
// references are read by into when it is not nil, else by ParseSample.
func messagesSample(v jsonvalue.Value, f Format, budget *valueBudget, into func(string, *agentcheck.Sample) error) (agentcheck.Sample, error) {
	if v.Kind() != jsonvalue.ObjectKind {
		return agentcheck.Sample{}, fmt.Errorf("a sample must be a JSON object, got %s", v.Kind())
	}
	msgs, ok := v.Get("messages")
	if !ok {
		return agentcheck.Sample{}, errors.New(`"messages" is missing`)
	}
	if f == Auto {
		f = detect(msgs)
	}
	var conv agentcheck.Conversation
	var err error
	switch f {
	case OpenAI:
		// Read where they were parsed, as every format's messages are.
		conv, err = openAIConversation(msgs, budget)
	case Responses:
		conv, err = responsesConversation(msgs, budget)
	case Anthropic:
		conv, err = anthropicConversation(msgs)
	case Gemini:
		conv, err = geminiConversation(msgs)
	default:
		return agentcheck.Sample{}, fmt.Errorf("input format %q has no \"messages\"", f)
	}
	if err != nil {
		return agentcheck.Sample{}, fmt.Errorf("%s messages: %w", f, err)
	}
	// The id and the references, as ragas writes them, through the one
	// sample decoder.
	var b strings.Builder
	b.WriteString(`{"user_input":[]`)
	for _, key := range [...]string{"id", "reference", "reference_tool_calls", "reference_topics"} {
		if ref, ok := v.Get(key); ok {
			b.WriteString(`,"` + key + `":`)
			if src := ref.Source(); src != "" {
				// A list or object as the record writes it, rather than
				// written out again: the same value, read the same.
				b.WriteString(src)
			} else {
				b.WriteString(ref.String())
			}
		}
	}
	b.WriteByte('}')
	// By the Parser's reusing parser when there is one (its Sample is
	// valid only until its next call, as the Parser's is).
	var s agentcheck.Sample
	if into != nil {
		err = into(b.String(), &s)
	} else {
		s, err = agentcheck.ParseSample(b.String())
	}
	if err != nil {
		return agentcheck.Sample{}, err
	}
	s.Conversation = conv
	return s, nil
}

// detect tells which provider's shape messages are in: Gemini's contents
// have "parts"; Responses items have a "type", or content parts of type
// input_text or output_text; Anthropic's content blocks are tool_use,
// tool_result and the like; anything else reads as OpenAI Chat Completions
// (whose plain-text messages Anthropic's and the Responses API's share).
func detect(msgs jsonvalue.Value) Format {
	for i := range msgs.Len() {
		m := msgs.Index(i)
		if _, ok := m.Get("parts"); ok {
			return Gemini
		}
		if role, _ := m.Get("role"); role.Text() == "model" {
			return Gemini
		}
		if _, ok := m.Get("type"); ok {
			return Responses
		}
		content, _ := m.Get("content")
		for j := range content.Len() {
			typ, _ := content.Index(j).Get("type")
			switch typ.Text() {
			case "input_text", "output_text", "input_image", "input_file":
				return Responses
			case "tool_use", "tool_result", "server_tool_use", "mcp_tool_use", "mcp_tool_result",
				"thinking", "redacted_thinking", "web_search_tool_result", "code_execution_tool_result", "document":
				return Anthropic
			}
		}
	}
	return OpenAI
}
