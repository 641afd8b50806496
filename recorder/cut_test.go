package recorder

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/agentcheck/agentcheck/internal/cutpoints"
)

// recordedCassette records a few exchanges through the recorder (a JSON
// answer, an error, a stream, a binary answer) and returns the file.
func recordedCassette(t *testing.T) []byte {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/chat/completions":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"choices":[{"message":{"role":"assistant","content":"yes"}}]}`)
		case "/v1/missing":
			http.Error(w, `{"error":{"message":"no such model"}}`, http.StatusNotFound)
		case "/v1/stream":
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, "data: {\"delta\":\"a\"}\n\ndata: [DONE]\n\n")
		case "/image.png":
			w.Header().Set("Content-Type", "image/png")
			w.Write(pngBytes)
		}
	}))
	defer srv.Close()
	path := filepath.Join(t.TempDir(), "real.yaml")
	rec, err := Open(path, WithMode(RecordAll), env())
	if err != nil {
		t.Fatal(err)
	}
	c := rec.Client()
	for _, p := range []string{"/v1/chat/completions", "/v1/missing", "/v1/stream", "/image.png"} {
		resp, err := c.Post(srv.URL+p, "application/json", strings.NewReader(`{"model":"m","q":"`+p+`"}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// nearLineEnds: the cut data[:cut] falls within 8 bytes of its line's
// start or end, or on every 8th byte of the line between. Within a line
// of YAML each cut leaves the same thing, a scalar cut short (a quoted
// one unterminated, a plain or block one shorter); what differs from cut
// to cut is where the line and the structure around it end. Under the
// race detector a load of these cassettes takes 30 times its time, and
// every cut of the long bodies' lines was two thirds of the package's
// test CPU.
func nearLineEnds(data []byte, cut int) bool {
	start := strings.LastIndexByte(string(data[:cut]), '\n') + 1
	end := strings.IndexByte(string(data[cut:]), '\n')
	if end < 0 {
		end = len(data) - cut
	}
	return cut-start < 8 || end < 8 || (cut-start)%8 == 0
}

// TestCutCassetteNeverLoadsChanged cuts real cassettes at every byte (but
// deep in a word or a run of one byte, where a cut is the one beside it:
// cutpoints; and within a long line, nearLineEnds): what loads is always the interactions before the cut, each
// unchanged, or nothing (an error). A cassette in the recorder's layout, and two that
// go-vcr's layout (read by the YAML library), are cut.
func TestCutCassetteNeverLoadsChanged(t *testing.T) {
	t.Parallel() // slow: it overlaps the package's other slow tests
	committed := func(name string) []byte {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	cassettes := map[string][]byte{
		"recorded by the recorder": recordedCassette(t),
		"ExampleOpen":              committed("testdata/cassettes/ExampleOpen.yaml"),
		"ExampleWithRecorder":      committed("../judge/testdata/cassettes/ExampleWithRecorder.yaml"),
	}
	for name, data := range cassettes {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			full, _, err := loadCassetteData("full.yaml", data)
			if err != nil || len(full) == 0 {
				t.Fatalf("the whole cassette: %d interactions, %v", len(full), err)
			}
			// Every cut point, in four parallel parts: cut i in part i mod 4.
			const parts = 4
			var loaded [parts]int
			t.Run("cuts", func(t *testing.T) {
				for p := range parts {
					t.Run(strconv.Itoa(p), func(t *testing.T) {
						t.Parallel()
						changed := 0
						for cut := p; cut < len(data); cut += parts {
							if !cutpoints.Matters(string(data), cut) || !nearLineEnds(data, cut) {
								continue // deep in a word, a run of one byte or a long line: a cut beside it
							}
							its, _, err := loadCassetteData("cut.yaml", data[:cut])
							if err != nil {
								continue
							}
							loaded[p]++
							if len(its) > len(full) {
								t.Fatalf("cut at %d of %d: %d interactions, more than the whole file's %d", cut, len(data), len(its), len(full))
							}
							if diff := cmp.Diff(full[:len(its)], its, cmpopts.EquateEmpty()); diff != "" {
								changed++
								if changed <= 3 {
									t.Errorf("Expected a cassette cut at byte %d of %d to load unchanged or not at all, but it loads changed (-whole +cut):\n%s",
										cut, len(data), diff)
								}
							}
						}
						if changed > 0 {
							t.Errorf("%d of the cut points %d mod %d, of %d, load with changed values", changed, p, parts, len(data))
						}
					})
				}
			})
			if loaded == [parts]int{} {
				t.Errorf("no cut point loads, not even one at an interaction's end")
			}
		})
	}
}

// TestLayoutParserTakesOnlyWholeInteractions: an interaction of the
// recorder's layout that lost a field is not the recorder's layout.
func TestLayoutParserTakesOnlyWholeInteractions(t *testing.T) {
	data := encodeCassette(layoutSample("q", "a", "h"))
	if _, err := parseLayout(data); err != nil {
		t.Fatalf("the whole file: %v", err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "        ") && !strings.HasPrefix(l, "         ") {
			field, _, _ := strings.Cut(strings.TrimSpace(l), ":")
			if field == "body" || field == "headers" && i < 20 {
				continue // the request may leave them out
			}
			without := strings.Join(lines[:i], "") + strings.Join(lines[i+1:], "")
			if its, err := parseLayout([]byte(without)); err == nil {
				t.Errorf("Expected the layout parser to refuse an interaction without its %s (line %d), but it read %d interactions", field, i+1, len(its))
			}
		}
	}
}

// TestOpenRefusesRepeatedKeysAtOnce: a cassette whose mapping repeats a key
// is refused with one error naming the key, its line and the file; the
// YAML library alone reports every pair of repeats (1,000 repeats: half a
// million lines, and time and memory to match, see BenchmarkOpenAdversarial).
func TestOpenRefusesRepeatedKeysAtOnce(t *testing.T) {
	data := adversarialCassette("repeated keys", 1000*len("      X-Same: [v]\n"))
	path := filepath.Join(t.TempDir(), "repeated.yaml")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open(path, WithMode(RecordNone), env())
	if err == nil || !strings.Contains(err.Error(), `line 9: mapping key "X-Same" already defined at line 8`) || !strings.Contains(err.Error(), path) {
		t.Fatalf("Expected Open to refuse the repeated key, naming it, its line and the file, but it returned %.500v", err)
	}
	if n := strings.Count(err.Error(), "already defined"); n != 1 {
		t.Errorf("Expected one report of the repeated key, but the error has %d (%d bytes)", n, len(err.Error()))
	}

	big := adversarialCassette("a large mapping", 100<<10)
	if _, err := decodeCassette(big); err == nil || !strings.Contains(err.Error(), "line 8: a mapping of") || !strings.Contains(err.Error(), "more than the 1000 any cassette holds") {
		t.Errorf("Expected a mapping of thousands of keys to be refused, but decoding returned %.500v", err)
	}
}

// adversarialCassette is a cassette of about size bytes, in go-vcr's layout
// (so read by the YAML library), made to be slow to open:
//   - "repeated keys": one header repeated;
//   - "a large mapping": thousands of distinct headers;
//   - "aliases": headers merged through nested aliases (a billion laughs);
//   - "many interactions": small interactions, many of them.
func adversarialCassette(kind string, size int) []byte {
	var b strings.Builder
	b.WriteString("version: 2\ninteractions:\n")
	interaction := func(headers string) string {
		return "- request: {method: GET, url: 'http://h/x'}\n  response:\n    code: 200\n    body: ok\n    headers:\n" + headers
	}
	switch kind {
	case "repeated keys":
		b.WriteString(interaction(""))
		for b.Len() < size {
			b.WriteString("      X-Same: [v]\n")
		}
	case "a large mapping":
		b.WriteString(interaction(""))
		for i := 0; b.Len() < size; i++ {
			fmt.Fprintf(&b, "      X-H%d: [v]\n", i)
		}
	case "aliases":
		// Headers merged from mappings merged from mappings, ten at each
		// of twelve levels: 10^12 merges, unless the parser stops them.
		b.Reset()
		b.WriteString("version: 2\nanchors:\n  m0: &m0 {X-A: [v]}\n")
		for i := 1; i < 12; i++ {
			fmt.Fprintf(&b, "  m%d: &m%d {<<: [", i, i)
			for j := range 10 {
				if j > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "*m%d", i-1)
			}
			b.WriteString("]}\n")
		}
		b.WriteString("interactions:\n")
		b.WriteString(interaction("      <<: *m11\n"))
		for b.Len() < size {
			b.WriteString("# padding\n")
		}
	case "many interactions":
		for b.Len() < size {
			b.WriteString(interaction("      X-A: [v]\n"))
		}
	}
	return []byte(b.String())
}
