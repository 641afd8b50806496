// Package synth makes synthetic ragas-format agent samples for measuring
// agentcheck eval: toolcall_vectors-like conversations of human, ai and
// tool messages, about 780 bytes and 2.4 tool calls each, whose reference
// calls are mostly right and sometimes off the way agents are off (a
// missing or changed argument, a swapped order, a retried call, a missing
// call).
package synth

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
)

// Generator makes samples from a seeded random source.
type Generator struct {
	rng *rand.Rand
	mix Mix
}

// Mix is the kind of sample a Generator makes, for measuring eval on
// other inputs than its default one.
type Mix string

const (
	// Calls: short messages around the calls (the default).
	Calls Mix = ""
	// Results: each tool message holds the tool's JSON result, escaped
	// in the message's string, about 500 bytes.
	Results Mix = "results"
	// Chat: three exchanges of 40 to 160 words before the calls.
	Chat Mix = "chat"
)

// New returns a Generator of the default mix; the same seed gives the
// same samples.
func New(seed uint64) *Generator { return NewMix(seed, Calls) }

// NewMix returns a Generator of the given mix.
func NewMix(seed uint64, mix Mix) *Generator {
	return &Generator{rng: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)), mix: mix}
}

var words = []string{"the", "agent", "flight", "price", "hotel", "weather", "please", "find", "me", "a",
	"cheaper", "option", "for", "next", "week", "and", "compare", "it", "with", "last", "year's", "results", "thanks"}

// text is n words.
func (g *Generator) text(n int) string {
	b := make([]byte, 0, 8*n)
	for i := range n {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, g.pick(words)...)
	}
	return string(b)
}

// result is a tool's JSON result: a few records of every JSON kind.
func (g *Generator) result() string {
	b := []byte(`{"status": "ok", "results": [`)
	for i := range 3 + g.rng.IntN(3) {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = fmt.Appendf(b, `{"id": %d, "name": %s, "city": %s, "price": %d.%02d, "available": %t, "tags": [%s, %s], "note": %s}`,
			g.rng.IntN(100000), quote(g.text(2)), quote(g.pick(cities)), g.rng.IntN(900), g.rng.IntN(100),
			g.rng.IntN(2) == 0, quote(g.pick(words)), quote(g.pick(words)), quote(g.text(4+g.rng.IntN(6))))
	}
	return string(append(b, "]}"...))
}

// arg is one argument, kept in order, with its JSON text.
type arg struct {
	key  string
	json string
}

type call struct {
	name string
	args []arg
}

var (
	cities   = []string{"Paris", "Berlin", "London", "Tokyo", "New York", "Zürich", "São Paulo", "Lagos", "Mumbai", "Sydney"}
	cuisines = []string{"Chinese", "Italian", "Thai", "Mexican", "Ethiopian", "Japanese"}
	topics   = []string{"python asyncio", "quarterly revenue", "flight delays", "vegan recipes", "GPU prices", "tax deadlines"}
	people   = []string{"ana@example.com", "bob@example.com", "chen@example.com", "dara@example.com"}
)

func (g *Generator) pick(xs []string) string { return xs[g.rng.IntN(len(xs))] }

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// tool makes a call of one of a handful of tools, with argument values of
// every JSON kind ragas's str() distinguishes.
func (g *Generator) tool() call {
	switch g.rng.IntN(7) {
	case 0:
		return call{"search_flights", []arg{
			{"origin", quote(g.pick(cities))}, {"destination", quote(g.pick(cities))},
			{"passengers", strconv.Itoa(1 + g.rng.IntN(4))}}}
	case 1:
		return call{"book_hotel", []arg{
			{"city", quote(g.pick(cities))}, {"nights", strconv.Itoa(1 + g.rng.IntN(7))},
			{"max_price", strconv.Itoa(80+10*g.rng.IntN(20)) + ".0"}}}
	case 2:
		return call{"get_weather", []arg{{"city", quote(g.pick(cities))}, {"unit", quote([]string{"celsius", "fahrenheit"}[g.rng.IntN(2)])}}}
	case 3:
		return call{"restaurant_search", []arg{
			{"cuisine", quote(g.pick(cuisines))}, {"location", quote(g.pick(cities))},
			{"open_now", []string{"true", "false"}[g.rng.IntN(2)]}}}
	case 4:
		return call{"send_email", []arg{
			{"to", quote(g.pick(people))}, {"subject", quote(g.pick(topics))},
			{"body", quote("Summary of " + g.pick(topics))}}}
	case 5:
		return call{"convert_currency", []arg{
			{"amount", strconv.FormatFloat(float64(g.rng.IntN(100000))/100, 'f', -1, 64)},
			{"from", quote("EUR")}, {"to", quote([]string{"USD", "JPY", "GBP"}[g.rng.IntN(3)])}}}
	default:
		return call{"search", []arg{
			{"query", quote(g.pick(topics))},
			{"filters", fmt.Sprintf(`{"type": %s, "year": %d}`, quote([]string{"recent", "popular"}[g.rng.IntN(2)]), 2020+g.rng.IntN(6))}}}
	}
}

