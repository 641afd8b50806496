package agentcheck_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentcheck/agentcheck/judge"
	"github.com/agentcheck/agentcheck/judge/judgetest"
	"github.com/agentcheck/agentcheck/recorder"
)

// The README's Go code blocks are compiled and run, so that the quick start
// a reader copies works as the README says. The blocks are written for a
// reader's own test file: the quick start is a whole file, the blocks after
// it are test functions that assume its imports and two things of the
// reader's own, runMyAgent and conversation. TestReadmeCodeBlocks puts them
// all into one file of a throwaway package under testdata (the quick start,
// then each other block, with the imports they use added), next to a stub
// file that defines those two as a booking agent that does what the README
// asks of it, and runs every test function in it with go test. Compile
// errors point at README.md's own lines.
//
// A judged block replays its cassette, kept in testdata/readme and named as
// judge.ForTest names it. To record the cassettes again, through the
// project's record path against judgetest's scripted judge:
//
//	go test . -run '^TestReadmeCodeBlocks$' -record-readme
//
// Every block tagged ```go runs; a block meant only to be read would be
// tagged ```go illustrative (the renderer highlights it all the same), and is
// listed in the test's log.
var recordReadme = flag.Bool("record-readme", false, "record the cassettes of the README's judged code blocks into testdata/readme, against judgetest's scripted judge")

// readmeCassettes keeps the cassettes of the README's judged blocks.
const readmeCassettes = "testdata/readme"

// readmeStub is what the README's blocks take from the reader's code: an
// agent, runMyAgent, that finds and books the restaurant as asked (at the
// time README_AGENT_TIME says, 20:00 by default), and conversation, its
// transcript.
const readmeStub = `package %s

import (
	"encoding/json"
	"os"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/adapters/goopenai"
	openai "github.com/sashabaranov/go-openai"
)

func runMyAgent(request string) []openai.ChatCompletionMessage {
	at := os.Getenv("README_AGENT_TIME")
	if at == "" {
		at = "20:00"
	}
	booking, _ := json.Marshal(map[string]any{"restaurant_id": "r_17", "party_size": 4, "time": at, "request_id": "req-5521"})
	return []openai.ChatCompletionMessage{
		{Role: openai.ChatMessageRoleUser, Content: request},
		{Role: openai.ChatMessageRoleAssistant, ToolCalls: []openai.ToolCall{{ID: "c1", Type: "function",
			Function: openai.FunctionCall{Name: "search_restaurants", Arguments: ` + "`" + `{"city":"Paris","cuisine":"Chinese"}` + "`" + `}}}},
		{Role: openai.ChatMessageRoleTool, ToolCallID: "c1", Content: ` + "`" + `[{"id":"r_17","name":"Golden Dragon"}]` + "`" + `},
		{Role: openai.ChatMessageRoleAssistant, ToolCalls: []openai.ToolCall{{ID: "c2", Type: "function",
			Function: openai.FunctionCall{Name: "book_table", Arguments: string(booking)}}}},
		{Role: openai.ChatMessageRoleTool, ToolCallID: "c2", Content: ` + "`" + `{"confirmation":"GD-88"}` + "`" + `},
		{Role: openai.ChatMessageRoleAssistant, Content: "Booked Golden Dragon for 4 at " + at + ", confirmation GD-88."},
	}
}

var conversation = func() agentcheck.Conversation {
	c, err := goopenai.Messages(runMyAgent("Find a Chinese restaurant in Paris and book it for 4 at 8pm")).Conversation()
	if err != nil {
		panic(err)
	}
	return c
}()
`

// readmeImports are the packages a fragment may name without importing
// them, as the quick start would have imported them.
var readmeImports = map[string]string{
	"agentcheck": "github.com/agentcheck/agentcheck",
	"agenttest":  "github.com/agentcheck/agentcheck/agenttest",
	"metric":     "github.com/agentcheck/agentcheck/metric",
	"trajectory": "github.com/agentcheck/agentcheck/trajectory",
	"recorder":   "github.com/agentcheck/agentcheck/recorder",
	"evalsuite":  "github.com/agentcheck/agentcheck/evalsuite",
	"assert":     "github.com/agentcheck/agentcheck/agenttest/assert",
	"require":    "github.com/agentcheck/agentcheck/agenttest/require",
	"tooldefs":   "github.com/agentcheck/agentcheck/tooldefs",
	"goopenai":   "github.com/agentcheck/agentcheck/adapters/goopenai",
	"ginkgo":     "github.com/onsi/ginkgo/v2",
	"judge":      "github.com/agentcheck/agentcheck/judge",
	"judgetest":  "github.com/agentcheck/agentcheck/judge/judgetest",
	"judgment":   "github.com/agentcheck/agentcheck/judgment",
	"matchers":   "github.com/agentcheck/agentcheck/matchers",
	"gomega":     "github.com/onsi/gomega",
	"openai":     "github.com/sashabaranov/go-openai",
	"scenario":   "github.com/agentcheck/agentcheck/scenario",
	"cmp":        "cmp",
	"context":    "context",
	"json":       "encoding/json",
	"os":         "os",
	"fmt":        "fmt",
	"strings":    "strings",
	"testing":    "testing",
	"time":       "time",
}

