package recorder

import (
	"fmt"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/agentcheck/agentcheck/internal/shell"
)

// RecordTestEnv narrows [RecordEnv] to one test: with it set, only the
// recorders of the test of that name (t.Name() for [ForTest], else
// [WithTestName]'s) record; every other one replays, whatever RecordEnv
// says. The commands a replay miss or a failure prints set it, so that
// running one records that test and nothing else: not its parent's or its
// subtests' cassettes, not the other specs of a Ginkgo suite. A mode set
// with [WithMode] is not narrowed.
const RecordTestEnv = "AGENTCHECK_RECORD_TEST"

// narrowMode is the mode of a recorder whose mode RecordEnv gave as m.
func narrowMode(m Mode, cfg config) Mode {
	if only := cfg.getenv(RecordTestEnv); m != RecordNone && only != "" && only != cfg.test {
		return RecordNone
	}
	return m
}

// How a test is picked on the go test command line.
type selection int

const (
	runTest      selection = iota // -run, a test, example or fuzz target and its subtests
	runBenchmark                  // -bench, once
	runGinkgo                     // -ginkgo.focus, a spec by its full text
)

// recordCommand is the shell command that records the missing interactions
// of test (all the package's tests when it is ""), in package pkg
// ("./judge"): RecordEnv=missing, RecordTestEnv=test, and go test with
// -count=1 (a cached result records nothing) and what picks the test.
func recordCommand(pkg, test string, how selection) string {
	var b strings.Builder
	b.WriteString(RecordEnv + "=missing ")
	if test != "" {
		b.WriteString(RecordTestEnv + "=" + shell.Quote(test) + " ")
	}
	b.WriteString("go test " + shell.Quote(pkg) + " -count=1")
	if test == "" {
		return b.String()
	}
	switch how {
	case runTest:
		b.WriteString(" -run " + shell.Quote(runPattern(test)))
	case runBenchmark:
		b.WriteString(" -run '^$' -bench " + shell.Quote(runPattern(test)) + " -benchtime=1x")
	case runGinkgo:
		if suite := ginkgoSuiteTest(); suite != "" {
			b.WriteString(" -run " + shell.Quote(runPattern(suite)))
		}
		// Ginkgo matches the focus against the suite's description, a
		// space and the spec's full text.
		b.WriteString(" -ginkgo.focus " + shell.Quote(" "+regexpQuote(test)+"$"))
	}
	return b.String()
}

// forTestCommand is recordCommand for a test given to ForTest: a Ginkgo
// spec, a benchmark, or a test go test -run picks.
func forTestCommand(t T, test string) string {
	how := runTest
	if _, ok := t.(interface{ ParallelProcess() int }); ok {
		how = runGinkgo
	} else if _, ok := t.(interface{ ResetTimer() }); ok {
		how = runBenchmark
	}
	return recordCommand(packageDir(), test, how)
}

// runPattern is the -run (or -bench) pattern that matches the test named
// test and, of its subtests, those under it: go test splits the pattern at
// "/" and matches each part against a level of the name as t.Name() gives
// it.
func runPattern(test string) string {
	segs := strings.Split(test, "/")
	for i, s := range segs {
		segs[i] = "^" + regexpQuote(s) + "$"
	}
	return strings.Join(segs, "/")
}

// regexpQuote is regexp.QuoteMeta with the characters a terminal would not
// show as themselves written as \x{...}.
func regexpQuote(s string) string {
	q := regexp.QuoteMeta(s)
	if shell.Printable(q) {
		return q
	}
	var b strings.Builder
	for _, r := range q {
		if r != utf8.RuneError && strconv.IsPrint(r) {
			b.WriteRune(r)
		} else {
			fmt.Fprintf(&b, `\x{%x}`, r)
		}
	}
	return b.String()
}

// ginkgoSuiteTest is the Go test function that runs the Ginkgo suite of
// the spec running now ("" when it cannot be told): the caller of
// ginkgo.RunSpecs, found in the stacks of the goroutines, as Ginkgo runs a
// spec in a goroutine of its own. It lets the command run that function
// alone rather than every test of the package.
func ginkgoSuiteTest() string {
	suite.Lock()
	defer suite.Unlock()
	if suite.name != "" {
		return suite.name
	}
	buf := make([]byte, 1<<16)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		if len(buf) >= 64<<20 {
			return ""
		}
		buf = make([]byte, 2*len(buf))
	}
	// Each frame is "function(arguments)" then "\tfile:line", innermost
	// first: RunSpecs's caller is the frame after it.
	lines := strings.Split(string(buf), "\n")
	for i := 0; i+2 < len(lines); i++ {
		if !strings.Contains(lines[i], "/ginkgo/v2.RunSpecs(") {
			continue
		}
		fn, _, _ := strings.Cut(lines[i+2], "(")
		fn = fn[strings.LastIndexByte(fn, '/')+1:]
		fn = fn[strings.IndexByte(fn, '.')+1:]
		if suite.name != "" && suite.name != fn {
			suite.name = "" // two suites running: tell neither
			return ""
		}
		if strings.HasPrefix(fn, "Test") && !strings.ContainsAny(fn, ".()") {
			suite.name = fn
		}
	}
	return suite.name
}

// suite caches ginkgoSuiteTest's answer: a process runs one Ginkgo suite.
var suite struct {
	sync.Mutex
	name string
}
