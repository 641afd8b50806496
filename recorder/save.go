package recorder

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v4"
	"gopkg.in/dnaeon/go-vcr.v4/pkg/cassette"
)

// Close saves the interactions recorded since the recorder started, if any:
// under a lock on the cassette's directory, it re-reads the file so that
// interactions another process recorded meanwhile are kept, and replaces it
// atomically (temporary file, fsync, rename). With RecordAll, the
// interactions the file held at the start are dropped. Close is idempotent;
// a test's cassette from ForTest is closed when the test ends.
func (r *Recorder) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil
	}
	r.closed = true
	unshare(r)
	if len(r.added) == 0 {
		return nil
	}
	dir := filepath.Dir(r.path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("agentcheck: cassette %s: %w", r.path, err)
	}
	unlock, err := lockDir(dir)
	if err != nil {
		return fmt.Errorf("agentcheck: cassette %s: lock: %w", r.path, err)
	}
	defer unlock()
	current, _, err := loadCassette(r.path)
	if err != nil && r.mode != RecordAll {
		return err
	}
	var keep []*cassette.Interaction
	if r.mode == RecordAll {
		// Keep only what others added since we loaded: our old interactions
		// are the ones this run re-recorded.
		old := make(map[string]int, len(r.loaded))
		for _, it := range r.loaded {
			old[r.fingerprint(it)]++
		}
		for _, it := range current {
			if fp := r.fingerprint(it); old[fp] > 0 {
				old[fp]--
				continue
			}
			keep = append(keep, it)
		}
	} else {
		keep = current
	}
	c := cassette.New(strings.TrimSuffix(r.path, ".yaml"))
	c.Interactions = append(keep, r.added...)
	for i, it := range c.Interactions {
		it.ID = i
	}
	data, err := yaml.Marshal(c)
	if err != nil {
		return fmt.Errorf("agentcheck: cassette %s: %w", r.path, err)
	}
	return r.writeAtomic(append([]byte("---\n"), data...))
}

// recordingHeader marks each recorded response with an identity of its own,
// so that RecordAll, when it drops the interactions the file held at the
// start, tells them apart from identical ones another recorder of the same
// file has just written (a deterministic server answers both alike).
const recordingHeader = "X-Agentcheck-Recording"

func newRecordingID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func (r *Recorder) fingerprint(it *cassette.Interaction) string {
	if id := http.Header(it.Response.Headers).Get(recordingHeader); id != "" {
		return id
	}
	return r.key(it.Request.Method, it.Request.URL, []byte(it.Request.Body)) +
		"\x00" + strconv.Itoa(it.Response.Code) + "\x00" + it.Response.Body
}

// writeAtomic replaces the cassette so that a reader, or a crash, sees either
// the old file or the new one, never a torn one.
func (r *Recorder) writeAtomic(data []byte) (err error) {
	dir, base := filepath.Split(r.path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		return fmt.Errorf("agentcheck: cassette %s: %w", r.path, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
			err = fmt.Errorf("agentcheck: cassette %s not written, the old one is intact: %w", r.path, err)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = r.syncFile(f); err != nil {
		return err
	}
	if err = f.Chmod(0o644); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(f.Name(), r.path); err != nil {
		return err
	}
	// Make the rename itself durable; not every system can sync a directory.
	if d, derr := os.Open(dir); derr == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// loadCassette reads a cassette with go-vcr's own loader; a missing file is
// an empty cassette.
func loadCassette(path string) (interactions []*cassette.Interaction, existed bool, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, true, fmt.Errorf("agentcheck: cassette %s: %w", path, err)
	}
	return loadCassetteData(path, data)
}

// loadCassetteData reads a cassette's content with go-vcr's own loader, and
// refuses one that is cut short: go-vcr reads an empty file as an empty
// cassette, and an interaction that lost its last fields as one whose
// response has status 0.
func loadCassetteData(path string, data []byte) (interactions []*cassette.Interaction, existed bool, err error) {
	if len(bytes.TrimSpace(bytes.TrimPrefix(bytes.TrimSpace(data), []byte("---")))) == 0 {
		return nil, true, fmt.Errorf("agentcheck: cassette %s: the file is empty, yet a cassette always holds its version", path)
	}
	c, err := cassette.LoadWithFS(strings.TrimSuffix(path, ".yaml"), cassetteData(data))
	if err != nil {
		return nil, true, fmt.Errorf("agentcheck: cassette %s: %w", path, err)
	}
	for i, it := range c.Interactions {
		var missing []string
		switch {
		case it == nil:
			missing = []string{"content"}
		default:
			if it.Request.Method == "" {
				missing = append(missing, "request method")
			}
			if it.Request.URL == "" {
				missing = append(missing, "request url")
			}
			if it.Response.Code == 0 {
				missing = append(missing, "response code")
			}
		}
		if len(missing) > 0 {
			return nil, true, fmt.Errorf("agentcheck: cassette %s: interaction %d of %d has no %s: the file was cut short or edited",
				path, i, len(c.Interactions), strings.Join(missing, ", "))
		}
	}
	return c.Interactions, true, nil
}

// cassetteData is a go-vcr file system holding one cassette's content,
// whatever its name.
type cassetteData []byte

func (d cassetteData) ReadFile(string) ([]byte, error) { return d, nil }
func (d cassetteData) WriteFile(name string, _ []byte) error {
	return fmt.Errorf("cassette %s is read-only", name)
}
func (d cassetteData) IsFileExists(string) bool { return true }
