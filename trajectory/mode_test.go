package trajectory_test

import (
	"flag"
	"io"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck/trajectory"
)

// TestModeText: every mode and argument mode round-trips through its text
// form, the names are the CLI's, and flag.TextVar parses them.
func TestModeText(t *testing.T) {
	want := map[trajectory.Mode]string{trajectory.Strict: "strict", trajectory.InOrder: "in_order", trajectory.Unordered: "unordered", trajectory.Subset: "subset", trajectory.Superset: "superset"}
	for m, name := range want {
		text, err := m.MarshalText()
		if err != nil || string(text) != name || m.String() != name {
			t.Errorf("Expected %d to marshal as %q, but it gives %q, %v (String %q)", m, name, text, err, m.String())
		}
		var got trajectory.Mode
		if err := got.UnmarshalText([]byte(name)); err != nil || got != m {
			t.Errorf("Expected %q to unmarshal to %v, but it gives %v, %v", name, m, got, err)
		}
	}
	for _, m := range []trajectory.ArgsMode{trajectory.ArgsExact, trajectory.ArgsIgnore, trajectory.ArgsSubset, trajectory.ArgsSuperset} {
		text, err := m.MarshalText()
		var got trajectory.ArgsMode
		if err != nil || got.UnmarshalText(text) != nil || got != m {
			t.Errorf("Expected %v to round-trip through %q, but it gives %v (%v)", m, text, got, err)
		}
	}
	if s := trajectory.Mode(9).String(); s != "Mode(9)" {
		t.Errorf("Expected an unknown mode to print as Mode(9), but it prints %q", s)
	}
	if _, err := trajectory.ArgsMode(7).MarshalText(); err == nil {
		t.Errorf("Expected ArgsMode(7) not to marshal, but it does")
	}
	if s := trajectory.ScorePartialArgs.String(); s != "partial_args" {
		t.Errorf("Expected ScorePartialArgs to print as partial_args, but it prints %q", s)
	}
	m := trajectory.Superset
	errMode := m.UnmarshalText([]byte("sorted"))
	if m != trajectory.Superset {
		t.Errorf("Expected a failed UnmarshalText to leave the mode alone, but it is %v", m)
	}
	var a trajectory.ArgsMode
	errArgs := a.UnmarshalText([]byte("Exact"))
	for err, wants := range map[error][]string{errMode: {`"sorted"`, "strict", "in_order", "unordered", "subset", "superset"}, errArgs: {`"Exact"`, "exact", "ignore", "subset", "superset"}} {
		if err == nil {
			t.Errorf("Expected parsing %s to fail, but it did not", wants[0])
			continue
		}
		for _, want := range wants {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("Expected error %q to mention %s, but it does not", err, want)
			}
		}
	}

	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var mode trajectory.Mode
	var args trajectory.ArgsMode
	fs.TextVar(&mode, "trajectory-mode", trajectory.Strict, "")
	fs.TextVar(&args, "args-mode", trajectory.ArgsExact, "")
	if err := fs.Parse([]string{"--trajectory-mode", "in_order", "--args-mode", "superset"}); err != nil || mode != trajectory.InOrder || args != trajectory.ArgsSuperset {
		t.Errorf("Expected the flags to parse in_order and superset, but they give %v, %v (%v)", mode, args, err)
	}
	if err := fs.Parse([]string{"--trajectory-mode", "loose"}); err == nil || !strings.Contains(err.Error(), `"loose"`) {
		t.Errorf("Expected --trajectory-mode loose to fail naming the value, but it gives %v", err)
	}
}
