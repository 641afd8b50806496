package main

import (
	"flag"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// runFlags are eval's flags that do not decide a sample's scores or
// verdict, so that the shards of one run may differ in them: how the run
// is carried out, what is made of the scores (merge takes the output and
// gate flags itself), where the judge's cassette is.
var runFlags = []string{
	"format", "workers", "shard", "fail-under", "sample-threshold", "save-baseline", "baseline",
	"baseline-tolerance", "calibration", "require-calibration", "judge-concurrency", "cassette",
}

// Every flag eval's usage lists is a flag eval takes, and is either one
// that decides scores (scoreFlags, which merge holds the shards to) or one
// that does not (runFlags), never both: a new flag must be put in one. And
// every flag eval takes is in its usage.
func TestEveryEvalFlagIsClassified(t *testing.T) {
	var listed []string
	for _, m := range regexp.MustCompile(`(?m)^  --([a-z-]+)`).FindAllStringSubmatch(evalUsageText, -1) {
		listed = append(listed, m[1])
	}
	if len(listed) < len(scoreFlags)+len(runFlags) {
		t.Fatalf("the usage lists %d flags: %v", len(listed), listed)
	}
	for _, name := range listed {
		score, run := slices.Contains(scoreFlags, name), slices.Contains(runFlags, name)
		if score == run {
			t.Errorf("--%s is in scoreFlags: %t, in runFlags: %t; want it in exactly one", name, score, run)
		}
		// Given without a value, a flag eval does not take is "not
		// defined"; one it takes wants its value, or takes none (a bool).
		_, _, err := parseEvalFlags([]string{"--" + name})
		if err != nil && strings.Contains(err.Error(), "not defined") {
			t.Errorf("--%s is in the usage, but eval does not take it: %v", name, err)
		}
	}
	for _, name := range slices.Concat(scoreFlags, runFlags) {
		if !slices.Contains(listed, name) {
			t.Errorf("--%s is classified, but not in eval's usage", name)
		}
	}
	// And every flag parseEvalFlags defines is in the usage.
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	if _, _, err := parseEvalFlagsOn(fs, nil); err != nil {
		t.Fatal(err)
	}
	var defined []string
	fs.VisitAll(func(f *flag.Flag) { defined = append(defined, f.Name) })
	if len(defined) < len(listed) {
		t.Fatalf("parseEvalFlags defines %d flags, %v, fewer than the usage lists", len(defined), defined)
	}
	for _, name := range defined {
		if !slices.Contains(listed, name) {
			t.Errorf("--%s is a flag of eval, but not in its usage", name)
		}
	}
}
