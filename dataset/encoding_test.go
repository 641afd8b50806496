package dataset

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
)

// utf16Bytes is text in UTF-16 in the byte order given, with a byte order
// mark when bom is set.
func utf16Bytes(text string, order binary.ByteOrder, bom bool) []byte {
	units := utf16.Encode([]rune(text))
	if bom {
		units = append([]uint16{0xfeff}, units...)
	}
	b := make([]byte, 2*len(units))
	for i, u := range units {
		order.PutUint16(b[2*i:], u)
	}
	return b
}

func gzipped(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// chunked gives its bytes a random few at a time, so that a code unit, a
// surrogate pair or a gzip block is cut at every place in turn.
type chunked struct {
	b   []byte
	rng *rand.Rand
}

func (c *chunked) Read(p []byte) (int, error) {
	if len(c.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), 1+c.rng.IntN(7))], c.b)
	c.b = c.b[n:]
	return n, nil
}

// readAll is every record's line, index and text, and every error, as
// ReadRecords yields them.
func readAll(r io.Reader, file string) string {
	var b strings.Builder
	for rec, err := range ReadRecords(r, file) {
		if err != nil {
			fmt.Fprintf(&b, "error %v\n", err)
			continue
		}
		fmt.Fprintf(&b, "%d %d %q\n", rec.Line, rec.Index, rec.Text)
	}
	return b.String()
}

// A dataset reads the same whether its file holds it as UTF-8, gzip-
// compressed, or in UTF-16 of either byte order with or without a byte
// order mark (and gzip-compressed UTF-16), whatever the reads' sizes:
// generated datasets of JSON Lines, arrays and objects over lines one
// after another (a .json file's, told by its name under .gz), whose text
// holds ASCII, other BMP letters and characters beyond it (surrogate
// pairs in UTF-16). The 12 rounds, each layout 3 times, cover the code the
// 40 it had covered (go test -coverprofile, the same blocks of the
// package); FuzzEncodedDatasetsReadAsTheirText draws more.
func TestEncodedDatasetsReadAsTheirText(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 2))
	for round := range 12 {
		checkEncodedRound(t, rng, round)
	}
}

// FuzzEncodedDatasetsReadAsTheirText is TestEncodedDatasetsReadAsTheirText
// on the dataset a seed draws, in the layout round%4 picks.
func FuzzEncodedDatasetsReadAsTheirText(f *testing.F) {
	f.Add(uint64(1), 2)
	f.Add(uint64(2), 3)
	f.Fuzz(func(t *testing.T, seed uint64, round int) {
		checkEncodedRound(t, rand.New(rand.NewPCG(seed, 2)), round)
	})
}