// codeBlock is a fenced block of README.md.
type codeBlock struct {
	info string // the fence's info string: "go"
	line int    // README.md's line of the block's first line of code
	text string
}

// readmeBlocks returns the fenced blocks of a README, and which of them are
// Go to run: those tagged go and nothing else.
func readmeBlocks(t *testing.T, data []byte) (blocks, run []codeBlock) {
	t.Helper()
	var cur *codeBlock
	var body strings.Builder
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		fence := strings.HasPrefix(strings.TrimSpace(line), "```")
		switch {
		case cur == nil && fence:
			cur = &codeBlock{info: strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "```")), line: n + 1}
			body.Reset()
		case cur != nil && strings.TrimSpace(line) == "```":
			cur.text = body.String()
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			body.WriteString(line)
			body.WriteByte('\n')
		}
	}
	if cur != nil {
		t.Fatalf("README.md: the code block opened on line %d is never closed", cur.line-1)
	}
	for _, b := range blocks {
		if b.info == "go" {
			run = append(run, b)
		}
	}
	return blocks, run
}

// readmeFile builds the Go file of the README's blocks: the whole-file
// blocks as they are, each fragment appended to the first of them, and an
// import for every package a fragment names that the file does not import.
// It returns the file, its package name and its test functions.
func readmeFile(t *testing.T, blocks []codeBlock) (src, pkg string, tests []string) {
	t.Helper()
	var file, fragments strings.Builder
	firstFull := -1
	for i, b := range blocks {
		if strings.HasPrefix(strings.TrimSpace(b.text), "package ") {
			if firstFull >= 0 {
				t.Fatalf("README.md:%d: a second whole-file Go block; the harness puts every fragment after the first one (README.md:%d), so give the README one", b.line, blocks[firstFull].line)
			}
			firstFull = i
			fmt.Fprintf(&file, "//line README.md:%d\n%s", b.line, b.text)
			continue
		}
		fmt.Fprintf(&fragments, "\n//line README.md:%d\n%s", b.line, b.text)
	}
	if firstFull < 0 {
		t.Fatal("README.md has no whole-file Go block (the quick start, with its package clause and imports)")
	}
	src = file.String() + fragments.String()

	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "README.md", src, parser.ParseComments)
	if err != nil {
		t.Fatalf("the README's Go blocks do not parse: %v", err)
	}
	pkg = f.Name.Name
	imported := map[string]bool{}
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		name := path[strings.LastIndex(path, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		imported[name] = true
	}
	var missing []string
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		// The parser's own resolution (Obj, deprecated but kept) tells a
		// package name from a local variable's.
		if x, ok := sel.X.(*ast.Ident); ok && x.Obj == nil && !imported[x.Name] && readmeImports[x.Name] != "" && !slices.Contains(missing, x.Name) {
			missing = append(missing, x.Name)
		}
		return true
	})
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && strings.HasPrefix(fn.Name.Name, "Test") {
			tests = append(tests, fn.Name.Name)
		}
	}
	if len(missing) > 0 {
		// After the package clause, before the block's own imports; the
		// line directive gives the rest of the file back its README lines.
		clause := fset.Position(f.Name.End())
		end := clause.Offset
		var imports strings.Builder
		slices.Sort(missing)
		for _, name := range missing {
			fmt.Fprintf(&imports, "\nimport %s %q", name, readmeImports[name])
		}
		fmt.Fprintf(&imports, "\n//line README.md:%d", clause.Line+1)
		src = src[:end] + imports.String() + src[end:]
	}
	return src, pkg, tests
}

