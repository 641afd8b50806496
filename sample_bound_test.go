package agentcheck

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck/jsonvalue"
)

// boundName is the name the bound tests give the bound, as the CLI's flag.
const boundName = "--max-sample-values"

// referenceBounded is referenceSample with the Decoder bounded to
// maxValues: the whole sample read into a Value, every value counted.
func referenceBounded(text string, maxValues int) (Sample, error) {
	var d jsonvalue.Decoder
	d.Limit(maxValues)
	d.Reset(text)
	v, err := d.Value(0)
	if err == nil {
		err = d.End("the sample")
	}
	var over *jsonvalue.LimitError
	if errors.As(err, &over) {
		return Sample{}, fmt.Errorf("the sample holds %w, the most one sample may hold (%s)", err, boundName)
	}
	if err != nil {
		return Sample{}, err
	}
	return sampleFromValue(v)
}

// checkBound holds the sample decoders, bounded to maxValues, to the
// reference bounded alike: ParseSample's way (the fast path, then the
// general decoder), the general decoder alone, and a reusing parser give
// the same Sample or the same error, the bound's included.
func checkBound(t *testing.T, reused *sampleParser, text string, maxValues int) {
	t.Helper()
	want, wantErr := referenceBounded(text, maxValues)
	got, gotErr := parseSample(text, maxValues, boundName)
	if !sameError(gotErr, wantErr) || gotErr == nil && !sameSample(got, want) {
		t.Fatalf("sample %.300q, bound %d:\nparseSample %v (%T)\n  reference %v (%T)", text, maxValues, gotErr, gotErr, wantErr, wantErr)
	}
	var d sampleDecoder
	d.bound(maxValues, boundName)
	d.p.Reset(text)
	general, generalErr := d.sample()
	if generalErr = d.overValues(generalErr); !sameError(generalErr, wantErr) || wantErr == nil && !sameSample(general, want) {
		t.Fatalf("sample %.300q, bound %d:\ngeneral decoder %v (%T)\n      reference %v (%T)", text, maxValues, generalErr, generalErr, wantErr, wantErr)
	}
	reused.d.bound(maxValues, boundName)
	again, againErr := reused.parse(text)
	if !sameError(againErr, wantErr) || wantErr == nil && !sameSample(again, want) {
		t.Fatalf("sample %.300q, bound %d:\nreusing parser %v (%T)\n     reference %v (%T)", text, maxValues, againErr, againErr, wantErr, wantErr)
	}
}

