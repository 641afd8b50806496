package recorder

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agentcheck/agentcheck/internal/vcr"
)

// mergeRequest is one request of a generated recording: the interactions
// that answer it, the n-th identical request getting the n-th.
type mergeRequest struct {
	q       request
	answers []*vcr.Interaction
}

// generatedRecording draws the requests a suite of cases might send, each
// answered one to three times: cases and no case, JSON bodies of which two
// requests share a canonical form with different bytes, bodies that are not
// UTF-8 (written as !!binary), multipart bodies, text of several lines,
// headers with several values and none.
func generatedRecording(r *rand.Rand) []mergeRequest {
	bodies := []string{
		`{"model":"m","messages":[{"role":"user","content":"hi"}]}`,
		`{"messages":[{"content":"hi","role":"user"}],"model":"m"}`, // the first, canonically
		`{"model":"m","temperature":0}`,
		"\xff\xd8\xff\xe0 a JPEG, not UTF-8",
		"--b1\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\nv\r\n--b1--\r\n",
		"",
		"line one\nline two\n",
	}
	cases := []string{"", "sample-1", "sample-2", "sample 3/repeat-2"}
	var out []mergeRequest
	seen := map[string]bool{}
	for range 1 + r.IntN(10) {
		label := cases[r.IntN(len(cases))]
		body := bodies[r.IntN(len(bodies))]
		path := []string{"/v1/chat/completions", "/v1/embeddings", "/v1/files?purpose=x"}[r.IntN(3)]
		id := label + "\x00" + path + "\x00" + body
		if seen[id] {
			continue
		}
		seen[id] = true
		headers := http.Header{"Content-Type": {"application/json"}}
		if label != "" {
			headers.Set(CaseHeader, label)
		}
		url := "http://127.0.0.1:4000" + path
		q := newRequest(label, "POST", url, body)
		m := mergeRequest{q: q}
		for n := range 1 + r.IntN(3) {
			respBody := fmt.Sprintf(`{"answer":%d,"draw":%d}`, n, r.IntN(1000))
			switch r.IntN(4) {
			case 0:
				respBody = fmt.Sprintf("data: {\"n\":%d}\n\ndata: [DONE]\n\n", n)
			case 1:
				respBody = string([]byte{0x89, 'P', 'N', 'G', byte(n), 0xff})
			}
			m.answers = append(m.answers, &vcr.Interaction{
				Request: vcr.Request{
					Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, ContentLength: int64(len(body)),
					Host: "127.0.0.1:4000", Body: body, Headers: headers.Clone(), URL: url, Method: "POST",
				},
				Response: vcr.Response{
					Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, ContentLength: int64(len(respBody)), Body: respBody,
					Headers: http.Header{"Content-Type": {"application/json"}, "X-Many": {"a", "b"}, "X-None": {}},
					Status:  "200 OK", Code: 200, Duration: time.Duration(r.IntN(5000)) * time.Microsecond,
				},
			})
		}
		out = append(out, m)
	}
	return out
}

// shardsOf draws the cassettes that processes recording parts of the
// recording made: each holds, of each request, the first answers (all of
// them, some, or none), its requests interleaved in an order of its own.
func shardsOf(r *rand.Rand, rec []mergeRequest, files int) (map[string][]byte, map[string][]*vcr.Interaction) {
	data := map[string][]byte{}
	held := map[string][]*vcr.Interaction{}
	for f := range files {
		name := fmt.Sprintf("shard-%d.yaml", f+1)
		var queues [][]*vcr.Interaction
		for _, m := range rec {
			queues = append(queues, m.answers[:r.IntN(len(m.answers)+1)])
		}
		var its []*vcr.Interaction
		for {
			var left []int
			for i, q := range queues {
				if len(q) > 0 {
					left = append(left, i)
				}
			}
			if len(left) == 0 {
				break
			}
			i := left[r.IntN(len(left))]
			its = append(its, queues[i][0])
			queues[i] = queues[i][1:]
		}
		data[name] = encodeCassette(its)
		held[name] = its
	}
	return data, held
}