// goTool is the go command of the toolchain that runs this test.
func goTool(t *testing.T) string {
	t.Helper()
	name := "go"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	if p := filepath.Join(runtime.GOROOT(), "bin", name); fileExists(p) {
		return p
	}
	p, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to compile the README's code: not in %s/bin nor on PATH", runtime.GOROOT())
	}
	return p
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// raceBuild reports whether this test binary has the race detector, so
// that the README's package is built the same way, from the same cache.
func raceBuild() bool {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range bi.Settings {
		if s.Key == "-race" {
			return s.Value == "true"
		}
	}
	return false
}

// readmeEnv is the environment of the README's tests: this one's without
// the judge's settings and any record mode, plus extra. Built with the race
// detector, they do not sleep at exit (GORACE's atexit_sleep_ms, 1 s by
// default, which waits for goroutines still running to race): the testing
// package reports a test's races as the test ends.
func readmeEnv(extra ...string) []string {
	var env []string
	race := "atexit_sleep_ms=0"
	for _, kv := range os.Environ() {
		name, value, _ := strings.Cut(kv, "=")
		switch name {
		case recorder.RecordEnv, judge.EnvAPIKey, judge.EnvBaseURL, judge.EnvModel, "README_AGENT_TIME":
			continue
		case "GORACE":
			race = value + " " + race
			continue
		}
		env = append(env, kv)
	}
	return append(append(env, "GORACE="+race), extra...)
}

// readmeRefundAnswer is the agent's last answer in the README's scenario;
// README_AGENT_FORGETS=1 leaves the refund's reference out, to show the
// failure the README prints.
func readmeRefundAnswer() string {
	if os.Getenv("README_AGENT_FORGETS") != "" {
		return "Done: order 1042 is refunded in full, 49.90."
	}
	return "Done: order 1042 is refunded in full, 49.90. Your refund's reference is RF-7."
}

// readmeJudge is the scripted judge the README's cassettes are recorded
// against: the booking made as asked, on its two topics.
func readmeJudge() judgetest.Script {
	each := func(v bool) judgetest.Script {
		return func(r judgetest.Request) judgetest.Reply {
			props, _ := r.Schema()["properties"].(map[string]any)
			out := map[string]bool{}
			for k := range props {
				out[k] = v
			}
			return judgetest.JSON(out)
		}
	}
	// The README's scenario: the agent's model looks the order up and
	// refunds it, the user accepts and is done, the judge finds every
	// criterion met.
	agent := judgetest.Turns(
		[]judgetest.Reply{
			judgetest.ToolCalls(judgetest.Call("lookup_order", `{"order_id":"1042"}`)),
			judgetest.Content("Order 1042 is a blender, paid 49.90. Shall I refund it in full?"),
		},
		[]judgetest.Reply{
			judgetest.ToolCalls(judgetest.Call("refund_order", `{"order_id":"1042","amount":49.9}`)),
			judgetest.Content(readmeRefundAnswer()),
		},
	)
	return judgetest.ByRole(agent, map[string]judgetest.Script{
		"scenario_user": judgetest.Sequence(judgetest.UserSays("Yes, please refund it in full."), judgetest.UserDone("the refund is confirmed")),
		"scenario_verdict": judgetest.EachCriterion(func(c string) judgetest.Verdict {
			if strings.Contains(c, "reference") && !strings.Contains(readmeRefundAnswer(), "RF-7") {
				return judgetest.NotMet(c, "the agent's last message gives no reference; the tool returned RF-7")
			}
			return judgetest.Met(c, "messages [1] to [7] show it")
		}),
		"agent_goal_infer": judgetest.Always(judgetest.JSON(map[string]string{
			"user_goal": "Book a table for 4 at a Chinese restaurant in Paris at 8pm.",
			"end_state": "Golden Dragon, a Chinese restaurant in Paris, is booked for 4 at 20:00, confirmation GD-88.",
		})),
		"agent_goal_compare": judgetest.Always(judgetest.JSON(map[string]any{
			"reason":   "A Chinese restaurant in Paris is booked for 4 at 20:00, which is 8pm, and confirmed.",
			"achieved": true,
		})),
		"topic_extract":  judgetest.Always(judgetest.JSON(map[string]any{"topics": []string{"Chinese restaurant in Paris", "table booking for four at 8pm"}})),
		"topic_refusal":  each(false),
		"topic_classify": each(true),
	})
}

