package recorder

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/agentcheck/agentcheck/internal/vcr"
	"go.yaml.in/yaml/v3"
)

// ErrMergeConflict is wrapped by the error [Merge] returns when two
// cassettes answer the same request differently.
var ErrMergeConflict = errors.New("the cassettes answer the same request differently")

// Merge combines cassettes recorded apart, by the shards of a test run or
// by parallel processes, into one, in the recorder's layout. cassettes maps
// each file's name, used in messages only, to its content.
//
// The result is the same bytes whatever the order the cassettes come in:
// interactions are ordered as [Recorder.Close] orders them, by case (the
// [WithCase] header), then by request (method, route, query and canonical
// body, then its bytes), and the interactions that answer one request keep
// the order they were recorded in, so that the n-th identical request still
// gets the n-th answer. An interaction that several cassettes hold identically is kept
// once. When the n-th answer to a request of a case differs between two
// cassettes in any byte but its duration (the time the answer took, which
// two recordings of one answer rarely share: the shorter is kept), Merge
// returns an error that wraps
// [ErrMergeConflict] and names, for every such request, both files and the
// interaction's index in each; it never picks one.
//
// Every byte of an interaction is kept: bodies, binary ones included,
// headers, forms, status, duration. Only the ids are renumbered. A cassette
// that holds what the recorder's layout cannot keep (a go-vcr field such as
// remote_addr or trailer set, a key go-vcr does not know, a second YAML
// document) is refused, as is one cut short; and the merged file is read
// back and compared with its interactions before it is returned.
func Merge(cassettes map[string][]byte) ([]byte, error) {
	type entry struct {
		file  string
		index int
		it    *vcr.Interaction
		enc   string // the interaction as the layout writes it
		q     request
	}
	names := slices.Sorted(maps.Keys(cassettes))
	byKey := map[string]map[string][]entry{}
	for _, name := range names {
		its, err := mergeInput(name, cassettes[name])
		if err != nil {
			return nil, err
		}
		for i, it := range its {
			q := newRequest(http.Header(it.Request.Headers).Get(CaseHeader), it.Request.Method, it.Request.URL, it.Request.Body)
			// By case and canonical request first, as Close orders them;
			// then by the bytes the request is looked up by first, so
			// that the n-th answer compared is the one a replay of those
			// bytes gets.
			k := q.label + "\x00" + q.canonical() + "\x00" + q.query + "\x00" + q.body
			if byKey[k] == nil {
				byKey[k] = map[string][]entry{}
			}
			enc := string(appendInteractions(nil, []*vcr.Interaction{it}, 0))
			byKey[k][name] = append(byKey[k][name], entry{name, i, it, enc, q})
		}
	}
	var merged []*vcr.Interaction
	var conflicts []string
	for _, k := range slices.Sorted(maps.Keys(byKey)) {
		files := byKey[k]
		for n := 0; ; n++ {
			var first *entry
			for _, name := range names {
				if n >= len(files[name]) {
					continue
				}
				e := &files[name][n]
				switch {
				case first == nil:
					first = e
				case e.enc == first.enc:
				case onlyDuration(first.it, e.it):
					// The same answer, taken a different time to come:
					// not a conflict. The shorter is kept, whatever the
					// files' order.
					if e.it.Response.Duration < first.it.Response.Duration {
						first = e
					}
				default:
					conflicts = append(conflicts, fmt.Sprintf("%s interaction %d and %s interaction %d answer the %s %s %s request%s differently (%s)",
						first.file, first.index, e.file, e.index, ordinal(n+1), first.it.Request.Method, storedPath(first.it.Request.URL),
						caseSuffix(first.q.label), differing(differences(first.it, e.it))))
				}
			}
			if first == nil {
				break
			}
			merged = append(merged, first.it)
		}
	}
	if len(conflicts) > 0 {
		return nil, fmt.Errorf("%w; nothing was merged:\n  %s", ErrMergeConflict, strings.Join(conflicts, "\n  "))
	}
	out := encodeCassette(merged)
	back, err := decodeCassette(out)
	if err != nil {
		return nil, fmt.Errorf("agentcheck: the merged cassette does not read back: %w", err)
	}
	for i := range merged {
		if i >= len(back) || !sameInteraction(merged[i], back[i]) {
			return nil, fmt.Errorf("agentcheck: the merged cassette's interaction %d does not read back as it was recorded", i)
		}
	}
	return out, nil
}

