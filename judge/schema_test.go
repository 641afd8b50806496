package judge

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentcheck/agentcheck/judgment"
)

// topicSchema is written as Go literals ([]string, nested maps), as the
// metrics write their schemas.
var topicSchema = map[string]any{
	"type":                 "object",
	"additionalProperties": false,
	"required":             []string{"topics", "verdict", "note", "score"},
	"properties": map[string]any{
		"topics": map[string]any{
			"type": "array", "minItems": 1, "maxItems": 3,
			"items": map[string]any{
				"type":                 "object",
				"additionalProperties": false,
				"required":             []string{"topic", "answered"},
				"properties": map[string]any{
					"topic":    map[string]any{"type": "string", "description": "as the human put it"},
					"answered": map[string]any{"type": "boolean"},
				},
			},
		},
		"verdict": map[string]any{"type": "integer", "enum": []int{0, 1}},
		"note":    map[string]any{"type": []string{"string", "null"}},
		"score":   map[string]any{"type": "number", "minimum": 0, "maximum": 1},
	},
}

func TestSchemaCheck(t *testing.T) {
	s, raw, err := compileSchema(topicSchema)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"required":["topics","verdict","note","score"]`) {
		t.Errorf("raw schema %s lost the required order", raw)
	}
	for _, c := range []struct {
		answer string
		want   []string
	}{
		{`{"topics":[{"topic":"wine","answered":true}],"verdict":1,"note":null,"score":0.5}`, nil},
		{`{"topics":[{"topic":"wine","answered":false}],"verdict":0,"note":"n","score":1}`, nil},
		{`{"topics":[{"topic":"wine","answered":false}],"verdict":1.0,"note":"n","score":0}`, nil}, // 1.0 is an integer
		{`{"topics":[],"verdict":1,"note":null,"score":0.5}`, []string{"$.topics: 0 items, want at least 1"}},
		{`{"topics":[{"topic":"a","answered":true},{"topic":"b","answered":true},{"topic":"c","answered":true},{"topic":"d","answered":true}],"verdict":1,"note":null,"score":0.5}`,
			[]string{"$.topics: 4 items, want at most 3"}},
		{`{"topics":[{"topic":"wine","answered":"yes"}],"verdict":2,"note":3,"score":1.5}`, []string{
			`$.note: want string or null, got number 3`,
			`$.score: 1.5 is above the maximum 1`,
			`$.topics[0].answered: want boolean, got string "yes"`,
			`$.verdict: 2 is not one of [0, 1]`,
		}},
		{`{"topics":[{"topic":"wine"}],"verdict":1.5,"score":-1,"extra":true}`, []string{
			`$: missing required property "note"`,
			`$: unexpected property "extra" (the schema allows no others)`,
			`$.score: -1 is below the minimum 0`,
			`$.topics[0]: missing required property "answered"`,
			`$.verdict: want integer, got number 1.5`,
		}},
		{`[]`, []string{"$: want object, got an array"}},
	} {
		v, err := parseStrictJSON([]byte(c.answer))
		if err != nil {
			t.Fatalf("%s: %v", c.answer, err)
		}
		got := s.check(v)
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", c.answer, got, c.want)
		}
	}
}

func TestSchemaCheckStopsAtFiveProblems(t *testing.T) {
	s, _, err := compileSchema(map[string]any{
		"type": "object", "additionalProperties": false, "required": []string{"xs"},
		"properties": map[string]any{"xs": map[string]any{"type": "array", "items": map[string]any{"type": "boolean"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	v, _ := parseStrictJSON([]byte(`{"xs":[1,2,3,4,5,6,7,8]}`))
	if got := s.check(v); len(got) != maxProblems || got[4] != "$.xs[4]: want boolean, got number 5" {
		t.Errorf("%q", got)
	}
}

func TestSchemaMustBeStrict(t *testing.T) {
	obj := func(props map[string]any, required ...string) map[string]any {
		return map[string]any{"type": "object", "additionalProperties": false, "properties": props, "required": required}
	}
	str := map[string]any{"type": "string"}
	for _, c := range []struct {
		name   string
		schema map[string]any
		want   string
	}{
		{"nil", nil, "the question has no schema"},
		{"root not object", map[string]any{"type": "string"}, `$: the root must be of type "object"`},
		{"property not required", obj(map[string]any{"a": str, "b": str}, "a"), `$: property "b" is not required`},
		{"required unknown", obj(map[string]any{"a": str}, "a", "z"), `$: required names "z", which is not a property`},
		{"open object", map[string]any{"type": "object", "properties": map[string]any{}, "required": []string{}}, "$: an object needs additionalProperties false"},
		{"additionalProperties true", map[string]any{"type": "object", "properties": map[string]any{}, "additionalProperties": true}, "additionalProperties false"},
		{"no properties", map[string]any{"type": "object", "additionalProperties": false}, "$: an object needs properties"},
		{"nested open", obj(map[string]any{"o": map[string]any{"type": "object", "properties": map[string]any{}}}, "o"), "$.o: an object needs additionalProperties false"},
		{"unsupported keyword", obj(map[string]any{"a": map[string]any{"type": "string", "pattern": "^x"}}, "a"), `$.a: keyword "pattern" is not supported`},
		{"anyOf", obj(map[string]any{"a": map[string]any{"anyOf": []any{str}}}, "a"), `$.a: keyword "anyOf" is not supported`},
		{"unknown type", obj(map[string]any{"a": map[string]any{"type": "text"}}, "a"), `$.a: unknown type "text"`},
		{"untyped", obj(map[string]any{"a": map[string]any{"description": "x"}}, "a"), "$.a: no type and no enum"},
		{"array without items", obj(map[string]any{"a": map[string]any{"type": "array"}}, "a"), "$.a: an array needs an items schema"},
		{"bad items", obj(map[string]any{"a": map[string]any{"type": "array", "items": map[string]any{"type": 3}}}, "a"), "$.a[]: type is 3"},
		{"empty enum", obj(map[string]any{"a": map[string]any{"enum": []any{}}}, "a"), "$.a: enum must be a non-empty list"},
		{"bad minItems", obj(map[string]any{"a": map[string]any{"type": "array", "items": str, "minItems": -1}}, "a"), "$.a: minItems is -1, want a count"},
		{"unmarshalable", map[string]any{"type": make(chan int)}, "does not marshal as JSON"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := compileSchema(c.schema)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want one containing %q", err, c.want)
			}
		})
	}
}

func TestParseStrictJSON(t *testing.T) {
	for _, bad := range []string{`{"a":1} {"b":2}`, `{"a":1}x`, `{"a":`, ``, `{'a':1}`} {
		if _, err := parseStrictJSON([]byte(bad)); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	if _, err := parseStrictJSON([]byte(" {\"a\":12345678901234567890}\n")); err != nil {
		t.Error(err)
	}
}

func TestWithZeroTemperature(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"model":"m","messages":[]}`, `{"model":"m","messages":[],"temperature":0}`},
		{"{\"model\":\"m\"}\n", `{"model":"m","temperature":0}`},
		{`{}`, `{"temperature":0}`},
		{`{"model":"m","temperature":0.7}`, `{"model":"m","temperature":0.7}`},
		{`{"nested":{"temperature":1}}`, `{"nested":{"temperature":1},"temperature":0}`},
		{`not json`, `not json`},
		{`[1,2]`, `[1,2]`},
	} {
		if got := string(withZeroTemperature([]byte(c.in))); got != c.want {
			t.Errorf("%s → %s, want %s", c.in, got, c.want)
		}
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, c := range []struct {
		header map[string]string
		want   time.Duration
		ok     bool
	}{
		{map[string]string{"Retry-After": "3"}, 3 * time.Second, true},
		{map[string]string{"Retry-After": "0"}, 0, true},
		{map[string]string{"retry-after-ms": "250", "Retry-After": "1"}, 250 * time.Millisecond, true},
		{map[string]string{"Retry-After": now.Add(90 * time.Second).Format(http.TimeFormat)}, 90 * time.Second, true},
		{map[string]string{"Retry-After": now.Add(-time.Minute).Format(http.TimeFormat)}, 0, true},
		{map[string]string{"Retry-After": "99999999999"}, 1e6 * time.Second, true},
		{map[string]string{"Retry-After": "soon"}, 0, false},
		{map[string]string{"Retry-After": "-4"}, 0, false},
		{nil, 0, false},
	} {
		h := http.Header{}
		for k, v := range c.header {
			h.Set(k, v)
		}
		got, ok := retryAfter(h, now)
		if got != c.want || ok != c.ok {
			t.Errorf("%v: %v %v, want %v %v", c.header, got, ok, c.want, c.ok)
		}
	}
}

