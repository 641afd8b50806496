package recorder

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	neturl "net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"

	"github.com/agentcheck/agentcheck/secrets"
)

// encoders compress a body in each content coding.
var encoders = map[string]func([]byte) []byte{
	"gzip": func(b []byte) []byte {
		return compressed(b, func(w io.Writer) io.WriteCloser { return gzip.NewWriter(w) })
	},
	"x-gzip": func(b []byte) []byte {
		return compressed(b, func(w io.Writer) io.WriteCloser { return gzip.NewWriter(w) })
	},
	"deflate": func(b []byte) []byte {
		return compressed(b, func(w io.Writer) io.WriteCloser { return zlib.NewWriter(w) })
	},
	"br": func(b []byte) []byte {
		return compressed(b, func(w io.Writer) io.WriteCloser { return brotli.NewWriter(w) })
	},
	"zstd": func(b []byte) []byte {
		enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
		if err != nil {
			panic(err)
		}
		defer enc.Close()
		return enc.EncodeAll(b, nil)
	},
}

func compressed(b []byte, w func(io.Writer) io.WriteCloser) []byte {
	var buf bytes.Buffer
	zw := w(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// encoded is b in coding, several applied in order when joined by commas.
func encoded(b []byte, coding string) []byte {
	for c := range strings.SplitSeq(coding, ",") {
		b = encoders[strings.ToLower(strings.TrimSpace(c))](b)
	}
	return b
}

// rawDeflate is deflate without zlib's frame, as some servers send it.
func rawDeflate(b []byte) []byte {
	return compressed(b, func(w io.Writer) io.WriteCloser {
		fw, _ := flate.NewWriter(w, flate.BestSpeed)
		return fw
	})
}

// encodedServer answers with body, encoded as the request's ?coding= says
// (several applied in order when joined with commas), or as given when the
// coding has no encoder.
func encodedServer(t *testing.T, body []byte, raw func(coding string) []byte) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		coding := r.URL.Query().Get("coding")
		out := body
		if raw != nil {
			out = raw(coding)
		} else {
			out = encoded(body, coding)
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Encoding", coding)
		w.Write(out)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// fetchEncoded asks for the body in coding, through c, saying that the
// client decodes it itself (so Go's transport passes it through).
func fetchEncoded(c *http.Client, url, coding string) (*http.Response, []byte, error) {
	req, _ := http.NewRequest(http.MethodGet, url+"/answer?coding="+neturl.QueryEscape(coding), nil)
	req.Header.Set("Accept-Encoding", "gzip, deflate, br, zstd")
	resp, err := c.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, b, err
}

// TestEncodedAnswersAreStoredDecoded: an answer in any content coding a
// well-kept library decodes is stored decoded, without its
// Content-Encoding, scrubbed, and replays decoded; the check passes it.
func TestEncodedAnswersAreStoredDecoded(t *testing.T) {
	t.Parallel() // it overlaps the package's other slow tests
	key := fake("sk-proj-", 40, 301)
	answer := []byte(`{"text":"the answer","api_key":"` + key + `"}`)
	srv := encodedServer(t, answer, nil)
	for _, coding := range []string{"gzip", "x-gzip", "deflate", "br", "zstd", "gzip, br", "BR", " zstd "} {
		t.Run(coding, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "encoded.yaml")
			rec, err := Open(path, WithMode(RecordMissing), env())
			if err != nil {
				t.Fatal(err)
			}
			resp, got, err := fetchEncoded(rec.Client(), srv.URL, coding)
			if err != nil {
				t.Fatal(err)
			}
			if resp.Header.Get("Content-Encoding") != strings.TrimSpace(coding) {
				t.Errorf("the recording run's answer has Content-Encoding %q, want the server's %q", resp.Header.Get("Content-Encoding"), coding)
			}
			if want := encoded(answer, coding); !bytes.Equal(got, want) {
				t.Errorf("Expected the recording run to get the server's answer as sent (%d bytes), but it got %d bytes", len(want), len(got))
			}
			if err := rec.Close(); err != nil {
				t.Fatal(err)
			}
			data, _ := os.ReadFile(path)
			if bytes.Contains(data, []byte(key)) || bytes.Contains(data, []byte("Content-Encoding")) || !bytes.Contains(data, []byte("the answer")) {
				t.Errorf("Expected the answer stored decoded, scrubbed, without Content-Encoding, but the cassette is:\n%s", data)
			}
			if findings, err := secrets.Check(path, secrets.Rules{}); err != nil || len(findings) > 0 {
				t.Errorf("Expected the check to pass the cassette, but it reports %v, %v", findings, err)
			}
			replay, err := Open(path, WithMode(RecordNone), env(), WithUpstream(offline(t)))
			if err != nil {
				t.Fatal(err)
			}
			defer replay.Close()
			resp, got, err = fetchEncoded(replay.Client(), srv.URL, coding)
			if err != nil || resp.Header.Get("Content-Encoding") != "" || !bytes.Contains(got, []byte(`"the answer"`)) {
				t.Errorf("Expected the replay decoded, without Content-Encoding, but got %q (Content-Encoding %q), %v", got, resp.Header.Get("Content-Encoding"), err)
			}
		})
	}
}

// TestBareDeflateAnswerIsStoredDecoded: deflate without zlib's frame, as
// some servers send it, decodes too.
func TestBareDeflateAnswerIsStoredDecoded(t *testing.T) {
	answer := []byte(`{"text":"bare deflate"}`)
	srv := encodedServer(t, nil, func(string) []byte { return rawDeflate(answer) })
	path := filepath.Join(t.TempDir(), "deflate.yaml")
	rec, _ := Open(path, WithMode(RecordMissing), env())
	if _, _, err := fetchEncoded(rec.Client(), srv.URL, "deflate"); err != nil {
		t.Fatal(err)
	}
	rec.Close()
	if data, _ := os.ReadFile(path); !bytes.Contains(data, answer) {
		t.Errorf("Expected the bare deflate answer stored decoded, but the cassette is:\n%s", data)
	}
}

// TestBodyBoundAppliesToTheDecodedSize: an answer small on the wire that
// decodes past the bound fails with a *BodyTooLargeError, in every coding,
// and is not stored cut short.
func TestBodyBoundAppliesToTheDecodedSize(t *testing.T) {
	t.Parallel() // slow: it overlaps the package's other slow tests
	// The bound is an option: a small one tests the same rule, four
	// times faster than 1 MiB.
	const bound = 1 << 18
	big := bytes.Repeat([]byte("0123456789abcdef"), 3*bound/16) // 768 KiB, compressing to a few KiB
	srv := encodedServer(t, big, nil)
	for _, coding := range []string{"gzip", "deflate", "br", "zstd", "gzip, br"} {
		t.Run(coding, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bomb.yaml")
			rec, err := Open(path, WithMode(RecordMissing), env(), WithMaxBodyBytes(bound))
			if err != nil {
				t.Fatal(err)
			}
			_, _, err = fetchEncoded(rec.Client(), srv.URL, coding)
			var tooLarge *BodyTooLargeError
			if !errors.As(err, &tooLarge) || tooLarge.Limit != bound || !strings.Contains(tooLarge.What, "decoded from") {
				t.Fatalf("Expected a *BodyTooLargeError for the decoded size, but got %v", err)
			}
			rec.Close()
			if _, err := os.Stat(path); err == nil {
				data, _ := os.ReadFile(path)
				t.Errorf("Expected nothing stored, but the cassette holds %d bytes", len(data))
			}
		})
	}
}

