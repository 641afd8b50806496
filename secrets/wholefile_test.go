package secrets

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"
)

// TestCheckReadsTheWholeFile: a key in a YAML comment, under a key go-vcr
// does not know (at the top, in an interaction, nested in a request), in a
// second YAML document, and a body in a Content-Encoding the check cannot
// read are each a finding on their line.
func TestCheckReadsTheWholeFile(t *testing.T) {
	key := func(i int) string { return fakeKey("sk-proj-", 40+i) }
	text := `---
# recorded with ` + key(0) + `
version: 2
meta:
    recorded_by: ci
    openai_api_key: ` + fakeKey("", 32) + `
interactions:
    - id: 0
      note: ` + key(1) + `
      request:
        url: https://api.openai.com/v1/models
        method: GET
        extra:
            debug:
                token: Bearer ` + fakeKey("", 32) + `
      response:
        body: "\x1b\x0f\x00\xf8\xa5\x40\xc2\xaa\x60\x02"
        headers:
            Content-Encoding:
                - br
        status: 200 OK # after ` + key(2) + `
        code: 200
---
leftover: ` + key(3) + `
`
	path := filepath.Join(t.TempDir(), "whole.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	found, err := Check(path, Rules{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]string{
		2:  "OpenAI API key",        // a comment
		6:  `"openai_api_key" key`,  // an unknown top-level key
		9:  "OpenAI API key",        // an unknown interaction key
		15: `"token" key`,           // an unknown nested key
		17: `Content-Encoding "br"`, // a body the check cannot read
		21: "OpenAI API key",        // a line comment
		24: "OpenAI API key",        // a second document
	}
	got := map[int]string{}
	for _, f := range found {
		got[f.Line] += f.What + ";"
	}
	for line, kind := range want {
		if !strings.Contains(got[line], kind) {
			t.Errorf("Expected a finding of %q on line %d, but the line has %q; all:\n%s", kind, line, got[line], findingLines(found))
		}
	}
	if len(found) != len(want) {
		t.Errorf("Expected %d findings, but got:\n%s", len(want), findingLines(found))
	}
}

// TestCheckRefusesRepeatedKeys: a mapping that repeats a key is a corrupt
// cassette, named with the line of the repeat.
func TestCheckRefusesRepeatedKeys(t *testing.T) {
	path := filepath.Join(t.TempDir(), "repeated.yaml")
	if err := os.WriteFile(path, []byte(repeatedKeys()), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Check(path, Rules{})
	if err == nil || !strings.Contains(err.Error(), path+`:10: corrupt cassette: mapping key "X-A" already defined at line 9`) {
		t.Errorf("Expected the repeated key refused with its line, but the error is %v", err)
	}
}

// TestCheckReadsEveryContentEncoding: a key in a body stored br, zstd,
// gzip or deflate encoded is found; a body the check cannot decode is
// itself a finding, never passed as clean.
func TestCheckReadsEveryContentEncoding(t *testing.T) {
	key := fakeKey("sk-proj-", 44)
	body := `{"choices":[{"message":{"content":"use ` + key + `"}}]}`
	var br, zs bytes.Buffer
	bw := brotli.NewWriter(&br)
	bw.Write([]byte(body))
	bw.Close()
	zw, _ := zstd.NewWriter(&zs)
	zw.Write([]byte(body))
	zw.Close()
	for _, c := range []struct {
		encoding string
		data     []byte
		want     string
	}{
		{"br", br.Bytes(), "OpenAI API key"},
		{"zstd", zs.Bytes(), "OpenAI API key"},
		{"gzip", compressed(t, "gzip", body), "OpenAI API key"},
		{"deflate", compressed(t, "deflate", body), "OpenAI API key"},
		{"br", []byte("not brotli at all"), `Content-Encoding "br" that the check cannot read`},
		{"compress", []byte{0x1f, 0x9d, 0x90, 0x7b}, `Content-Encoding "compress" that the check cannot read`},
	} {
		it := secretInteraction()
		it.Response.Headers = http.Header{"Content-Encoding": {c.encoding}, "Content-Type": {"application/json"}}
		it.Response.Body = string(c.data)
		path, _ := writeCassette(t, it)
		found, err := Check(path, Rules{})
		if err != nil {
			t.Fatal(err)
		}
		if len(found) != 1 || !strings.Contains(found[0].What, c.want) {
			t.Errorf("%s: Expected one finding of %q, but got:\n%s", c.encoding, c.want, findingLines(found))
		}
	}
}