func TestBackoffIsJitteredExponentialAndCapped(t *testing.T) {
	p := RetryPolicy{}.withDefaults()
	if p.Initial != 2*time.Second || p.Multiplier != 2 || p.Max != 30*time.Second || p.MaxAttempts != 5 || p.AttemptTimeout != 2*time.Minute {
		t.Errorf("defaults %+v", p)
	}
	for n, d := range map[int]time.Duration{1: 2 * time.Second, 2: 4 * time.Second, 3: 8 * time.Second, 5: 30 * time.Second, 40: 30 * time.Second} {
		seen := map[time.Duration]bool{}
		for range 200 {
			w := p.backoff(n)
			if w < d/2 || w > d {
				t.Fatalf("backoff(%d) = %v, want within [%v, %v]", n, w, d/2, d)
			}
			seen[w] = true
		}
		if len(seen) < 100 {
			t.Errorf("backoff(%d) took only %d values in 200 draws: no jitter", n, len(seen))
		}
	}
}

func TestLanguageNote(t *testing.T) {
	for lang, want := range map[string]string{"": "", "en": "", "EN": "", "ru": "in Russian.", "Deutsch": "in Deutsch."} {
		if got := languageNote(lang); (want == "") != (got == "") || !strings.Contains(got, want) {
			t.Errorf("languageNote(%q) = %q, want %q", lang, got, want)
		}
	}
}

func TestQuestionSchemaJSONIsUsedAsWritten(t *testing.T) {
	raw := json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"],"additionalProperties":false}`)
	s, got, err := compileQuestionSchema(judgment.Question{Name: "q", SchemaJSON: raw})
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(raw) {
		t.Errorf("the request would carry %s, want the question's own %s", got, raw)
	}
	if p := s.check(map[string]any{"ok": "yes"}); len(p) == 0 {
		t.Error("a string where the schema wants a boolean passed")
	}
	_, _, err = compileQuestionSchema(judgment.Question{Name: "q", SchemaJSON: json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean"}}}`)})
	if err == nil || !strings.Contains(err.Error(), "not strict") {
		t.Errorf("a loose SchemaJSON: err = %v, want it refused as not strict", err)
	}
}
