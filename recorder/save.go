package recorder

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/agentcheck/agentcheck/internal/filemode"
	"github.com/agentcheck/agentcheck/internal/vcr"
)

// Close finishes the cassette. Each interaction was written to the file
// when it was recorded; Close rewrites the file once more, under a lock on
// its directory, with what other processes recorded meanwhile kept and this
// run's interactions in a stable order (by case, then request), so that
// recording the same answers again gives the same file (a file that holds
// that already, as this recorder last wrote it, is left as it is). In Prune mode it
// drops the interactions the run did not use, if every request was
// answered and the test passed. Close is idempotent; a test's cassette from
// ForTest is closed when the test ends.
func (r *Recorder) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil
	}
	r.closed = true
	unshare(r)
	if r.mode == Prune {
		return r.prune()
	}
	if len(r.added) == 0 {
		return nil
	}
	if r.written < len(r.added) {
		if err := r.persist(); err != nil {
			return err
		}
	}
	unlock, err := lockDir(filepath.Dir(r.path))
	if err != nil {
		return fmt.Errorf("agentcheck: cassette %s: lock: %w", r.path, err)
	}
	defer unlock()
	current, data, err := readCassette(r.path)
	if err != nil {
		return err
	}
	others := minus(current, r.added)
	// A stable order: by case, then by request; identical requests keep
	// the order they were made in.
	order := make([]int, len(r.added))
	keys := make([]string, len(r.added))
	for i, q := range r.addedAs {
		order[i] = i
		keys[i] = q.label + "\x00" + q.canonical()
	}
	slices.SortStableFunc(order, func(a, b int) int { return strings.Compare(keys[a], keys[b]) })
	all := others
	for _, i := range order {
		all = append(all, r.added[i])
	}
	out := encodeCassette(all)
	if r.wrote == sha256.Sum256(data) && bytes.Equal(out, data) {
		return nil // the file holds it already, as this recorder wrote and synced it
	}
	return r.writeAtomic(out)
}

// persist writes the interactions recorded since the last call to the
// file: the first time by rewriting it whole (with RecordAll, without its
// old interactions), then by appending, so that a run cut short (os.Exit, a
// panic, go test -timeout) keeps what it recorded. Callers hold mu.
func (r *Recorder) persist() error {
	dir := filepath.Dir(r.path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("agentcheck: cassette %s: %w", r.path, err)
	}
	unlock, err := lockDir(dir)
	if err != nil {
		return fmt.Errorf("agentcheck: cassette %s: lock: %w", r.path, err)
	}
	defer unlock()
	pending := r.added[r.written:]
	if r.written == 0 {
		current, _, err := loadCassette(r.path)
		if err != nil && r.mode != RecordAll {
			return err
		}
		base := current
		if r.mode == RecordAll {
			// Drop the interactions the file held at the start; keep what
			// other processes added since.
			base = minus(current, r.loaded)
		}
		if err := r.writeAtomic(encodeCassette(append(slices.Clip(base), pending...))); err != nil {
			return err
		}
	} else {
		f, err := os.OpenFile(r.path, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return fmt.Errorf("agentcheck: cassette %s: %w", r.path, err)
		}
		// One write, so that the file never holds half an interaction.
		_, err = f.Write(appendInteractions(nil, pending, r.written))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("agentcheck: cassette %s: %w", r.path, err)
		}
	}
	r.written = len(r.added)
	return nil
}

// prune rewrites the cassette with only the interactions this run used,
// unless a request went unanswered or the test failed. Callers hold mu.
func (r *Recorder) prune() error {
	if r.missed || r.failed != nil && r.failed() {
		return nil
	}
	used := make(map[*vcr.Interaction]bool)
	for _, it := range r.idx.usedInteractions() {
		used[it] = true
	}
	var kept []*vcr.Interaction
	for _, it := range r.loaded {
		if used[it] {
			kept = append(kept, it)
		}
	}
	if len(kept) == len(r.loaded) {
		return nil
	}
	unlock, err := lockDir(filepath.Dir(r.path))
	if err != nil {
		return fmt.Errorf("agentcheck: cassette %s: lock: %w", r.path, err)
	}
	defer unlock()
	return r.writeAtomic(encodeCassette(kept))
}

// minus is the interactions of all that are not in drop (as multisets of
// fingerprints), in order.
func minus(all, drop []*vcr.Interaction) []*vcr.Interaction {
	n := make(map[string]int, len(drop))
	for _, it := range drop {
		n[fingerprint(it)]++
	}
	var out []*vcr.Interaction
	for _, it := range all {
		if fp := fingerprint(it); n[fp] > 0 {
			n[fp]--
			continue
		}
		out = append(out, it)
	}
	return out
}

// fingerprint identifies an interaction as stored, to tell this run's
// interactions in a re-read file from those of other processes.
func fingerprint(it *vcr.Interaction) string {
	return it.Request.Method + " " + it.Request.URL + "\n" + it.Request.Body + "\x00" +
		http.Header(it.Request.Headers).Get(CaseHeader) + "\x00" + strconv.Itoa(it.Response.Code) + "\x00" + it.Response.Body
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
	// The old file's mode (0644 for a new one): a cassette its owner
	// made private stays so.
	if err = f.Chmod(filemode.Of(r.path)); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(f.Name(), r.path); err != nil {
		return err
	}
	r.wrote = sha256.Sum256(data)
	// Make the rename itself durable; not every system can sync a directory.
	if d, derr := os.Open(dir); derr == nil {
		r.syncFile(d)
		d.Close()
	}
	return nil
}

// loadCassette reads a cassette file; a missing file is an empty cassette.
func loadCassette(path string) (interactions []*vcr.Interaction, existed bool, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, true, fmt.Errorf("agentcheck: cassette %s: %w", path, err)
	}
	return loadCassetteData(path, data)
}

// readCassette is loadCassette, with the file's content (nil when it is
// missing).
func readCassette(path string) (interactions []*vcr.Interaction, data []byte, err error) {
	data, err = os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("agentcheck: cassette %s: %w", path, err)
	}
	interactions, _, err = loadCassetteData(path, data)
	return interactions, data, err
}

// loadCassetteData reads a cassette's content (decodeCassette) and refuses
// one that is cut short: YAML reads an empty file as an empty cassette, an
// interaction that lost its last fields as one whose response has status
// 0, and a file cut in the middle of its last line with that line's value
// cut ("code: 200" as "code: 20"). Every cassette's last line ends with a
// line break, so a file cut anywhere either loads as the interactions
// before the cut, unchanged, or is refused.
func loadCassetteData(path string, data []byte) (interactions []*vcr.Interaction, existed bool, err error) {
	if len(bytes.TrimSpace(bytes.TrimPrefix(bytes.TrimSpace(data), []byte("---")))) == 0 {
		return nil, true, fmt.Errorf("agentcheck: cassette %s: the file is empty, yet a cassette always holds its version", path)
	}
	its, err := decodeCassette(data)
	if err != nil {
		return nil, true, fmt.Errorf("agentcheck: cassette %s: %w", path, err)
	}
	for i, it := range its {
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
				path, i, len(its), strings.Join(missing, ", "))
		}
	}
	if !bytes.HasSuffix(data, []byte("\n")) {
		// A cut in the middle of a line can leave a value that still reads,
		// changed: "code: 200" cut to "code: 20".
		last := data[bytes.LastIndexByte(data, '\n')+1:]
		return nil, true, fmt.Errorf("agentcheck: cassette %s: the file does not end with a line break, so it was cut short (its last line reads %.60q); if you edited it, end it with a line break",
			path, last)
	}
	return its, true, nil
}
