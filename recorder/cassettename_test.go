package recorder

import (
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCassetteFileName(t *testing.T) {
	h := func(domain, name string) string { return hashed(domain, name, "", 0)[2:] } // "_-" then the hash
	tests := map[string]string{
		"TestX":                   "TestX~88.yaml",
		"ExampleOpen":             "ExampleOpen~81.yaml",
		"TestX/case_1":            filepath.Join("TestX~88", "case_1.yaml"),
		"TestX/sub/deeper":        filepath.Join("TestX~88", "sub", "deeper.yaml"),
		"TestX/Foo":               filepath.Join("TestX~88", "Foo~8.yaml"),
		"TestX/foo":               filepath.Join("TestX~88", "foo.yaml"),
		"TestX/a:b*c?<d>|e\\f":    filepath.Join("TestX~88", "a_b_c__d__e_f-"+h("segment", "a:b*c?<d>|e\\f")+".yaml"),
		"TestX/../../etc":         filepath.Join("TestX~88", "_.-"+h("segment", ".."), "_.-"+h("segment", ".."), "etc.yaml"),
		"TestX/.git/x":            filepath.Join("TestX~88", "_git-"+h("segment", ".git"), "x.yaml"),
		"TestX/#01":               filepath.Join("TestX~88", "_01-"+h("segment", "#01")+".yaml"),
		"TestX/con":               filepath.Join("TestX~88", "con-"+h("segment", "con")+".yaml"),
		"TestX/a.yaml/b":          filepath.Join("TestX~88", "a.yaml-"+h("segment", "a.yaml"), "b.yaml"),
		"TestX/trailing.":         filepath.Join("TestX~88", "trailing.-"+h("segment", "trailing.")+".yaml"),
		"TestX/":                  filepath.Join("TestX~88", "_-"+h("segment", "")+".yaml"),
		"TestX/Ünïcode_and.dot":   filepath.Join("TestX~88", "__n__code_and.dot-"+h("segment", "Ünïcode_and.dot")+".yaml"),
		"TestTrajectoryRubricCom": "TestTrajectoryRubricCom~880208.yaml",
	}
	for name, want := range tests {
		if got := CassetteFile(name); got != want {
			t.Errorf("CassetteFile(%q) = %q, want %q", name, got, want)
		}
	}
}

// A name crafted to look like another's hashed name gets a hash of its own.
func TestCassetteFileNameCraftedCollision(t *testing.T) {
	for _, victim := range []string{"TestX/café", "TestX/a b", "TestX/.git"} {
		taken := CassetteFile(victim)
		crafted := "TestX/" + strings.TrimSuffix(filepath.Base(taken), ".yaml")
		if got := CassetteFile(crafted); strings.EqualFold(got, taken) {
			t.Errorf("the crafted name %q shares %s with %q", crafted, got, victim)
		}
	}
	long := "TestX" + strings.Repeat("/level", 80)
	taken := CassetteFile(long)
	crafted := strings.TrimSuffix(filepath.ToSlash(taken), ".yaml")
	if got := CassetteFile(crafted); strings.EqualFold(got, taken) {
		t.Errorf("the crafted name %q shares %s with the long name", crafted, got)
	}
}

// checkCassetteNames fails t if two distinct names share a cassette path
// with case folded, if a path is one of another's directories, or if a path
// breaks a file system's bounds or leaves its directory.
func checkCassetteNames(t *testing.T, names []string) {
	t.Helper()
	files := map[string]string{}
	dirs := map[string]string{}
	for _, n := range names {
		p := CassetteFile(n)
		if !filepath.IsLocal(p) || len(p) > maxPath {
			t.Errorf("CassetteFile(%q) = %q: not a local path within %d bytes", n, p, maxPath)
		}
		segs := strings.Split(p, string(filepath.Separator))
		for i, s := range segs {
			if s == "" || s[0] == '.' || len(s) > maxSegment+len(".yaml") || !utf8.ValidString(s) || strings.ContainsAny(s, "/\\:*?\"<>| ") {
				t.Errorf("CassetteFile(%q) = %q: segment %q is hidden, empty, too long or not portable", n, p, s)
			}
			if i < len(segs)-1 {
				dirs[strings.ToLower(filepath.Join(segs[:i+1]...))] = n
			}
		}
		key := strings.ToLower(p)
		if other, dup := files[key]; dup && other != n {
			t.Errorf("%q and %q share the cassette %s (case folded)", n, other, p)
		}
		files[key] = n
	}
	for f, n := range files {
		if other, ok := dirs[f]; ok {
			t.Errorf("the cassette of %q, %s, is a directory of %q's", n, f, other)
		}
	}
}

// Distinct names never share a cassette, whatever they hold: generated
// names from an alphabet of case pairs, separators, dots, hash-like runs and
// other characters, nested up to 60 levels.
func TestCassetteFileNamesNeverCollide(t *testing.T) {
	t.Parallel() // slow: it overlaps the package's other slow tests
	rng := rand.New(rand.NewPCG(17, 4))
	parts := []string{"a", "A", "b", "B", "foo", "Foo", "FOO", ".", "..", "_", "-", " ", "#01", "é", "e\u0301",
		".git", "con", "Con", ".yaml", "~8", "0123456789abcdef0123456789abcdef", "-0123456789abcdef0123456789abcdef", "\x00", "\n", "/"}
	seen := map[string]bool{}
	var names []string
	for len(names) < 20000 {
		var b strings.Builder
		b.WriteString([]string{"TestX", "testx", "TESTX", "TestX/sub"}[rng.IntN(4)])
		for range rng.IntN(8) {
			if rng.IntN(3) == 0 {
				b.WriteByte('/')
			}
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		if rng.IntN(50) == 0 {
			b.WriteString(strings.Repeat("/"+parts[rng.IntN(len(parts))]+"long name", 5+rng.IntN(60)))
		}
		if n := b.String(); !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	checkCassetteNames(t, names)
}

// 40 nested subtests, or a very long name, get a path within the bounds.
func TestCassetteFileNameLongPaths(t *testing.T) {
	var names []string
	for _, n := range []string{
		"TestX" + strings.Repeat("/nested_subtest", 40),
		"TestX" + strings.Repeat("/nested_subtest", 41),
		"TestX" + strings.Repeat("/nested_subtest", 40) + "/other",
		"TestX/" + strings.Repeat("long name ", 400),
		"TestX/" + strings.Repeat("x", 300),
		"TestX/" + strings.Repeat("X", 300),
	} {
		names = append(names, n)
		if p := CassetteFile(n); len(p) > maxPath {
			t.Errorf("CassetteFile(%q) is %d bytes long", n, len(p))
		}
	}
	checkCassetteNames(t, names)
	// The path keeps the test's first levels, so that its cassette stays
	// near its siblings'.
	if p := CassetteFile(names[0]); !strings.HasPrefix(p, filepath.Join("TestX~88", "nested_subtest", "nested_subtest")) {
		t.Errorf("CassetteFile of 40 levels = %s, want it under TestX~88/nested_subtest/nested_subtest", p)
	}
}

func FuzzCassetteFileName(f *testing.F) {
	f.Add("TestX/Foo", "TestX/foo")
	f.Add("TestX/café", "TestX/caf_-"+strings.Repeat("0", hashLen))
	f.Add("TestX/.git", "TestX/_git")
	f.Add("TestX"+strings.Repeat("/a", 200), "TestX"+strings.Repeat("/a", 201))
	f.Fuzz(func(t *testing.T, a, b string) {
		if a == b {
			return
		}
		checkCassetteNames(t, []string{a, b})
	})
}
