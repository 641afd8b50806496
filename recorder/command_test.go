package recorder

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRerecordCommandRecordsThatTestAlone runs the command a test's
// recorder prints for recording it anew, for each test, subtest and Ginkgo
// spec of testdata/rerecord, and checks that it recorded that test's
// cassette and nothing else: the stub server heard from that test alone and
// no other cassette changed. The stub answers each request with a new
// number, so that a cassette recorded anew always differs.
//
// Each command runs as printed, through bash. The command that records
// them all and those named in literally (a Go subtest whose name holds
// shell and regexp metacharacters, and a Ginkgo spec, whose -ginkgo.focus
// go test passes on as a flag it does not know) run with the real go
// command, and the others with goShim as go on PATH: it runs the test
// binary with the flags go test would give it. The real go commands keep
// that binary at one path (GOFLAGS=-o): the first links it, and the others
// find it up to date, as go test -o does, and run it without linking
// again, a second of CPU each.
func TestRerecordCommandRecordsThatTestAlone(t *testing.T) {
	t.Parallel() // slow: it overlaps the package's other slow tests
	if testing.Short() {
		t.Skip("builds and runs testdata/rerecord with go test; not in -short")
	}
	literally := []string{`TestOdd/re.*[x]+(y)|z$^\`, "container spec's (other) [one]"}
	shell, err := exec.LookPath("bash")
	if err != nil {
		t.Skipf("bash runs the printed commands: %v", err)
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	realRoot, err := filepath.EvalSymlinks(root) // as pwd -P says it, in goShim
	if err != nil {
		t.Fatal(err)
	}
	base := t.TempDir()
	var mu sync.Mutex
	heard := map[string][]string{} // by cassette directory, the tests the server heard
	seq := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		heard[r.Header.Get("X-Dir")] = append(heard[r.Header.Get("X-Dir")], r.Header.Get("X-Test"))
		seq++
		fmt.Fprintf(w, `{"answer":%d}`, seq)
	}))
	defer srv.Close()

	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if name == "CI" || name == "PATH" || strings.HasPrefix(name, "AGENTCHECK_") || strings.HasPrefix(name, "RERECORD_") || slices.Contains(ciVariables, name) {
			continue // the commands run as on a developer's machine
		}
		env = append(env, kv)
	}
	goBin := filepath.Join(runtime.GOROOT(), "bin")
	env = append(env, "RERECORD_URL="+srv.URL)
	bin := filepath.Join(t.TempDir(), "rerecord.test")
	// The real go commands keep the test binary at bin, linked without the
	// symbol table and DWARF, as go test links the binaries it runs
	// otherwise: a quarter less of the link's time. GOFLAGS takes quotes,
	// not escapes.
	quote := "'"
	if strings.Contains(bin, quote) {
		quote = `"`
	}
	if strings.Contains(bin, quote) {
		t.Fatalf("the test binary's path %s holds both quotes, which GOFLAGS cannot carry", bin)
	}
	goflags := strings.TrimSpace(os.Getenv("GOFLAGS") + " " + quote + "-o=" + bin + quote + " '-ldflags=-s -w'")
	shim := t.TempDir()
	if err := os.WriteFile(filepath.Join(shim, "go"), []byte("#!"+shell+goShim), 0o755); err != nil {
		t.Fatal(err)
	}
	// run runs command through bash, with the go command if real, else
	// with goShim.
	run := func(dir, command string, real bool) error {
		path := shim
		if real {
			path = goBin
		}
		cmd := exec.Command(shell, "-c", command)
		cmd.Dir = root
		cmd.Env = append(slices.Clip(env), "RERECORD_DIR="+dir, "RERECORD_ROOT="+realRoot, "RERECORD_BIN="+bin, "GOFLAGS="+goflags, // a copy each: commands run concurrently
			"PATH="+path+string(os.PathListSeparator)+os.Getenv("PATH"))
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("%s: %v\n%s", command, err, out)
		}
		return nil
	}
	cassettes := func(dir string) map[string]string {
		files := map[string]string{}
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && d.Name() != "commands.jsonl" {
				data, _ := os.ReadFile(path)
				rel, _ := filepath.Rel(dir, path)
				files[filepath.ToSlash(rel)] = string(data)
			}
			return nil
		})
		return files
	}

	if err := run(base, RecordEnv+"=all go test ./recorder/testdata/rerecord -count=1 -bench . -benchtime=1x", true); err != nil {
		t.Fatal(err)
	}
	commands := map[string]string{}
	data, err := os.ReadFile(filepath.Join(base, "commands.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		var tc [2]string
		if err := json.Unmarshal(sc.Bytes(), &tc); err != nil {
			t.Fatal(err)
		}
		commands[tc[0]] = tc[1]
	}
	var names []string
	for name := range commands {
		names = append(names, name)
	}
	slices.Sort(names)
	want := []string{
		"TestOdd/#01", "TestOdd/::warning::x", "TestOdd/Foo", "TestOdd/a/b", "TestOdd/dup", "TestOdd/dup#01",
		"TestOdd/foo", "TestOdd/it's", "TestOdd/outer", "TestOdd/outer/inner", `TestOdd/re.*[x]+(y)|z$^\`,
		"TestOdd/tab_and_newline", "TestOdd/with_space", "TestOdd/ünïcödé", "TestPlain", "TestPlain/sub", "TestPlainer",
		"BenchmarkCall", "container spec", "container spec's (other) [one]", "container tab\there", "outer container spec",
		`TestOdd/bell\a\u200bzero-width`,
	}
	slices.Sort(want)
	if diff := cmp.Diff(want, names); diff != "" {
		t.Fatalf("the tests of testdata/rerecord that asked (-want +got):\n%s", diff)
	}
	recorded := cassettes(base)

	// Each command runs on a copy of the cassettes, two at a time with
	// goShim; those run literally, which spend their time in the go
	// command, start first, beside them.
	var wg sync.WaitGroup
	slots := make(chan struct{}, 2)
	first := slices.Clone(literally)
	for _, name := range names {
		if !slices.Contains(literally, name) {
			first = append(first, name)
		}
	}
	for i, name := range first {
		dir := filepath.Join(t.TempDir(), strconv.Itoa(i))
		if err := os.CopyFS(dir, os.DirFS(base)); err != nil {
			t.Fatal(err)
		}
		real := slices.Contains(literally, name)
		wg.Go(func() {
			if !real {
				slots <- struct{}{}
				defer func() { <-slots }()
			}
			if err := run(dir, commands[name], real); err != nil {
				t.Error(err)
				return
			}
			var changed []string
			after := cassettes(dir)
			for f, data := range after {
				if recorded[f] != data {
					changed = append(changed, f)
				}
			}
			slices.Sort(changed)
			if want := []string{filepath.ToSlash(CassetteFile(name))}; !slices.Equal(changed, want) {
				t.Errorf("%s\n  recorded %q, want only %q", commands[name], changed, want)
			}
			mu.Lock()
			defer mu.Unlock()
			if got := slices.Compact(heard[dir]); !slices.Equal(got, []string{name}) { // a benchmark may run twice
				t.Errorf("%s\n  asked the server for %q, want only %q", commands[name], got, name)
			}
		})
	}
	wg.Wait()
}

// goShim, after a #! line naming bash, stands in for the go command in the
// re-record commands that TestRerecordCommandRecordsThatTestAlone does not
// run with it: it takes only "go test ./recorder/testdata/rerecord" run from
// the repository's root, and runs the test binary $RERECORD_BIN in the package's directory
// with the flags go test would give it (cmd/go/internal/test/testflag.go):
// its own test flags as -test.name=value, a flag it does not know and the
// value after it as they are, and its default -test.timeout. Anything else
// is refused, so that a command it cannot stand in for fails.
const goShim = `
set -eu
if [ "${1-}" != test ] || [ "${2-}" != ./recorder/testdata/rerecord ] || [ "$(pwd -P)" != "$RERECORD_ROOT" ]; then
	echo "go (shim): want go test ./recorder/testdata/rerecord in $RERECORD_ROOT, got go $* in $(pwd -P)" >&2
	exit 2
fi
shift 2
args=(-test.paniconexit0 -test.timeout=10m0s)
while (($#)); do
	case $1 in
	-count=* | -run=* | -bench=* | -benchtime=*) args+=("-test.${1#-}") ;;
	-count | -run | -bench | -benchtime)
		if (($# < 2)); then echo "go (shim): $1 wants a value" >&2; exit 2; fi
		args+=("-test.${1#-}=$2")
		shift
		;;
	-ginkgo.*=*) args+=("$1") ;;
	-ginkgo.*)
		args+=("$1")
		if (($# > 1)) && [ "${2#-}" = "$2" ]; then args+=("$2"); shift; fi
		;;
	*) echo "go (shim): cannot stand in for go test with $1" >&2; exit 2 ;;
	esac
	shift
done
cd recorder/testdata/rerecord
exec "$RERECORD_BIN" "${args[@]}"
`

func TestRecordTestEnvNarrowsRecording(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.yaml")
	for _, tc := range []struct {
		name string
		opts []Option
		want Mode
	}{
		{"the named test records", []Option{WithTestName("TestA/sub"), env(RecordEnv, "all", RecordTestEnv, "TestA/sub")}, RecordAll},
		{"its parent replays", []Option{WithTestName("TestA"), env(RecordEnv, "all", RecordTestEnv, "TestA/sub")}, RecordNone},
		{"its subtest replays", []Option{WithTestName("TestA/sub/x"), env(RecordEnv, "missing", RecordTestEnv, "TestA/sub")}, RecordNone},
		{"a sibling whose name starts alike replays", []Option{WithTestName("TestA/subtle"), env(RecordEnv, "all", RecordTestEnv, "TestA/sub")}, RecordNone},
		{"a recorder of no test replays", []Option{env(RecordEnv, "missing", RecordTestEnv, "TestA")}, RecordNone},
		{"another test does not prune", []Option{WithTestName("TestB"), env(RecordEnv, "prune", RecordTestEnv, "TestA")}, RecordNone},
		{"without it every test records", []Option{WithTestName("TestB"), env(RecordEnv, "missing")}, RecordMissing},
		{"WithMode is not narrowed", []Option{WithTestName("TestB"), WithMode(RecordMissing), env(RecordTestEnv, "TestA")}, RecordMissing},
	} {
		r, err := Open(path, tc.opts...)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if r.Mode() != tc.want {
			t.Errorf("%s: mode %v, want %v", tc.name, r.Mode(), tc.want)
		}
	}
}

// ginkgoT and benchT are tests as ForTest tells a Ginkgo spec and a
// benchmark apart.
type ginkgoT struct{ fakeT }

func (ginkgoT) ParallelProcess() int { return 1 }

type benchT struct{ fakeT }

func (benchT) ResetTimer() {}

func TestForTestCommandPicksTheTestTheWayGoTestDoes(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		t    T
		want string
	}{
		{&fakeT{name: "TestX/a b"}, `AGENTCHECK_RECORD=all AGENTCHECK_RECORD_TEST='TestX/a b' go test ./recorder -count=1 -run '^TestX$/^a b$'`},
		{&benchT{fakeT{name: "BenchmarkX/size=10"}}, `AGENTCHECK_RECORD=all AGENTCHECK_RECORD_TEST=BenchmarkX/size=10 go test ./recorder -count=1 -run '^$' -bench '^BenchmarkX$/^size=10$' -benchtime=1x`},
		// No Ginkgo suite runs here, so no -run.
		{&ginkgoT{fakeT{name: "books can be 'borrowed' (twice)"}}, `AGENTCHECK_RECORD=all AGENTCHECK_RECORD_TEST='books can be '\''borrowed'\'' (twice)' go test ./recorder -count=1 -ginkgo.focus ' books can be '\''borrowed'\'' \(twice\)$'`},
	} {
		var r *Recorder
		switch ft := tc.t.(type) {
		case *fakeT:
			r = forTest(ft, WithDir(dir), env())
		default:
			r = ForTest(tc.t, WithDir(dir), env())
		}
		if got := r.RerecordCommand(); got != tc.want {
			t.Errorf("RerecordCommand() of %q = %q, want %q", tc.t.Name(), got, tc.want)
		}
		r.Close()
	}
}
