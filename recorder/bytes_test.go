package recorder

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	openai "github.com/sashabaranov/go-openai"
	"gopkg.in/dnaeon/go-vcr.v4/pkg/cassette"
	vcr "gopkg.in/dnaeon/go-vcr.v4/pkg/recorder"
)

// pngBytes is a small PNG, most of whose bytes are not UTF-8 text.
var pngBytes = func() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	for i := range 16 {
		img.Set(i%4, i/4, color.RGBA{uint8(0x80 + i*7), uint8(0xff - i), uint8(i * 13), 0xff})
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err)
	}
	return b.Bytes()
}()

// audioBytes is a fake audio file: every byte value, repeated.
var audioBytes = func() []byte {
	b := make([]byte, 3000)
	for i := range b {
		b[i] = byte(i * 7)
	}
	return b
}()

func pngServer(t *testing.T) (*httptest.Server, *atomic.Int64) {
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Header().Set("Content-Type", "image/png")
		w.Write(pngBytes)
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

func get(t *testing.T, c *http.Client, url string) []byte {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// interactionsIn counts the interactions of a cassette file.
func interactionsIn(t *testing.T, path string) int {
	t.Helper()
	its, _, err := loadCassette(path)
	if err != nil {
		t.Fatal(err)
	}
	return len(its)
}

// TestBinaryAnswerReplaysByteForByte: a PNG answer is recorded once and
// replays byte for byte, through the recorder and through go-vcr.
func TestBinaryAnswerReplaysByteForByte(t *testing.T) {
	srv, calls := pngServer(t)
	path := filepath.Join(t.TempDir(), "png.yaml")
	rec, err := Open(path, WithMode(RecordMissing), env())
	if err != nil {
		t.Fatal(err)
	}
	if got := get(t, rec.Client(), srv.URL+"/image.png"); !bytes.Equal(got, pngBytes) {
		t.Fatalf("the recording run got %d bytes, want the PNG's %d", len(got), len(pngBytes))
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	if n := interactionsIn(t, path); n != 1 {
		t.Errorf("Expected one interaction for one request after Close, but the cassette holds %d", n)
	}
	data, _ := os.ReadFile(path)
	if !bytes.Contains(data, []byte("body: !!binary ")) {
		t.Errorf("Expected the PNG stored as !!binary, but the cassette is:\n%s", data)
	}

	replay, err := Open(path, WithMode(RecordNone), env(), WithUpstream(offline(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer replay.Close()
	if got := get(t, replay.Client(), srv.URL+"/image.png"); !bytes.Equal(got, pngBytes) {
		t.Errorf("Expected the replayed PNG to be its %d bytes, but it is %d bytes that differ", len(pngBytes), len(got))
	}

	// go-vcr reads the recorder's file...
	c, err := cassette.Load(strings.TrimSuffix(path, ".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Interactions[0].Response.Body; got != string(pngBytes) {
		t.Errorf("Expected go-vcr to read the PNG's %d bytes, but it reads %d", len(pngBytes), len(got))
	}
	if calls.Load() != 1 {
		t.Errorf("%d requests reached the server, want 1", calls.Load())
	}
}

// TestGoVCRBinaryRecordingReplays: go-vcr's own recording of a binary
// answer replays byte for byte through the recorder.
func TestGoVCRBinaryRecordingReplays(t *testing.T) {
	srv, _ := pngServer(t)
	name := filepath.Join(t.TempDir(), "govcr")
	r, err := vcr.New(name, vcr.WithMode(vcr.ModeRecordOnly), vcr.WithSkipRequestLatency(true))
	if err != nil {
		t.Fatal(err)
	}
	get(t, r.GetDefaultClient(), srv.URL+"/image.png")
	if err := r.Stop(); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(name + ".yaml")
	if !bytes.Contains(data, []byte("!!binary")) {
		t.Fatalf("go-vcr did not write the PNG as !!binary; the form the recorder writes needs checking:\n%s", data)
	}
	replay, err := Open(name, WithMode(RecordNone), env(), WithUpstream(offline(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer replay.Close()
	if got := get(t, replay.Client(), srv.URL+"/image.png"); !bytes.Equal(got, pngBytes) {
		t.Errorf("Expected go-vcr's PNG to replay as its %d bytes, but it is %d bytes", len(pngBytes), len(got))
	}
}

// TestMultipartAudioUploadReplays: an audio file uploaded as multipart form
// data (go-openai's transcription) is recorded once and replays, though
// each run draws a new multipart boundary.
func TestMultipartAudioUploadReplays(t *testing.T) {
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		_, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		mr := multipart.NewReader(r.Body, params["boundary"])
		var sum string
		for {
			p, err := mr.NextPart()
			if err != nil {
				break
			}
			if p.FormName() == "file" {
				b, _ := io.ReadAll(p)
				sum = fmt.Sprintf("%x", sha256.Sum256(b))
			}
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"text":"audio %s"}`, sum)
	}))
	defer srv.Close()
	want := fmt.Sprintf("audio %x", sha256.Sum256(audioBytes))
	transcribe := func(rec *Recorder) (string, error) {
		c := openaiClient(srv.URL, "sk-test-key-000000000000000000", rec.Client())
		resp, err := c.CreateTranscription(context.Background(), openai.AudioRequest{
			Model: openai.Whisper1, FilePath: "speech.mp3", Reader: bytes.NewReader(audioBytes),
		})
		return resp.Text, err
	}
	path := filepath.Join(t.TempDir(), "audio.yaml")
	for _, mode := range []Mode{RecordAll, RecordNone, RecordNone, RecordMissing} {
		rec, err := Open(path, WithMode(mode), env())
		if err != nil {
			t.Fatal(err)
		}
		got, err := transcribe(rec)
		if err != nil || got != want {
			t.Errorf("%s: Expected the transcription %q, but got %q, %v", mode, want, got, err)
		}
		if err := rec.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if calls.Load() != 1 {
		t.Errorf("Expected the upload recorded once and replayed after, but %d requests reached the server", calls.Load())
	}
	if n := interactionsIn(t, path); n != 1 {
		t.Errorf("Expected one interaction, but the cassette holds %d", n)
	}
}

// TestReRecordingBinaryNeverGrowsTheFile: recording the same binary
// exchanges again, in any mode, leaves the same file.
func TestReRecordingBinaryNeverGrowsTheFile(t *testing.T) {
	srv, _ := pngServer(t)
	path := filepath.Join(t.TempDir(), "again.yaml")
	var first []byte
	for i, mode := range []Mode{RecordAll, RecordAll, RecordMissing, RecordAll} {
		rec, err := Open(path, WithMode(mode), env())
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"/a.png", "/b.png"} {
			req, _ := http.NewRequest(http.MethodPost, srv.URL+p, bytes.NewReader(audioBytes))
			resp, err := rec.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
		}
		if err := rec.Close(); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(path)
		if i == 0 {
			first = data
			continue
		}
		if !bytes.Equal(data, first) {
			t.Errorf("run %d (%s): Expected the same %d-byte file, but it is %d bytes with %d interactions", i+1, mode, len(first), len(data), interactionsIn(t, path))
		}
	}
}
