package shell_test

import (
	"os/exec"
	"testing"

	"github.com/agentcheck/agentcheck/internal/shell"
)

// Whatever a word holds, bash reads its quoted form back as that word, and
// the quoted form holds no byte a terminal would act on.
func FuzzQuote(f *testing.F) {
	for _, s := range []string{"", "plain", "it's", "a b", "tab\there", "\x1b[31mred", "\u202eevil", "new\nline", `back\slash`, "$HOME", "\xff\xfe", "é"} {
		f.Add(s)
	}
	bash, err := exec.LookPath("bash")
	f.Fuzz(func(t *testing.T, s string) {
		q := shell.Quote(s)
		if !shell.Printable(q) {
			t.Fatalf("Quote(%q) = %q holds what a terminal would not show", s, q)
		}
		if err != nil || len(s) == 0 || containsNUL(s) {
			return // bash cannot hold a NUL in a word
		}
		out, err := exec.Command(bash, "-c", "printf %s "+q).Output()
		if err != nil {
			t.Fatalf("bash -c printf %%s %s: %v", q, err)
		}
		if string(out) != s {
			t.Fatalf("bash read Quote(%q) = %s back as %q", s, q, out)
		}
	})
}

func containsNUL(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			return true
		}
	}
	return false
}

func TestJoin(t *testing.T) {
	got := shell.Join([]string{"eval", "--metrics", "goal,topics", "my runs.jsonl", "it's", "ok=1"})
	if want := `eval --metrics goal,topics 'my runs.jsonl' 'it'\''s' ok=1`; got != want {
		t.Errorf("Join = %s, want %s", got, want)
	}
}
