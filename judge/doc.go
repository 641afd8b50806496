// Package judge asks LLM judges the questions of agentcheck's judged
// metrics over any OpenAI-compatible endpoint (OpenAI, OpenRouter, Ollama,
// vLLM) through go-openai: a Client implements judgment.Judge, and ForTest
// gives a test a judge that replays its own cassette (package recorder), so
// that judged tests run offline. A Client asks with strict structured
// outputs, temperature 0 and a fixed seed, checks each answer against the
// question's schema and asks again, differently, when one does not fit; a
// Panel is several judges, each answering every question, whose scores the
// metrics aggregate. Every request goes down one stack, in this order:
// go-openai; then the zero-temperature fix (go-openai omits a zero
// temperature, so the client puts "temperature":0 back into the body, above
// the recorder, so that a cassette holds and matches the body the server
// saw); then the recorder, when there is one (WithRecorder, ForTest), which
// sees each request once and its final response, and on replay answers
// without going further; then RetryTransport, which retries 429s, 5xx,
// timeouts and dropped connections out of the recorder's sight, so that a
// cassette holds only the clean exchange; then the network (WithTransport,
// WithHTTPClient).
package judge