// mergeInput reads one cassette for Merge, refusing what the merged file
// could not keep.
func mergeInput(name string, data []byte) ([]*vcr.Interaction, error) {
	its, _, err := loadCassetteData(name, data)
	if err != nil {
		return nil, err
	}
	if _, err := parseLayout(data); err != nil {
		// Not the recorder's layout: read it once more, strictly, so that a
		// key the types lack, or another document, is not lost silently.
		// (loadCassetteData has already refused repeated keys and huge
		// mappings.)
		dec := yaml.NewDecoder(bytes.NewReader(data))
		dec.KnownFields(true)
		var c vcr.Cassette
		if err := dec.Decode(&c); err != nil {
			return nil, fmt.Errorf("agentcheck: cassette %s: %w (a merge keeps only what go-vcr's cassette format holds)", name, err)
		}
		var next yaml.Node
		if err := dec.Decode(&next); !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("agentcheck: cassette %s: more than one YAML document, which a merge would lose", name)
		}
	}
	for i, it := range its {
		q, p := &it.Request, &it.Response
		var lost []string
		for _, f := range []struct {
			name string
			set  bool
		}{
			{"request transfer_encoding", len(q.TransferEncoding) > 0},
			{"request trailer", len(q.Trailer) > 0},
			{"request remote_addr", q.RemoteAddr != ""},
			{"request request_uri", q.RequestURI != ""},
			{"response transfer_encoding", len(p.TransferEncoding) > 0},
			{"response trailer", len(p.Trailer) > 0},
			{"response uncompressed", p.Uncompressed},
		} {
			if f.set {
				lost = append(lost, f.name)
			}
		}
		if len(lost) > 0 {
			return nil, fmt.Errorf("agentcheck: cassette %s: interaction %d sets %s, which the recorder's layout does not keep; a merge would lose it",
				name, i, strings.Join(lost, ", "))
		}
	}
	return its, nil
}

// differences names the parts in which two interactions differ.
func differences(a, b *vcr.Interaction) []string {
	var d []string
	add := func(differ bool, what string) {
		if differ {
			d = append(d, what)
		}
	}
	q, r := &a.Request, &b.Request
	add(q.Body != r.Body || q.URL != r.URL || q.Method != r.Method, "request bytes")
	add(!sameValues(q.Headers, r.Headers) || !sameValues(http.Header(q.Form), http.Header(r.Form)), "request headers")
	add(q.Proto != r.Proto || q.ProtoMajor != r.ProtoMajor || q.ProtoMinor != r.ProtoMinor || q.ContentLength != r.ContentLength || q.Host != r.Host, "request line")
	p, s := &a.Response, &b.Response
	add(p.Code != s.Code || p.Status != s.Status, "status")
	add(p.Body != s.Body, "response body")
	add(!sameValues(p.Headers, s.Headers), "response headers")
	add(p.Proto != s.Proto || p.ProtoMajor != s.ProtoMajor || p.ProtoMinor != s.ProtoMinor || p.ContentLength != s.ContentLength, "response line")
	add(p.Duration != s.Duration, "duration")
	return d
}

// differing says which parts differ: "response body differs",
// "response body and duration differ", "status, response body and
// duration differ".
func differing(parts []string) string {
	switch len(parts) {
	case 0:
		return "their bytes differ"
	case 1:
		return parts[0] + " differs"
	default:
		return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1] + " differ"
	}
}

// onlyDuration says whether a and b differ in nothing but the time their
// answer took.
func onlyDuration(a, b *vcr.Interaction) bool {
	d := differences(a, b)
	return len(d) == 1 && d[0] == "duration"
}

// sameInteraction says whether b holds everything the layout keeps of a.
func sameInteraction(a, b *vcr.Interaction) bool {
	return len(differences(a, b)) == 0
}

// sameValues compares header or form maps, an empty one equal to none.
func sameValues(a, b http.Header) bool {
	return maps.EqualFunc(a, b, slices.Equal) || len(a) == 0 && len(b) == 0
}

func caseSuffix(label string) string {
	if label == "" {
		return " (no case)"
	}
	return fmt.Sprintf(" of case %q", label)
}

// ordinal is "1st", "2nd", "3rd", "4th", ...
func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s", n, suffix)
}