// valuesIn is how many values text holds, the fewest that a bound lets
// the reference read it with: found by bisection.
func valuesIn(text string) int {
	lo, hi := 1, len(text)+1 // a bound of hi reads any text
	for lo < hi {
		mid := (lo + hi) / 2
		var over *jsonvalue.LimitError
		if _, err := referenceBounded(text, mid); errors.As(err, &over) {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// boundTexts are samples of the usual layout, read by the fast path
// without a bound, the seeds, and samples whose tool call's arguments
// hold a long list.
func boundTexts(t *testing.T) []string {
	texts := append([]string(nil), sampleSeeds...)
	data, err := os.ReadFile("metric/testdata/toolcall_vectors.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var rec struct{ Sample json.RawMessage }
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		if i%10 == 0 && rec.Sample != nil {
			texts = append(texts, string(rec.Sample))
		}
	}
	for _, n := range []int{0, 1, 5, 300} {
		zeros := strings.TrimSuffix(strings.Repeat("0,", n), ",")
		texts = append(texts,
			fmt.Sprintf(`{"user_input": [{"type": "human", "content": "hi"}, {"type": "ai", "content": "", "tool_calls": [{"name": "f", "args": {"x": [%s]}}]}], "reference_tool_calls": [{"name": "f", "args": {"x": [0]}}], "id": "z"}`, zeros),
			fmt.Sprintf(`{"id": 1, "reference_topics": ["a", "b"], "user_input": [{"type": "ai", "content": "", "tool_calls": [{"name": "f", "args": {"x": [%s], "y": {"z": [%s]}}}]}]}`, zeros, zeros))
	}
	return texts
}

// A sample of n values reads with a bound of n as without it, and one of
// n+1 values is the bound's error, whichever decoder reads it; so are the
// bounds around it, and bounds small enough that the error comes before a
// field's problem or malformed JSON. A text of b bytes holds at most b
// values, which is why the fast path may read (tryFast) any text of no
// more bytes than the bound without counting (well formed, at most
// (b+1)/2; testdata/fuzz/FuzzParseSampleBound holds a text cut short of
// more, whose syntax error the fast path reported before the bound's).
func TestBoundMatchesReference(t *testing.T) {
	var reused sampleParser
	fast := 0
	for _, text := range boundTexts(t) {
		n := valuesIn(text)
		if _, err := jsonvalue.Parse([]byte(text)); err == nil && n > (len(text)+1)/2 || n > max(len(text), 1) {
			t.Fatalf("sample %q holds %d values in %d bytes", text, n, len(text))
		}
		for _, bound := range []int{1, 2, 3, 7, n - 2, n - 1, n, n + 1, (len(text) + 1) / 2, len(text)} {
			if bound >= 1 {
				checkBound(t, &reused, text, bound)
			}
		}
		if _, err := ParseSample(text); err == nil && fastReads(text) {
			// At the bound that lets fast read it, the Sample is the
			// unbounded one, read by fast.
			var d sampleDecoder
			d.bound(len(text), boundName)
			d.p.Reset(text)
			if read, _ := d.tryFast(text, new(Sample)); !read {
				t.Fatalf("sample %q: the fast path does not read it at a bound of its bytes", text)
			}
			fast++
		}
	}
	t.Logf("%d texts, %d read by the fast path at the bound that lets it", len(boundTexts(t)), fast)
	if fast < 10 {
		t.Fatalf("the fast path read %d samples at their bound: the test tells little", fast)
	}
}

// FuzzParseSampleBound: with any bound, the decoders and the reference
// agree.
func FuzzParseSampleBound(f *testing.F) {
	for _, s := range sampleSeeds {
		f.Add(s, uint16(5))
	}
	var reused sampleParser
	f.Fuzz(func(t *testing.T, text string, bound uint16) {
		checkBound(t, &reused, text, int(bound)+1)
	})
}

// A reusing parser bounded to maxValues allocates, for a sample of many
// more values than that, about what it allocates for one just over the
// bound: a sample's memory is bounded by the bound, not by its size. (The
// list read up to the bound stays in the stack's memory, doubled as it
// grew: at most about four Members a value.)
func TestBoundBoundsMemory(t *testing.T) {
	const bound = 1 << 14
	sample := func(zeros int) string {
		return `{"user_input": [{"type": "ai", "content": "", "tool_calls": [{"name": "f", "args": {"x": [` +
			strings.TrimSuffix(strings.Repeat("0,", zeros), ",") + `]}}]}]}`
	}
	sp := newSampleParser(false, bound, boundName)
	allocated := func(text string) uint64 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for range 4 {
			if _, err := sp.parse(text); err == nil || !strings.Contains(err.Error(), "the sample holds more than 16384 JSON values, the most one sample may hold (--max-sample-values)") {
				t.Fatalf("%d bytes: %v", len(text), err)
			}
		}
		runtime.ReadMemStats(&after)
		return (after.TotalAlloc - before.TotalAlloc) / 4
	}
	just, huge := allocated(sample(bound)), allocated(sample(64*bound))
	const member = 72 // unsafe.Sizeof(jsonvalue.Member{}) on 64-bit
	if most := uint64(6 * bound * member); just > most || huge > most {
		t.Errorf("a sample just over the bound of %d values allocates %d bytes, one of 64 times the bound %d: want at most %d", bound, just, huge, most)
	}
}
