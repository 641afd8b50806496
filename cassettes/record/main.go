// Command record re-records the cassettes in the cassettes directory: the
// judgments of the agentcheck eval demo (cassettes/demo.yaml) and those of
// the root package's runnable examples (cassettes/<name>.yaml), through
// agentcheck's own record path (AGENTCHECK_RECORD=all). By default the judge
// is judgetest's scripted server on loopback, answering from the script in
// script.go; with -live it is the real endpoint that OPENAI_BASE_URL,
// OPENAI_API_KEY and AGENTCHECK_JUDGE_MODEL name. Afterwards it replays both
// offline to check that the new cassettes answer everything. Run it from
// anywhere in the module:
//
//	go run ./cassettes/record
//	OPENAI_API_KEY=sk-... go run ./cassettes/record -live
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/agentcheck/agentcheck/judge"
	"github.com/agentcheck/agentcheck/judge/judgetest"
	"github.com/agentcheck/agentcheck/recorder"
)

// scriptedModel is the model named in requests to the scripted server: the
// judge's default, so that examples replay with no setting at all.
const scriptedModel = judge.DefaultModel

// scriptedKey is sent to the scripted server so that every recording shows
// the recorder keeping a key out of the cassette; it opens nothing.
const scriptedKey = "sk-agentcheck-scripted-not-a-key-0000"

func main() {
	live := flag.Bool("live", false, "record against the real endpoint of OPENAI_BASE_URL, OPENAI_API_KEY and AGENTCHECK_JUDGE_MODEL instead of the scripted server")
	flag.Parse()
	if err := record(*live); err != nil {
		fmt.Fprintln(os.Stderr, "record:", err)
		os.Exit(1)
	}
}

func record(live bool) error {
	if ci, _ := strconv.ParseBool(os.Getenv("CI")); ci {
		return errors.New("refused with CI=true: cassettes are recorded on a developer machine and committed; CI only replays them")
	}
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	env := without(os.Environ(), recorder.RecordEnv)
	if live {
		if os.Getenv(judge.EnvAPIKey) == "" && os.Getenv(judge.EnvBaseURL) == "" {
			return fmt.Errorf("-live needs %s (and %s for an endpoint other than OpenAI's)", judge.EnvAPIKey, judge.EnvBaseURL)
		}
		fmt.Printf("recording against %s, model %s\n", orDefault(os.Getenv(judge.EnvBaseURL), judge.DefaultBaseURL), orDefault(os.Getenv(judge.EnvModel), judge.DefaultModel))
	} else {
		srv := judgetest.NewServer(demoScript())
		defer srv.Close()
		env = append(without(env, judge.EnvBaseURL, judge.EnvAPIKey, judge.EnvModel),
			judge.EnvBaseURL+"="+srv.URL, judge.EnvAPIKey+"="+scriptedKey, judge.EnvModel+"="+scriptedModel)
		fmt.Printf("recording against the scripted judge at %s, model %s\n", srv.URL, scriptedModel)
	}
	recording := append(env, recorder.RecordEnv+"=all")

	// The demo through the command itself, into a file: the copy built into
	// agentcheck can only be replayed.
	demo := []string{"run", "./cmd/agentcheck", "eval", "--format", "jsonl", "--cassette", filepath.Join("cassettes", "demo.yaml")}
	if err := goCmd(root, recording, demo...); err != nil {
		return fmt.Errorf("recording the demo: %w", err)
	}
	// The examples record the cassettes they open under cassettes/. None
	// may be judged yet: they then just run.
	examples := []string{"test", "-run", "^Example", "-count=1", "."}
	if err := goCmd(root, recording, examples...); err != nil {
		return fmt.Errorf("recording the examples: %w", err)
	}

	// Replay both, offline and without a key: what users and CI will do.
	replay := without(env, judge.EnvAPIKey)
	if !live {
		replay = append(without(replay, judge.EnvBaseURL), judge.EnvBaseURL+"=http://127.0.0.1:9/v1") // nothing listens there
	}
	fmt.Println("replaying offline:")
	if err := goCmd(root, replay, "run", "./cmd/agentcheck", "eval"); err != nil {
		return fmt.Errorf("replaying the demo from the cassette built into agentcheck: %w", err)
	}
	if err := goCmd(root, replay, examples...); err != nil {
		return fmt.Errorf("replaying the examples: %w", err)
	}
	return nil
}

func goCmd(dir string, env []string, args ...string) error {
	fmt.Printf("$ go %s\n", strings.Join(args, " "))
	cmd := exec.Command("go", args...)
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	return cmd.Run()
}

// moduleRoot is the agentcheck module's directory, found from the working
// directory up.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if mod, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && bytes.HasPrefix(mod, []byte("module github.com/agentcheck/agentcheck\n")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("run it inside the agentcheck module")
		}
		dir = parent
	}
}

// without returns env without the variables named.
func without(env []string, names ...string) []string {
	var out []string
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		keep := true
		for _, n := range names {
			if name == n {
				keep = false
			}
		}
		if keep {
			out = append(out, kv)
		}
	}
	return out
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
