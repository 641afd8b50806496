package main

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck/judge/judgetest"
	"github.com/google/go-cmp/cmp"
)

// The README's "Calibrating the judge" example: a small hand-labelled
// dataset (illustrative) in example/calibrate, whose judgments replay from
// the cassette beside it. The test runs the README's command offline and
// compares its output with the README's. To record the cassette again,
// against judgetest's scripted judge below:
//
//	go test ./cmd/agentcheck -run '^TestReadmeCalibrationExample$' -record-calibrate-example
var recordCalibrateExample = flag.Bool("record-calibrate-example", false, "record example/calibrate's cassette against judgetest's scripted judge")

const (
	calibrateExampleDir = "example/calibrate"
	// calibrateExampleCommand is the README's command, run from the
	// repository's root.
	calibrateExampleCommand = "agentcheck calibrate --labels cmd/agentcheck/example/calibrate/labels.jsonl cmd/agentcheck/example/calibrate/runs.jsonl"
)

// exampleJudgments are what the scripted judge finds of each run: the end
// state it infers and whether that achieves the desired outcome, with its
// reason. It is what a literal-minded judge says: it believes the agent's
// last message over a failed tool call (book-5), holds a fallback time the
// guest allowed against the reference (book-4), and misses the window
// seat (book-10).
var exampleJudgments = []struct {
	word, end string
	achieved  bool
	reason    string
}{
	{"Luigi's tonight", "A table for 2 at Luigi's is booked for 8pm tonight (LU-311).", true, "The booking at Luigi's for 2 at 8pm matches the desired outcome."},
	{"Sakura at 7pm", "A table for 4 at Sakura is booked for 7:30pm (SK-20).", false, "The table is booked for 7:30pm, but the outcome asks for 7pm."},
	{"Cancel my booking", "Booking LU-311 is cancelled.", true, "LU-311 is cancelled, as desired."},
	{"Chez Anna", "A table for 2 at Chez Anna is booked for 8:30pm (CA-7).", false, "The table is booked for 8:30pm, not the 8pm the outcome asks for."},
	{"Pho Saigon", "The agent says a table for 3 at Pho Saigon is booked for 6pm.", true, "The agent confirms the table for 3 at 6pm."},
	{"vegetarian", "Green Leaf, a vegetarian restaurant 200 m from the station, is suggested.", true, "A vegetarian restaurant near the station is suggested."},
	{"Taverna", "A table for 5 at Taverna is booked for 9pm (TV-2).", false, "The table is for 5 people, but 6 were asked for."},
	{"Move my Sakura", "Booking SK-20 now starts at 8pm.", true, "SK-20 is moved to 8pm."},
	{"tomorrow", "A table for 2 at Luigi's is booked for 8pm today (LU-400).", false, "The table is booked for today, not tomorrow."},
	{"window table", "A table for 2 at Mare is booked for 7pm (MA-5).", true, "Mare is booked for 2 at 7pm as asked."},
}

func exampleScript() judgetest.Script {
	find := func(text string) int {
		for i, j := range exampleJudgments {
			if strings.Contains(text, j.word) || strings.Contains(text, j.end) {
				return i
			}
		}
		return -1
	}
	return judgetest.BySchema(map[string]judgetest.Script{
		"agent_goal_infer": func(r judgetest.Request) judgetest.Reply {
			j := exampleJudgments[find(r.Message(1))]
			return judgetest.JSON(map[string]any{"user_goal": "see the conversation", "end_state": j.end})
		},
		"agent_goal_compare": func(r judgetest.Request) judgetest.Reply {
			j := exampleJudgments[find(r.Message(1))]
			return judgetest.JSON(map[string]any{"reason": j.reason, "achieved": j.achieved})
		},
	})
}

// readmeOutputAfter is the body of the first ```text block after the line
// of README.md that holds command.
func readmeOutputAfter(t *testing.T, command string) string {
	t.Helper()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	at := strings.Index(readme, command)
	if at < 0 {
		t.Fatalf("README.md does not show the command %q", command)
	}
	m := regexp.MustCompile("(?s)```text\n(.*?)```").FindStringSubmatch(readme[at:])
	if m == nil {
		t.Fatalf("README.md shows no output after %q", command)
	}
	return m[1]
}

// TestReadmeCalibrationExample runs the README's calibrate example offline
// from its committed cassette and checks that the README shows its output.
func TestReadmeCalibrationExample(t *testing.T) {
	runs := filepath.Join(calibrateExampleDir, "runs.jsonl")
	labels := filepath.Join(calibrateExampleDir, "labels.jsonl")
	if *recordCalibrateExample {
		srv := judgetest.NewServer(exampleScript())
		defer srv.Close()
		judgeEnv(t, srv.URL, "", "all")
		t.Setenv("AGENTCHECK_JUDGE_MODEL", "gpt-4o-mini")
		if _, stderr, code := runAgentcheck(t, "", "eval", "--metrics", "agent_goal_accuracy", runs); code != 0 {
			t.Fatalf("recording: exit %d: %s", code, stderr)
		}
	}
	judgeEnv(t, offlineURL, "", "")
	out, stderr, code := runAgentcheck(t, "", "calibrate", "--labels", labels, runs)
	if code != 0 {
		t.Fatalf("Expected the README's example to replay offline (exit 0), but exit %d: %s", code, stderr)
	}
	if diff := cmp.Diff(readmeOutputAfter(t, calibrateExampleCommand), out); diff != "" {
		t.Errorf("README.md's calibrate output differs from the command's (-README +command):\n%s", diff)
	}
}