// TestMergeProperties holds Merge, over generated recordings split across
// generated shards, to what a merge is for: every interaction of every
// shard is in the merged cassette, byte for byte, and those several shards
// hold are in it once; each request gets its answers in the order recorded
// when the merged cassette replays; merging again, alone or with any of
// the shards, changes nothing; the merge does not depend on the shards'
// names; and a shard that gives one request another answer is a conflict
// naming both files and both indexes.
func TestMergeProperties(t *testing.T) {
	t.Parallel() // it overlaps the package's other slow tests
	for seed := range uint64(80) {
		r := rand.New(rand.NewPCG(seed, 20))
		rec := generatedRecording(r)
		shards, held := shardsOf(r, rec, 1+r.IntN(4))
		merged, err := Merge(shards)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		back, err := parseLayout(merged)
		if err != nil {
			t.Fatalf("seed %d: the merged cassette is not in the recorder's layout: %v\n%s", seed, err, merged)
		}

		// The answers each request has in some shard, and how many.
		rp, err := Open("merged.yaml", WithData(merged), WithEnv(func(string) string { return "" }))
		if err != nil {
			t.Fatal(err)
		}
		want := 0
		for _, m := range rec {
			most := 0
			for _, its := range held {
				n := 0
				for _, it := range its {
					for _, a := range m.answers {
						if it == a {
							n++
						}
					}
				}
				most = max(most, n)
			}
			want += most
			for n := range most {
				got := rp.idx.next(m.q)
				if got == nil || !sameInteraction(got, m.answers[n]) {
					t.Fatalf("seed %d: the merged cassette replays %v as the %s answer to %q (case %q), want %v",
						seed, got, ordinal(n+1), m.q.body, m.q.label, m.answers[n])
				}
			}
		}
		if len(back) != want {
			t.Fatalf("seed %d: the merged cassette holds %d interactions, want %d (each request's answers across the shards, once)", seed, len(back), want)
		}
		for name, its := range held {
			for i, it := range its {
				found := false
				for _, b := range back {
					found = found || sameInteraction(it, b)
				}
				if !found {
					t.Fatalf("seed %d: %s interaction %d is not in the merged cassette", seed, name, i)
				}
			}
		}

		if again, err := Merge(map[string][]byte{"m.yaml": merged}); err != nil || string(again) != string(merged) {
			t.Fatalf("seed %d: merging the merged cassette alone changes it (err %v)", seed, err)
		}
		renamed := map[string][]byte{"m.yaml": merged}
		for name, data := range shards {
			renamed["z-"+strings.ToUpper(name)] = data
		}
		if again, err := Merge(renamed); err != nil || string(again) != string(merged) {
			t.Fatalf("seed %d: merging the shards again, under other names and with the merged cassette, gives another cassette (err %v)", seed, err)
		}

		// One answer changed in a copy of a shard that holds it.
		for name, its := range held {
			if len(its) == 0 {
				continue
			}
			i := r.IntN(len(its))
			changed := make([]*vcr.Interaction, len(its))
			for j, it := range its {
				c := *it
				changed[j] = &c
			}
			changed[i].Response.Body += " changed"
			bad := map[string][]byte{name: shards[name], "changed.yaml": encodeCassette(changed)}
			_, err := Merge(bad)
			if !errors.Is(err, ErrMergeConflict) {
				t.Fatalf("seed %d: a copy of %s with interaction %d's response changed merges with it: %v", seed, name, i, err)
			}
			first, second := "changed.yaml", name
			if second < first {
				first, second = second, first
			}
			wantLine := regexp.MustCompile(fmt.Sprintf(`(?m)^  %s interaction %d and %s interaction %d answer the \d+(st|nd|rd|th) POST /v1/\S+ request.* differently \(response body differs\)$`,
				regexp.QuoteMeta(first), i, regexp.QuoteMeta(second), i))
			if !wantLine.MatchString(err.Error()) || strings.Count(err.Error(), "\n  ") != 1 {
				t.Fatalf("seed %d: Expected the conflict to name %s and %s, interaction %d each, once, but the error is:\n%v", seed, first, second, i, err)
			}
			break
		}
	}
}