// checkEncodedRound draws a dataset from rng, laid out as round%4 picks
// (JSON Lines, with CRLF, an array, objects over lines), and fails t
// unless each encoding of it, read in chunks rng draws, reads as its
// UTF-8 text does.
func checkEncodedRound(t *testing.T, rng *rand.Rand, round int) {
	t.Helper()
	letters := []string{"a", "Z", " ", "é", "ß", "ж", "漢", "😀", "𝄞", `\"`, `\u00e9`}
	var samples []string
	for i := range 1 + rng.IntN(6) {
		var content strings.Builder
		for range rng.IntN(30) {
			content.WriteString(letters[rng.IntN(len(letters))])
		}
		samples = append(samples, fmt.Sprintf(`{"id": "s%d", "user_input": [{"type": "human", "content": "%s"}, {"type": "ai", "content": "ok", "tool_calls": [{"name": "t", "args": {"q": "%s"}}]}], "reference_tool_calls": [{"name": "t", "args": {"q": "%s"}}]}`, i, content.String(), content.String(), content.String()))
	}
	text, name := strings.Join(samples, "\n")+"\n", "data.jsonl"
	switch (round%4 + 4) % 4 {
	case 1:
		text = strings.ReplaceAll(text, "\n", "\r\n")
	case 2:
		text, name = "[\n"+strings.Join(samples, ",\n")+"\n]\n", "data.json"
	case 3:
		// Objects one after another, each over lines: a .json file's
		// (data.json.gz's too), not JSON Lines.
		text, name = strings.ReplaceAll(text, `{"id"`, "{\n  \"id\""), "data.json"
	}
	want := readAll(strings.NewReader(text), name)
	if strings.Contains(want, "error") || strings.Count(want, "\n") != len(samples) {
		t.Fatalf("round %d: the UTF-8 text itself does not read:\n%s", round, want)
	}
	u16le := utf16Bytes(text, binary.LittleEndian, true)
	encoded := map[string][]byte{
		"gzip":                 gzipped(t, []byte(text)),
		"UTF-16LE with BOM":    u16le,
		"UTF-16LE":             utf16Bytes(text, binary.LittleEndian, false),
		"UTF-16BE with BOM":    utf16Bytes(text, binary.BigEndian, true),
		"UTF-16BE":             utf16Bytes(text, binary.BigEndian, false),
		"gzip of UTF-16LE":     gzipped(t, u16le),
		"UTF-8 with BOM, gzip": gzipped(t, append([]byte(bom), text...)),
	}
	for _, how := range slices.Sorted(maps.Keys(encoded)) {
		b, file := encoded[how], name
		if strings.Contains(how, "gzip") {
			file += ".gz"
		}
		if got := readAll(&chunked{b, rng}, file); got != want {
			t.Errorf("round %d, %s: read\n%s\nwant\n%s", round, how, got, want)
		}
	}
}

// Other compressions are an error naming the file and the compression,
// and saying how to read it; a gzip stream cut short is the input's error,
// after the samples read before the cut.
func TestCompressedInputThatIsNotReadSaysSo(t *testing.T) {
	for _, c := range compressed {
		got := readAll(strings.NewReader(c.magic+"rest of the file"), "data.jsonl")
		if want := "error data.jsonl: the input is " + c.name + "-compressed: decompress it first (" + c.command; !strings.HasPrefix(got, want) || strings.Count(got, "\n") != 1 {
			t.Errorf("%s: read %q, want one error starting %q", c.name, got, want)
		}
	}
	line := `{"user_input": [{"type": "human", "content": "hi"}], "reference_tool_calls": []}` + "\n"
	full := gzipped(t, []byte(strings.Repeat(line, 2000)))
	got := readAll(bytes.NewReader(full[:len(full)/2]), "data.jsonl.gz")
	if !strings.Contains(got, "the gzip-compressed input is cut short or corrupt: unexpected EOF") || !strings.HasPrefix(got, "1 0 ") {
		t.Errorf("a gzip stream cut in half reads as\n%.600s\nwant its first samples, then the cut named", got)
	}
	if got := readAll(strings.NewReader("\x1f\x8bnot gzip"), "data.jsonl.gz"); !strings.HasPrefix(got, "error data.jsonl.gz: the input is gzip-compressed, but cannot be read as such") {
		t.Errorf("a broken gzip header reads as %q", got)
	}
	// As gzip(1) reads them: members one after another, zero bytes after
	// the last as padding; other bytes after it are an error.
	want := readAll(strings.NewReader(strings.Repeat(line, 6)), "data.jsonl")
	two := slices.Concat(gzipped(t, []byte(strings.Repeat(line, 2))), gzipped(t, []byte(strings.Repeat(line, 4))))
	if got := readAll(bytes.NewReader(two), "data.jsonl.gz"); got != want {
		t.Errorf("two gzip members read as\n%s\nwant\n%s", got, want)
	}
	if got := readAll(bytes.NewReader(slices.Concat(two, make([]byte, 70000))), "data.jsonl.gz"); got != want {
		t.Errorf("gzip members and zero padding read as\n%s\nwant\n%s", got, want)
	}
	got = readAll(bytes.NewReader(slices.Concat(two, []byte("\x00\x00trailing"))), "data.jsonl.gz")
	if !strings.HasPrefix(got, want) || !strings.Contains(got[len(want):], "the gzip-compressed input is followed by bytes that are not gzip") {
		t.Errorf("gzip members and trailing bytes read as\n%s", got)
	}
}