func copyCassettes(t *testing.T, from, to string) int {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(from, "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(to, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, filepath.Base(p)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return len(paths)
}

// passed reads go test -v output: the tests that passed, and those that
// failed.
func passed(out string) (pass, fail []string) {
	for _, m := range regexp.MustCompile(`(?m)^\s*--- (PASS|FAIL): (\S+)`).FindAllStringSubmatch(out, -1) {
		if m[1] == "PASS" {
			pass = append(pass, m[2])
		} else {
			fail = append(fail, m[2])
		}
	}
	return pass, fail
}

func TestReadmeCodeBlocks(t *testing.T) {
	t.Parallel() // slow: it overlaps the package's other slow tests
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks, goBlocks := readmeBlocks(t, readme)
	for _, b := range blocks {
		if f := strings.Fields(b.info); len(f) > 1 && f[0] == "go" {
			t.Logf("README.md:%d: a ```%s block, not run", b.line-1, b.info)
		}
	}
	if len(goBlocks) < 2 {
		t.Fatalf("README.md has %d Go blocks; the quick start and the judged test were expected", len(goBlocks))
	}
	src, pkg, tests := readmeFile(t, goBlocks)
	if len(tests) < len(goBlocks) {
		t.Fatalf("the README's %d Go blocks hold %d test functions (%v): every block was expected to hold one", len(goBlocks), len(tests), tests)
	}

	dir, err := os.MkdirTemp("testdata", "readme-*")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("readme_test.go", src)
	write("stub_test.go", fmt.Sprintf(readmeStub, pkg))
	cassetteDir := filepath.Join(dir, recorder.DefaultDir)
	copyCassettes(t, readmeCassettes, cassetteDir)

	// The files are compiled as package testdata/readme, where the
	// cassettes are kept and no Go file is, by an overlay: under a path that
	// does not change from run to run, go test -c finds its work in the
	// build cache while the README stays the same.
	overlay := map[string]map[string]string{"Replace": {}}
	for _, name := range []string{"readme_test.go", "stub_test.go"} {
		to, err := filepath.Abs(filepath.Join(readmeCassettes, name))
		if err != nil {
			t.Fatal(err)
		}
		from, err := filepath.Abs(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		overlay["Replace"][to] = from
	}
	data, err := json.Marshal(overlay)
	if err != nil {
		t.Fatal(err)
	}
	write("overlay.json", string(data))
	goCmd := goTool(t)
	bin, err := filepath.Abs(filepath.Join(dir, "readme.test"))
	if err != nil {
		t.Fatal(err)
	}
	// Without the symbol table and DWARF, as go test links the binaries it
	// runs (-ldflags=-s -w): a quarter less of the link's time, and
	// failures still name their lines. -vet=all vets the blocks with all of
	// go vet's checks, as go vet does, in the same go command.
	build := []string{"test", "-c", "-vet=all", "-o", bin, "-ldflags=-s -w"}
	if raceBuild() {
		build = append(build, "-race")
	}
	start := time.Now()
	if out, err := exec.Command(goCmd, append(build, "-overlay", filepath.Join(dir, "overlay.json"), "./"+readmeCassettes)...).CombinedOutput(); err != nil {
		t.Fatalf("go test -c -vet=all on the README's Go blocks: %v\n%s\nthe file, built from README.md:\n%s", err, out, src)
	}
	t.Logf("go test -c -vet=all: %v", time.Since(start))
	runTests := func(tests []string, env ...string) (string, error) {
		cmd := exec.Command(bin, "-test.v", "-test.count=1", "-test.run", "^("+strings.Join(tests, "|")+")$")
		cmd.Dir = dir
		cmd.Env = readmeEnv(env...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}

	if *recordReadme {
		srv := judgetest.Start(t, readmeJudge())
		os.RemoveAll(cassetteDir)
		out, err := runTests(tests, recorder.RecordEnv+"=all", judge.EnvBaseURL+"="+srv.URL, judge.EnvAPIKey+"=sk-readme-scripted-not-a-key-0000", "CI=")
		if err != nil {
			t.Fatalf("recording the README's judged blocks: %v\n%s", err, out)
		}
		n := copyCassettes(t, cassetteDir, readmeCassettes)
		t.Logf("recorded %d cassette(s) into %s with %d requests to the scripted judge", n, readmeCassettes, srv.Count())
	}
	// The recording sent a key; no credential may have reached a cassette.
	paths, _ := filepath.Glob(filepath.Join(readmeCassettes, "*.yaml"))
	if len(paths) == 0 {
		t.Errorf("no cassette in %s: record them with -record-readme", readmeCassettes)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if m := regexp.MustCompile(`(?i)authorization|bearer\s|\bsk-[a-z0-9_-]{6,}`).Find(data); m != nil {
			t.Errorf("%s holds %q: a credential reached the cassette", p, m)
		}
	}

	// Replayed offline: nothing listens at the judge's address, and there is
	// no key.
	out, err := runTests(tests, judge.EnvBaseURL+"=http://127.0.0.1:9/v1")
	pass, fail := passed(out)
	if err != nil || len(fail) > 0 {
		t.Fatalf("the README's code fails: %v\n%s\nthe file, built from README.md:\n%s", err, out, src)
	}
	for _, name := range tests {
		if !slices.Contains(pass, name) {
			t.Errorf("%s, from the README, did not run:\n%s", name, out)
		}
	}

	// The harness can fail: with the agent booking the wrong time, the quick
	// start fails, saying which argument differs, in the words the README
	// shows under it. It alone runs: the words must be its own.
	out, err = runTests(tests[:1], judge.EnvBaseURL+"=http://127.0.0.1:9/v1", "README_AGENT_TIME=21:00")
	if _, fail := passed(out); err == nil || !slices.Contains(fail, tests[0]) || !strings.Contains(out, `+ time: "21:00"`) {
		t.Errorf("with the agent booking 21:00, %s should fail showing the time; exit %v:\n%s", tests[0], err, out)
	}
	shown := quickStartFailure(t, blocks, goBlocks[0])
	for _, line := range strings.Split(strings.TrimRight(shown.text, "\n"), "\n") {
		if line = strings.TrimRight(line, " "); line != "" && !strings.Contains(out, line) {
			t.Errorf("README.md:%d shows the quick start's failure as\n%s\nbut with the agent booking 21:00 it prints no line %q:\n%s", shown.line, shown.text, line, out)
			break
		}
	}
}

// quickStartFailure is the block that shows the quick start's failure: the
// first untagged block after the quick start's Go block.
func quickStartFailure(t *testing.T, blocks []codeBlock, quickStart codeBlock) codeBlock {
	t.Helper()
	for _, b := range blocks {
		if b.line > quickStart.line && b.info == "" {
			return b
		}
	}
	t.Fatalf("README.md: no block after the quick start (line %d) shows its failure", quickStart.line)
	return codeBlock{}
}

// TestReadmeHarness checks the harness on a README of its own: fragments
// follow the whole-file block, get the imports they use, and keep README
// lines, so that a compile error points into README.md; a block tagged
// otherwise than go is not run.
func TestReadmeHarness(t *testing.T) {
	readme := "# Title\n" + // line 1
		"```go\n" + //        2
		"package demo_test\n" + // 3
		"\n" +
		"import (\n" +
		"\t\"testing\"\n" +
		"\n" +
		"\t. \"github.com/onsi/gomega\"\n" +
		")\n" +
		"\n" +
		"func TestA(t *testing.T) { NewWithT(t).Expect(1).To(Equal(1)) }\n" + // 11
		"```\n" +
		"```go illustrative\n" +
		"func TestNotRun(t *testing.T) { ... }\n" +
		"```\n" +
		"```sh\n" +
		"go test ./...\n" +
		"```\n" +
		"```go\n" + // 19
		"func TestB(t *testing.T) {\n" + // 20
		"\tj := judge.ForTest(t)\n" +
		"\tsample := agenttest.Report{}\n" +
		"\tg := NewWithT(t)\n" +
		"\tg.Expect(j).NotTo(BeNil())\n" +
		"\tg.Expect(sample.Reference).To(BeEmpty())\n" +
		"}\n" +
		"```\n"
	blocks, run := readmeBlocks(t, []byte(readme))
	if len(blocks) != 4 || len(run) != 2 || run[0].line != 3 || run[1].line != 20 {
		t.Fatalf("%d blocks, %d to run, at lines %v", len(blocks), len(run), run)
	}
	src, pkg, tests := readmeFile(t, run)
	if pkg != "demo_test" || !slices.Equal(tests, []string{"TestA", "TestB"}) {
		t.Errorf("package %q, tests %v", pkg, tests)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "readme_test.go", src, 0)
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	var imports []string
	for _, imp := range f.Imports {
		imports = append(imports, imp.Path.Value)
	}
	want := []string{`"github.com/agentcheck/agentcheck/agenttest"`, `"github.com/agentcheck/agentcheck/judge"`, `"testing"`, `"github.com/onsi/gomega"`}
	if !slices.Equal(imports, want) {
		t.Errorf("imports %v, want %v", imports, want)
	}
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		pos := fset.Position(fn.Pos())
		if want := map[string]int{"TestA": 11, "TestB": 20}[fn.Name.Name]; pos.Filename != "README.md" || pos.Line != want {
			t.Errorf("%s is at %s, want README.md:%d", fn.Name.Name, pos, want)
		}
	}
}