func appendCall(b []byte, c call) []byte {
	b = append(b, `{"name": `...)
	b = append(b, quote(c.name)...)
	b = append(b, `, "args": {`...)
	for i, a := range c.args {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, quote(a.key)...)
		b = append(b, ": "...)
		b = append(b, a.json...)
	}
	return append(b, "}}"...)
}

func appendCalls(b []byte, calls []call) []byte {
	b = append(b, '[')
	for i, c := range calls {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = appendCall(b, c)
	}
	return append(b, ']')
}

func appendMessage(b []byte, typ, content string) []byte {
	b = append(b, `{"type": `...)
	b = append(b, quote(typ)...)
	b = append(b, `, "content": `...)
	return append(b, quote(content)...)
}

// AppendSample appends one sample as a line of JSON without the newline:
// the reference calls the agent should make, and a conversation whose calls
// are those with, sometimes, one mistake.
func (g *Generator) AppendSample(b []byte) []byte {
	// 1 to 4 calls, 2.3 on average, 2.4 with retries.
	n := []int{1, 2, 2, 2, 3, 3, 2, 4, 1, 3}[g.rng.IntN(10)]
	ref := make([]call, n)
	for i := range ref {
		ref[i] = g.tool()
	}
	pred := append([]call(nil), ref...)
	switch r := g.rng.IntN(20); {
	case r < 2 && n > 1: // swapped order
		pred[0], pred[1] = pred[1], pred[0]
	case r < 4: // a retried call
		pred = append(pred[:1:1], pred...)
	case r < 6: // a missing argument
		c := pred[n-1]
		pred[n-1] = call{c.name, c.args[:len(c.args)-1]}
	case r < 7: // a changed string argument
		c := pred[0]
		args := append([]arg(nil), c.args...)
		args[0].json = quote(g.pick(cities))
		pred[0] = call{c.name, args}
	case r < 8 && n > 1: // a missing call
		pred = pred[:n-1]
	}
	b = append(b, `{"user_input": [`...)
	if g.mix == Chat {
		for range 3 {
			b = appendMessage(b, "human", g.text(40+g.rng.IntN(80)))
			b = append(b, "}, "...)
			b = appendMessage(b, "ai", g.text(60+g.rng.IntN(100)))
			b = append(b, "}, "...)
		}
	}
	b = appendMessage(b, "human", fmt.Sprintf("Help with %s in %s", g.pick(topics), g.pick(cities)))
	b = append(b, "}, "...)
	// The calls are made one or two at a time, each batch answered by tools.
	for i := 0; i < len(pred); {
		k := min(1+g.rng.IntN(2), len(pred)-i)
		b = appendMessage(b, "ai", "On it.")
		b = append(b, `, "tool_calls": `...)
		b = appendCalls(b, pred[i:i+k])
		b = append(b, "}, "...)
		for j := 0; j < k; j++ {
			result := "ok #" + strconv.Itoa(g.rng.IntN(1000))
			if g.mix == Results {
				result = g.result()
			}
			b = appendMessage(b, "tool", result)
			b = append(b, "}, "...)
		}
		i += k
	}
	b = appendMessage(b, "ai", "Done.")
	b = append(b, `}], "reference_tool_calls": `...)
	b = appendCalls(b, ref)
	b = append(b, `}`...)
	return b
}