// JSON text is UTF-16 without a byte order mark only when its first
// characters are ASCII each with a zero byte: a UTF-8 file whose first line
// is broken by zero bytes is read as UTF-8, its other lines not lost; a
// short file of two ASCII characters in UTF-16 still reads.
func TestBrokenUTF8IsNoUTF16(t *testing.T) {
	line := `{"user_input": [{"type": "human", "content": "hi"}], "reference_tool_calls": []}`
	for _, first := range []string{"{\x00\"\x00", "{\x00\"\x00u\x00s\x00", "\x00{\x00\"", "{\x00\"\x00 \x00\n"} {
		got := readAll(strings.NewReader(first+"\n"+line+"\n"+line+"\n"), "data.jsonl")
		if strings.Contains(got, "error") || strings.Count(got, "\n") != 3 || strings.Count(got, fmt.Sprintf("%q", line)) != 2 {
			t.Errorf("a first line %q broken by zero bytes: read\n%s\nwant it and the two lines after it", first, got)
		}
	}
	if got := readAll(bytes.NewReader(utf16Bytes("[]", binary.LittleEndian, false)), "data.json"); got != "" {
		t.Errorf("[] in UTF-16LE reads as %q, want no records", got)
	}
}

// utf16Reader reads any bytes as Go's UTF-16 decoding reads their code
// units (a surrogate without its other half U+FFFD), and a trailing odd
// byte as one more U+FFFD, whatever the reads' sizes.
func FuzzUTF16Reader(f *testing.F) {
	for _, s := range []string{"", "a", "a\x00", "\x3d\xd8\x00\xde", "\x3d\xd8", "\x00\xdeA\x00", "\x3d\xd8A\x00", "\xff"} {
		f.Add([]byte(s), false, uint64(1))
	}
	f.Fuzz(func(t *testing.T, b []byte, big bool, seed uint64) {
		var order binary.ByteOrder = binary.LittleEndian
		if big {
			order = binary.BigEndian
		}
		units := make([]uint16, len(b)/2)
		for i := range units {
			units[i] = order.Uint16(b[2*i:])
		}
		want := string(utf16.Decode(units))
		if len(b)%2 == 1 {
			want += "\uFFFD"
		}
		u := &utf16Reader{src: &chunked{b, rand.New(rand.NewPCG(seed, 1))}, order: order, in: make([]byte, 5)}
		got, err := io.ReadAll(u)
		if err != nil || string(got) != want {
			t.Errorf("% x read as %q (%v), want %q", b, got, err, want)
		}
	})
}

// An OTLP export gzip-compressed or in UTF-16 reads as its text does.
func TestEncodedOTLPReadsAsItsText(t *testing.T) {
	plain, err := os.ReadFile("testdata/otel/weather.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	traces := func(b []byte) string {
		var out strings.Builder
		for ts, err := range ReadOTLPTraces(bytes.NewReader(b), "weather.jsonl") {
			fmt.Fprintf(&out, "%s %d %d %v\n", ts.TraceID, ts.Line, len(ts.Sample.Conversation), err)
		}
		return out.String()
	}
	want := traces(plain)
	if !strings.Contains(want, "<nil>") {
		t.Fatalf("the plain export reads no trace:\n%s", want)
	}
	for how, b := range map[string][]byte{"gzip": gzipped(t, plain), "UTF-16LE with BOM": utf16Bytes(string(plain), binary.LittleEndian, true)} {
		if got := traces(b); got != want {
			t.Errorf("%s: read\n%s\nwant\n%s", how, got, want)
		}
	}
	// An input error names the file, not a line 0.
	got := traces([]byte("\x28\xb5\x2f\xfd..."))
	if want := " 0 0 weather.jsonl: the input is zstd-compressed: decompress it first (zstd -dc FILE); only gzip is read as it is\n"; got != want {
		t.Errorf("a zstd export reads as %q, want %q", got, want)
	}
}