func TestMergeRefusesWhatItWouldLose(t *testing.T) {
	good := string(encodeCassette(layoutSample(`{"a":1}`, "ok", "h")))
	for _, tc := range []struct{ name, data, want string }{
		{"remote_addr", "---\nversion: 2\ninteractions:\n- request: {url: 'http://h/x', method: GET, remote_addr: '10.0.0.1:5'}\n  response: {code: 200, duration: 1ms}\n",
			"interaction 0 sets request remote_addr"},
		{"unknown key", "---\nversion: 2\ninteractions:\n- request: {url: 'http://h/x', method: GET, note: x}\n  response: {code: 200, duration: 1ms}\n",
			"field note not found"},
		{"second document", "---\nversion: 2\ninteractions:\n- request: {url: 'http://h/x', method: GET}\n  response: {code: 200, duration: 1ms}\n---\nversion: 2\n",
			"more than one YAML document"},
		{"cut short", good[:strings.LastIndex(good[:len(good)-1], "\n")+1], "cut short"},
		{"empty", "", "the file is empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Merge(map[string][]byte{"good.yaml": []byte(good), "bad.yaml": []byte(tc.data)})
			if err == nil || !strings.Contains(err.Error(), "bad.yaml") || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Expected the merge to refuse bad.yaml saying %q, but it returned %v", tc.want, err)
			}
			if errors.Is(err, ErrMergeConflict) {
				t.Fatalf("Expected a broken cassette not to be called a conflict, but it was: %v", err)
			}
		})
	}
}

func TestMergeKeepsAGoVCRFileWhole(t *testing.T) {
	// go-vcr's own layout, fields it writes empty included, read with the
	// YAML library.
	data := "---\nversion: 2\ninteractions:\n    - id: 7\n      request:\n        proto: HTTP/1.1\n        proto_major: 1\n        proto_minor: 1\n" +
		"        content_length: 0\n        transfer_encoding: []\n        trailer: {}\n        host: h\n        remote_addr: \"\"\n        request_uri: \"\"\n" +
		"        body: !!binary /9j/\n        form: {}\n        headers:\n            X-A:\n                - \"1\"\n                - \"2\"\n        url: http://h/x\n        method: POST\n" +
		"      response:\n        proto: HTTP/1.1\n        proto_major: 1\n        proto_minor: 1\n        transfer_encoding: []\n        trailer: {}\n        content_length: -1\n" +
		"        uncompressed: false\n        body: \"hello\\n\"\n        headers: {}\n        status: 201 Created\n        code: 201\n        duration: 2.5ms\n"
	merged, err := Merge(map[string][]byte{"govcr.yaml": []byte(data)})
	if err != nil {
		t.Fatal(err)
	}
	its, err := parseLayout(merged)
	if err != nil || len(its) != 1 {
		t.Fatalf("Expected one interaction in the recorder's layout, but got %d (%v):\n%s", len(its), err, merged)
	}
	q, p := its[0].Request, its[0].Response
	if q.Body != "\xff\xd8\xff" || strings.Join(q.Headers["X-A"], ",") != "1,2" || p.Body != "hello\n" || p.ContentLength != -1 ||
		p.Code != 201 || p.Status != "201 Created" || p.Duration != 2500*time.Microsecond || its[0].ID != 0 {
		t.Fatalf("Expected the interaction kept byte for byte (id renumbered), but got %+v", its[0])
	}
}

// TestMergeTakesADurationForNoConflict: two recordings of the same answer
// that took different times to come are one interaction, the shorter
// kept, in any order of the files; any other difference is a conflict.
func TestMergeTakesADurationForNoConflict(t *testing.T) {
	cassette := func(duration, body string) []byte {
		return []byte("---\nversion: 2\ninteractions:\n- request: {url: 'http://h/x', method: GET}\n  response: {code: 200, body: '" + body + "', duration: " + duration + "}\n")
	}
	for _, files := range []map[string][]byte{
		{"a.yaml": cassette("7ms", "hi"), "b.yaml": cassette("2ms", "hi")},
		{"a.yaml": cassette("2ms", "hi"), "b.yaml": cassette("7ms", "hi")},
	} {
		merged, err := Merge(files)
		if err != nil {
			t.Fatalf("Expected answers that differ only in duration to merge, but got %v", err)
		}
		its, err := parseLayout(merged)
		if err != nil || len(its) != 1 || its[0].Response.Duration != 2*time.Millisecond {
			t.Fatalf("Expected one interaction with the shorter duration, 2ms, but got %d (%v):\n%s", len(its), err, merged)
		}
	}
	_, err := Merge(map[string][]byte{"a.yaml": cassette("7ms", "hi"), "b.yaml": cassette("2ms", "ho")})
	if !errors.Is(err, ErrMergeConflict) || !strings.Contains(err.Error(), "(response body and duration differ)") {
		t.Fatalf("Expected a conflict naming the body and the duration, but got %v", err)
	}
}