// TestEncodedRequestIsStoredDecoded: a gzip request body goes upstream as
// sent, is stored decoded and scrubbed, and a replay matches it whether
// the client compresses it or not.
func TestEncodedRequestIsStoredDecoded(t *testing.T) {
	key := fake("sk-proj-", 40, 303)
	body := []byte(`{"model":"m","api_key":"` + key + `","q":"compressed question"}`)
	var upstreamGot []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		upstreamGot, _ = io.ReadAll(r.Body)
		fmt.Fprint(w, `{"a":1}`)
	}))
	defer srv.Close()
	send := func(rec *Recorder, encoded bool) (int, error) {
		b, ce := body, ""
		if encoded {
			b, ce = encoders["gzip"](body), "gzip"
		}
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v1/chat/completions", bytes.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Content-Encoding", ce)
		resp, err := rec.Client().Do(req)
		if err != nil {
			return 0, err
		}
		defer resp.Body.Close()
		_, err = io.ReadAll(resp.Body)
		return resp.StatusCode, err
	}
	path := filepath.Join(t.TempDir(), "request.yaml")
	rec, _ := Open(path, WithMode(RecordMissing), env())
	if _, err := send(rec, true); err != nil {
		t.Fatal(err)
	}
	rec.Close()
	if !bytes.Equal(upstreamGot, encoders["gzip"](body)) {
		t.Errorf("Expected the server to get the gzip body as sent, but it got %q", upstreamGot)
	}
	data, _ := os.ReadFile(path)
	if bytes.Contains(data, []byte(key)) || !bytes.Contains(data, []byte("compressed question")) || bytes.Contains(data, []byte("Content-Encoding")) {
		t.Errorf("Expected the request stored decoded and scrubbed, but the cassette is:\n%s", data)
	}
	for _, encoded := range []bool{true, false} {
		replay, _ := Open(path, WithMode(RecordNone), env(), WithUpstream(offline(t)))
		if code, err := send(replay, encoded); err != nil || code != http.StatusOK {
			t.Errorf("Expected the replay (compressed: %v) to match, but got %d, %v", encoded, code, err)
		}
		replay.Close()
	}
}
