package dataset

import (
	"math"
	"strings"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/internal/samplereuse"
	"github.com/agentcheck/agentcheck/internal/textarena"
	"github.com/agentcheck/agentcheck/internal/wordscan"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// openAIFast reads a record of OpenAI Chat Completions messages in the
// shape SDKs and converters write, in one pass over its text (a Decoder
// walking the members it knows, building Values only for the arguments),
// into memory reused from record to record: the Parser's fast path, as
// the root's is for ragas samples. Reading the record as Values first, then
// the messages from them, took about six times the CPU of a ragas sample
// of the same calls (BENCHMARKS.md, CPU12's OpenAI mix).
//
// It reads only what it can read as the general reader does (bounded's
// messagesSample, openAIConversation): a record with anything else — a
// message's "type" or "parts" (another format's), content parts, a custom
// tool, arguments that are not a string, a member it reads given twice, a
// record that could meet the bound on values, any error — is left to the
// general reader, which gives its Sample or its error. Members the general
// reader passes over it passes over too. TestOpenAIFastIsTheGeneralReading
// holds the two to the same Sample on every record the fast one takes.
type openAIFast struct {
	// rawText: a message's text that holds escapes is its JSON text as
	// written, its escapes checked but not read, as the root's parser
	// keeps a ragas sample's (samplereuse.KeepRawText).
	rawText bool
	text    string
	d       jsonvalue.Decoder
	conv    agentcheck.Conversation
	calls   []agentcheck.ToolCall
	counts  []int // each message's calls, -1 for no list
	// at is where each reference's value starts in the text, 0 when the
	// record has none (a value never starts at 0).
	at [len(refKeys)]int
	// refs reads the references where they stand, as the root's
	// parser reads them in a ragas sample of their own.
	refs samplereuse.RefReader
	// refText holds the references written as ragas writes them, for
	// into, when refs does not take them: a text of their own each, which
	// the Sample's strings may share, cut from memory shared by many
	// records'.
	refText textarena.Arena
}

// refKeys are the members of a provider's sample read as ragas writes
// them (messagesSample).
var refKeys = [...]string{"id", "reference", "reference_tool_calls", "reference_topics"}

// read sets *s to the record text's sample, reporting whether it could;
// args reads the calls' arguments (their Decoders reused), into the
// references. With a bound on values (maxValues), only a record that
// cannot meet it is read: its text and the arguments strings inside it
// hold at most len(text)+1 values in all.
func (f *openAIFast) read(text string, into func(string, *agentcheck.Sample) error, args *argDecoders, maxValues int, s *agentcheck.Sample) bool {
	if maxValues > 0 && len(text)+1 > maxValues {
		return false
	}
	var budget *valueBudget // ParseArguments, as the general reader's without a bound
	if maxValues > 0 {
		args.reset()
		budget = &valueBudget{max: math.MaxInt, left: math.MaxInt, decs: args}
	}
	d := &f.d
	d.Recycle(text)
	f.text = text
	f.conv, f.calls, f.counts = kept(f.conv), kept(f.calls), kept(f.counts)
	if f.conv == nil {
		f.conv = make(agentcheck.Conversation, 0, 8) // an empty list is not none
	}
	f.at = [len(refKeys)]int{}
	if f.refs == nil {
		// No bound: the record cannot hold more values than maxValues.
		f.refs = samplereuse.NewRefs.(func(bool) samplereuse.RefReader)(f.rawText)
	}
	f.refs.Start(text)
	fast := true  // the references read where they stand, so far
	seen := false // "messages"
	defer func() { f.text = "" }()
	for key, more, err := d.NextKey(true); more || err != nil; key, more, err = d.NextKey(false) {
		if err != nil {
			return false
		}
		switch key {
		case "messages":
			if seen || !f.messages(budget) {
				return false
			}
			seen = true
		case "user_input": // however written: a ragas sample's key, read by the general reading
			return false
		case "id", "reference", "reference_tool_calls", "reference_topics":
			k := refIndex(key)
			if f.at[k] != 0 {
				return false
			}
			d.Peek() // past the space before the value
			f.at[k] = d.Offset()
			if fast = fast && key != "reference_topics"; fast { // which refs does not read
				end, ok := f.refs.Read(key, f.at[k], &f.calls)
				if fast = ok; ok {
					d.Seek(end)
					break
				}
			}
			if _, err := d.Skip(1); err != nil {
				return false
			}
		default:
			if _, err := d.Skip(1); err != nil {
				return false
			}
		}
	}
	if !seen || d.End("the JSON value") != nil {
		return false
	}
	conv := f.conv
	if err := conv.Validate(); err != nil || pairResults(conv) != nil {
		return false
	}
	if fast {
		if !f.refs.Finish(s) {
			*s = agentcheck.Sample{}
			return false
		}
	} else if !f.intoRefs(into, s) {
		return false
	}
	s.Conversation = conv
	return true
}

// intoRefs reads the record's references as ragas writes them, by into,
// from a text of their own, which the Sample's strings may share: for
// those refs does not take.
func (f *openAIFast) intoRefs(into func(string, *agentcheck.Sample) error, s *agentcheck.Sample) bool {
	d := &f.d
	var refs [len(refKeys)]string
	n := len(`{"user_input":[]}`)
	for k, at := range f.at {
		if at == 0 {
			continue
		}
		// As the general reading writes it: a list or object as the
		// record has it, anything else written out again (a string's
		// raw surrogate halves, say, come back as one character).
		d.Seek(at)
		if c := d.Peek(); c == '[' || c == '{' {
			if _, err := d.Skip(1); err != nil {
				return false
			}
			refs[k] = f.text[at:d.Offset()]
		} else {
			v, err := d.Value(1)
			if err != nil {
				return false
			}
			refs[k] = v.String()
		}
		n += len(`,"":`) + len(refKeys[k]) + len(refs[k])
	}
	ref := append(f.refText.Room(n), `{"user_input":[]`...)
	for k, src := range refs {
		if f.at[k] != 0 {
			ref = append(ref, `,"`...)
			ref = append(ref, refKeys[k]...)
			ref = append(ref, `":`...)
			ref = append(ref, src...)
		}
	}
	ref = append(ref, '}')
	if into(f.refText.Keep(ref), s) != nil {
		*s = agentcheck.Sample{}
		return false
	}
	return true
}

// maxKeptMessages is the most messages, calls or counts whose memory is
// kept from one record for the next: one record of a million calls must
// not hold their memory for the small ones after it.
const maxKeptMessages = 1 << 12

// kept is s emptied for the next record, or nil when it grew past
// maxKeptMessages.
func kept[S ~[]E, E any](s S) S {
	if cap(s) > maxKeptMessages {
		return nil
	}
	clear(s) // the last record's texts and values, not kept alive
	return s[:0]
}

func refIndex(key string) int {
	for k, r := range refKeys {
		if r == key {
			return k
		}
	}
	return -1
}

// messages reads the "messages" list into f.conv.
func (f *openAIFast) messages(budget *valueBudget) bool {
	d := &f.d
	if d.Peek() != '[' {
		return false
	}
	for more, err := d.NextElem(true); more || err != nil; more, err = d.NextElem(false) {
		if err != nil || d.Peek() != '{' {
			return false
		}
		start := len(f.calls)
		m, calls, ok := f.message(budget)
		if !ok {
			return false
		}
		n := -1 // no list of calls
		if calls {
			n = len(f.calls) - start
		}
		f.conv = append(f.conv, m)
		f.counts = append(f.counts, n)
	}
	// f.calls may have moved as it grew: each message's calls are sliced
	// from it once the list is read.
	at := 0
	for i, n := range f.counts {
		switch {
		case n == 0:
			f.conv[i].ToolCalls = []agentcheck.ToolCall{} // an empty list, not none
		case n > 0:
			f.conv[i].ToolCalls = f.calls[at : at+n : at+n]
			at += n
		}
	}
	return true
}

// message reads one message; calls reports whether it has a list of
// tool calls (appended to f.calls), however short.
func (f *openAIFast) message(budget *valueBudget) (m agentcheck.Message, calls bool, ok bool) {
	if m, calls, ok := f.plainMessage(budget); ok {
		return m, calls, true
	}
	d := &f.d
	var seen [6]bool // role, content, tool_call_id, refusal, tool_calls, any other
	refusal := ""
	for key, more, err := d.NextKey(true); more || err != nil; key, more, err = d.NextKey(false) {
		if err != nil {
			return m, false, false
		}
		k := -1
		switch key {
		case "role":
			k = 0
			r, err := d.ReadString()
			if err != nil {
				return m, false, false
			}
			role, known := openAIRole(r)
			if !known {
				return m, false, false
			}
			m.Role = role
		case "content":
			k = 1
			switch d.Peek() {
			case '"':
				if !f.rawText {
					if m.Content, err = d.ReadString(); err != nil {
						return m, false, false
					}
					break
				}
				start := d.Offset()
				if _, err := d.Skip(3); err != nil {
					return m, false, false
				}
				m.Content = f.text[start+1 : d.Offset()-1] // Peek read past the space
			case 'n':
				if kind, err := d.Skip(3); err != nil || kind != jsonvalue.NullKind {
					return m, false, false
				}
			default: // content parts, or what is an error
				return m, false, false
			}
		case "tool_call_id":
			k = 2
			if m.ToolCallID, err = d.ReadString(); err != nil {
				return m, false, false
			}
		case "refusal":
			k = 3
			if d.Peek() == 'n' { // null: none, as openai's SDK writes it
				if kind, err := d.Skip(3); err != nil || kind != jsonvalue.NullKind {
					return m, false, false
				}
				break
			}
			if refusal, err = d.ReadString(); err != nil {
				return m, false, false
			}
		case "tool_calls":
			k = 4
			switch d.Peek() {
			case 'n':
				if kind, err := d.Skip(3); err != nil || kind != jsonvalue.NullKind {
					return m, false, false
				}
			case '[':
				if !f.toolCalls(budget) {
					return m, false, false
				}
				calls = true
			default:
				return m, false, false
			}
		case "type", "parts": // another format's message (foreignCalls, detect)
			return m, false, false
		default: // what the general reading passes over ("name", "audio", "annotations", …)
			k = 5
			if _, err := d.Skip(3); err != nil {
				return m, false, false
			}
		}
		if seen[k] && k < 5 {
			return m, false, false
		}
		seen[k] = true
	}
	if !seen[0] || calls && m.Role != agentcheck.AI {
		return m, false, false
	}
	if m.Content == "" {
		m.Content = refusal // what the assistant said instead of an answer
	}
	return m, calls, true
}

// plainMessage reads the message at the reading's offset when it is
// written as the SDKs write one: {"role":"…","content":…} with a plain
// string or null for content, then nothing, "tool_call_id" (a plain
// string) or, an assistant's, "tool_calls": as message's loop over its
// members would read it, with the text's own steps. ok is false, and
// nothing read, for any other message.
func (f *openAIFast) plainMessage(budget *valueBudget) (m agentcheck.Message, calls bool, ok bool) {
	const (
		open      = `{"role":`
		content   = `,"content":`
		callID    = `,"tool_call_id":`
		toolCalls = `,"tool_calls":[`
	)
	d, text := &f.d, f.text
	start, ncalls := d.Offset(), len(f.calls)
	if !strings.HasPrefix(text[start:], open) {
		return m, false, false
	}
	r, i, ok := wordscan.PlainString(text, start+len(open))
	if m.Role, ok = openAIRole(r); !ok || !strings.HasPrefix(text[i:], content) {
		return agentcheck.Message{}, false, false
	}
	if i += len(content); strings.HasPrefix(text[i:], "null") {
		i += len("null")
	} else if m.Content, i, ok = wordscan.PlainString(text, i); !ok {
		return agentcheck.Message{}, false, false
	}
	switch {
	case strings.HasPrefix(text[i:], callID):
		if m.ToolCallID, i, ok = wordscan.PlainString(text, i+len(callID)); !ok {
			return agentcheck.Message{}, false, false
		}
	case strings.HasPrefix(text[i:], toolCalls) && m.Role == agentcheck.AI:
		d.Seek(i + len(toolCalls) - len("["))
		if calls = f.toolCalls(budget); calls {
			i = d.Offset()
		}
	}
	if !strings.HasPrefix(text[i:], "}") {
		// Another member, or calls not read: message reads it all again.
		clear(f.calls[ncalls:])
		f.calls = f.calls[:ncalls]
		d.Seek(start)
		return agentcheck.Message{}, false, false
	}
	d.Seek(i + 1)
	return m, calls, true
}

// toolCalls reads an assistant message's list of calls onto f.calls.
func (f *openAIFast) toolCalls(budget *valueBudget) bool {
	d := &f.d
	for more, err := d.NextElem(true); more || err != nil; more, err = d.NextElem(false) {
		if err != nil || d.Peek() != '{' {
			return false
		}
		if tc, ok := f.plainCall(); ok {
			f.calls = append(f.calls, tc)
			continue
		}
		var id, typ, name, args string
		var seenID, seenType, seenFn, seenName, seenArgs, ok bool
		var inPlace jsonvalue.Value // the arguments read where they stand
		read := false
		for key, more, err := d.NextKey(true); more || err != nil; key, more, err = d.NextKey(false) {
			if err != nil {
				return false
			}
			switch key {
			case "id":
				id, ok = f.onceString(&seenID)
			case "type":
				typ, ok = f.onceString(&seenType)
				ok = ok && typ != "custom"
			case "function":
				ok = !seenFn && d.Peek() == '{'
				seenFn = true
				for key, more, err := d.NextKey(true); ok && (more || err != nil); key, more, err = d.NextKey(false) {
					switch {
					case err != nil:
						ok = false
					case key == "name":
						name, ok = f.onceString(&seenName)
					case key == "arguments":
						if !seenArgs {
							if inPlace, read = d.StringValue(); read {
								seenArgs, ok = true, true
								break
							}
						}
						args, ok = f.onceString(&seenArgs)
					default:
						_, err = d.Skip(6)
						ok = err == nil
					}
				}
			default:
				_, err = d.Skip(5)
				ok = err == nil
			}
			if !ok {
				return false
			}
		}
		if name == "" || !seenArgs {
			return false
		}
		if read {
			// An object, never null or empty: as openAIArguments reads it.
			f.calls = append(f.calls, agentcheck.ToolCall{ID: id, Name: name, Args: inPlace})
			continue
		}
		tc, err := openAIArguments(id, name, args, budget)
		if err != nil {
			return false
		}
		f.calls = append(f.calls, tc)
	}
	return true
}

// plainCall reads the call at the reading's offset when it is written as
// the SDKs write one, {"id":"…","type":"function","function":{"name":"…",
// "arguments":"…"}}, its strings plain and its arguments what StringValue
// reads: with the text's own steps, as toolCalls' loop over its members
// would read it, member by member, through the Decoder (five keys, three
// strings and two objects a call). ok is false, and nothing read, for
// any other call.
func (f *openAIFast) plainCall() (tc agentcheck.ToolCall, ok bool) {
	const (
		open   = `{"id":`
		typeFn = `,"type":"function","function":{"name":`
		args   = `,"arguments":`
	)
	d, text := &f.d, f.text
	start := d.Offset()
	i := start
	if !strings.HasPrefix(text[i:], open) {
		return tc, false
	}
	if tc.ID, i, ok = wordscan.PlainString(text, i+len(open)); !ok || !strings.HasPrefix(text[i:], typeFn) {
		return agentcheck.ToolCall{}, false
	}
	if tc.Name, i, ok = wordscan.PlainString(text, i+len(typeFn)); !ok || tc.Name == "" || !strings.HasPrefix(text[i:], args) {
		return agentcheck.ToolCall{}, false
	}
	d.Seek(i + len(args))
	if tc.Args, ok = d.StringValue(); !ok || !strings.HasPrefix(text[d.Offset():], "}}") {
		d.Seek(start)
		return agentcheck.ToolCall{}, false
	}
	d.Seek(d.Offset() + len("}}"))
	return tc, true
}

// onceString reads a member's string value, once: a member the fast path
// reads given twice (which the general reading takes the last of), or not
// a string, is not for it.
func (f *openAIFast) onceString(seen *bool) (string, bool) {
	if *seen {
		return "", false
	}
	*seen = true
	s, err := f.d.ReadString()
	return s, err == nil
}
