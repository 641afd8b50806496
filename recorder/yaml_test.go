package recorder

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"
	"gopkg.in/dnaeon/go-vcr.v4/pkg/cassette"

	"github.com/agentcheck/agentcheck/internal/vcr"
)

func layoutSample(req, resp, header string) []*vcr.Interaction {
	return []*vcr.Interaction{{
		Request: vcr.Request{
			Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, ContentLength: int64(len(req)),
			Host: "127.0.0.1", Body: req, URL: "http://127.0.0.1/v1/chat/completions?q=" + header, Method: "POST",
			Headers: http.Header{"Content-Type": {"application/json"}, "X-Odd": {header, ""}},
		},
		Response: vcr.Response{
			Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, ContentLength: int64(len(resp)),
			Body: resp, Headers: http.Header{"Content-Type": {"text/event-stream"}, "X-Empty": {}},
			Status: "200 OK", Code: 200, Duration: 1500 * time.Microsecond,
		},
	}, {
		Request:  vcr.Request{Method: "GET", URL: "http://h/x", Body: ""},
		Response: vcr.Response{Body: "", Headers: http.Header{}, Status: "204 No Content", Code: 204},
	}}
}

// FuzzCassetteLayout checks that what the recorder writes reads back the
// same with its own parser, with go.yaml.in/yaml/v3 and with go-vcr's own
// loader, whatever the bodies and header values hold, bytes that are not
// UTF-8 included (written as !!binary).
//
// Run it with go test -run '^$' -fuzz '^FuzzCassetteLayout$' ./recorder.
func FuzzCassetteLayout(f *testing.F) {
	for _, s := range [][3]string{
		{`{"model":"m"}`, "{\"a\":1}\n", "plain"},
		{"it's", "data: {\"x\":1}\n\ndata: [DONE]\n\n", "a: b # c"},
		{"  leading spaces\nline", "tab\there\n  indented\n\n\nend", "'quoted'"},
		{"\x00\x01 control \u2028 \ufeff", "no newline at the end\nsecond", "\"dq\""},
		{"yes", "null", "- dash"},
		{"~", "\n", "*alias &anchor !tag"},
		{"\xff\xfe not UTF-8", "ends in spaces   \n   \n", "%"},
		{"", "\r\n windows \r\n", "{}"},
		{"\tfirst line tabbed\nsecond", "a\n\tsecond line tabbed\n", "t"},
	} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, req, resp, header string) {
		want := layoutSample(req, resp, header)
		data := encodeCassette(want)
		got, err := parseLayout(data)
		if err != nil {
			t.Fatalf("own parser: %v\n%s", err, data)
		}
		normalize := func(its []*vcr.Interaction) []*vcr.Interaction {
			for i, it := range its {
				it.ID = i
				for _, h := range []http.Header{it.Request.Headers, it.Response.Headers} {
					for k, v := range h {
						if len(v) == 0 {
							h[k] = []string{}
						}
					}
				}
			}
			return its
		}
		opts := cmp.Options{cmp.FilterPath(func(p cmp.Path) bool {
			return strings.HasSuffix(p.String(), "Headers") || strings.HasSuffix(p.String(), "Form")
		}, cmp.Comparer(func(a, b http.Header) bool {
			if len(a) == 0 && len(b) == 0 {
				return true
			}
			return cmp.Equal(map[string][]string(a), map[string][]string(b))
		}))}
		if diff := cmp.Diff(normalize(want), normalize(got), opts, cmp.AllowUnexported(vcr.Interaction{})); diff != "" {
			t.Fatalf("own parser (-wrote +read):\n%s\n%s", diff, data)
		}
		var c vcr.Cassette
		if err := yaml.Unmarshal(data, &c); err != nil {
			t.Fatalf("yaml v3: %v\n%s", err, data)
		}
		if diff := cmp.Diff(normalize(want), normalize(c.Interactions), opts, cmp.AllowUnexported(vcr.Interaction{})); diff != "" {
			t.Fatalf("yaml v3 (-wrote +read):\n%s\n%s", diff, data)
		}
		path := filepath.Join(t.TempDir(), "c.yaml")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		loaded, err := cassette.Load(strings.TrimSuffix(path, ".yaml"))
		if err != nil {
			t.Fatalf("go-vcr: %v\n%s", err, data)
		}
		if diff := cmp.Diff(normalize(want), normalize(fromGoVCR(loaded.Interactions)), opts, cmp.AllowUnexported(vcr.Interaction{})); diff != "" {
			t.Fatalf("go-vcr (-wrote +read):\n%s\n%s", diff, data)
		}
	})
}

// TestLayoutFallsBackOnOtherYAML: a cassette go-vcr wrote (plain scalars,
// block bodies, its own key order) reads through the YAML library.
func TestLayoutFallsBackOnOtherYAML(t *testing.T) {
	data, err := os.ReadFile("../judge/testdata/cassettes/ExampleWithRecorder.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := parseLayout(data); err == nil {
		t.Fatal("the recorder's parser read go-vcr's layout; the test needs a file in another layout")
	}
	its, err := decodeCassette(data)
	if err != nil || len(its) == 0 || its[0].Response.Code != 200 || !strings.HasPrefix(its[0].Request.Body, `{"model"`) {
		t.Fatalf("decodeCassette = %d interactions, %v", len(its), err)
	}
}

// fromGoVCR copies interactions go-vcr read into the recorder's own types,
// field by field, so that what go-vcr reads can be compared with what the
// recorder wrote.
func fromGoVCR(its []*cassette.Interaction) []*vcr.Interaction {
	out := make([]*vcr.Interaction, len(its))
	for i, it := range its {
		q, r := it.Request, it.Response
		out[i] = &vcr.Interaction{ID: it.ID,
			Request: vcr.Request{Proto: q.Proto, ProtoMajor: q.ProtoMajor, ProtoMinor: q.ProtoMinor, ContentLength: q.ContentLength,
				TransferEncoding: q.TransferEncoding, Trailer: q.Trailer, Host: q.Host, RemoteAddr: q.RemoteAddr, RequestURI: q.RequestURI,
				Body: q.Body, Form: q.Form, Headers: q.Headers, URL: q.URL, Method: q.Method},
			Response: vcr.Response{Proto: r.Proto, ProtoMajor: r.ProtoMajor, ProtoMinor: r.ProtoMinor, TransferEncoding: r.TransferEncoding,
				Trailer: r.Trailer, ContentLength: r.ContentLength, Uncompressed: r.Uncompressed, Body: r.Body, Headers: r.Headers,
				Status: r.Status, Code: r.Code, Duration: r.Duration},
		}
	}
	return out
}
