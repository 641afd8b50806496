package metric

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// simTable holds Python's scores (the spec's definitions run by python3,
// 1 - normalized distance computed literally) for the spec's own checks,
// empty texts, code points beyond ASCII and the BMP, lone surrogates and
// texts longer than 64 code points.
var simTable = []struct {
	ref, resp                            string
	levenshtein, hamming, jaro, jaroWink float64
}{
	{"MARTHA", "MARHTA", 0.6666666666666667, 0.6666666666666667, 0.9444444444444445, 0.9611111111111111},
	{"DIXON", "DICKSONX", 0.5, 0.25, 0.7666666666666666, 0.8133333333333332},
	{"python", "pyhton", 0.6666666666666667, 0.6666666666666667, 0.9444444444444445, 0.9555555555555556},
	{"", "", 1.0, 1.0, 1.0, 1.0},
	{"", "a", 0.0, 0.0, 0.0, 0.0},
	{"a", "", 0.0, 0.0, 0.0, 0.0},
	{"a", "a", 1.0, 1.0, 1.0, 1.0},
	{"a", "b", 0.0, 0.0, 0.0, 0.0},
	{"ab", "ba", 0.0, 0.0, 0.0, 0.0},
	{"CRATE", "TRACE", 0.6, 0.6, 0.7333333333333334, 0.7333333333333334},
	{"DwAyNE", "DuANE", 0.6666666666666667, 0.33333333333333337, 0.8222222222222223, 0.8400000000000001},
	{"JELLYFISH", "SMELLYFISH", 0.8, 0.09999999999999998, 0.8962962962962964, 0.8962962962962964},
	{"é中😀", "é中😁", 0.6666666666666667, 0.6666666666666667, 0.7777777777777777, 0.8222222222222222},
	{"\xed\xa0\x80x", "\xed\xa0\x80y", 0.5, 0.5, 0.6666666666666666, 0.6666666666666666},
	{"😀😀😀", "😀", 0.33333333333333337, 0.33333333333333337, 0.7777777777777777, 0.7999999999999999},
	{"abc", "abcd", 0.75, 0.75, 0.9166666666666666, 0.9416666666666667},
	{"abcd", "abc", 0.75, 0.75, 0.9166666666666666, 0.9416666666666667},
	{"kitten", "sitting", 0.5714285714285714, 0.5714285714285714, 0.746031746031746, 0.746031746031746},
	{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab", 0.99, 0.99, 0.9933333333333333, 0.996},
	{"abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghij", "bcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghija", 0.98, 0.0, 0.8333333333333334, 0.8333333333333334},
	{"xabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghij", "abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijx", 0.971830985915493, 0.0, 0.9906103286384976, 0.9906103286384976},
	{"The quick brown fox jumps over the lazy dog. The quick brown fox jumps over the lazy dog. ", "The quick brown fox jumped over the lazy dogs. The quick brown fox jumped over the lazy dogs. ", 0.9361702127659575, 0.25531914893617025, 0.878408195429472, 0.9270449172576832},
	{"1e-05", "0.00001", 0.1428571428571429, 0.1428571428571429, 0.4476190476190476, 0.4476190476190476},
	{"{'a': 1}", "{'a': 2}", 0.875, 0.875, 0.9166666666666666, 0.95},
}

func TestStringSimilarityTable(t *testing.T) {
	for _, tt := range simTable {
		for _, c := range []struct {
			s    StringSimilarity
			want float64
		}{{Levenshtein, tt.levenshtein}, {Hamming, tt.hamming}, {Jaro, tt.jaro}, {JaroWinkler, tt.jaroWink}} {
			if got := c.s.Score(tt.ref, tt.resp); math.Float64bits(got) != math.Float64bits(c.want) {
				t.Errorf("%s(%q, %q) = %v, Python gives %v", c.s, tt.ref, tt.resp, got, c.want)
			}
		}
		if got, want := ExactText.Score(tt.ref, tt.resp), b2f(tt.ref == tt.resp); got != want {
			t.Errorf("exact(%q, %q) = %v", tt.ref, tt.resp, got)
		}
	}
}

// TestStringSimilarityProperties: every score is in [0, 1], equal texts
// score exactly 1 (the tool call metrics rely on it to skip equal
// arguments), and Levenshtein and Hamming are symmetric.
func TestStringSimilarityProperties(t *testing.T) {
	t.Parallel() // it overlaps the package's other slow tests
	r := rand.New(rand.NewPCG(9, 10))
	alpha := []string{"a", "b", "c", "é", "中", "😀", "\xed\xa0\x80", " ", "'"}
	text := func() string {
		var b strings.Builder
		for range r.IntN(80) {
			b.WriteString(alpha[r.IntN(len(alpha))])
		}
		return b.String()
	}
	for range 2000 {
		a, b := text(), text()
		for _, s := range []StringSimilarity{ExactText, Levenshtein, Hamming, Jaro, JaroWinkler} {
			x := s.Score(a, b)
			if !(x >= 0 && x <= 1) {
				t.Fatalf("%s(%q, %q) = %v, outside [0, 1]", s, a, b, x)
			}
			if got := s.Score(a, a); got != 1 {
				t.Fatalf("%s(%q, same) = %v, want exactly 1", s, a, got)
			}
			if (s == Levenshtein || s == Hamming) && s.Score(b, a) != x {
				t.Fatalf("%s is not symmetric on %q, %q", s, a, b)
			}
		}
	}
}

func TestParseStringSimilarity(t *testing.T) {
	for _, s := range []StringSimilarity{ExactText, Levenshtein, Hamming, Jaro, JaroWinkler} {
		got, err := ParseStringSimilarity(s.String())
		if err != nil || got != s {
			t.Errorf("ParseStringSimilarity(%q) = %v, %v", s.String(), got, err)
		}
	}
	_, err := ParseStringSimilarity("jaro-winkler")
	if err == nil || !strings.Contains(err.Error(), `"jaro-winkler"`) || !strings.Contains(err.Error(), "jaro_winkler") {
		t.Errorf("error %v, want one naming the bad name and the good ones", err)
	}
	if got := StringSimilarity(42).String(); got != "StringSimilarity(42)" {
		t.Errorf("String() = %q", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("Score with an unknown similarity did not panic")
		}
	}()
	StringSimilarity(42).Score("a", "b")
}

func BenchmarkLevenshtein(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Levenshtein.Score("{'stars': 4, 'area': ['center', 'north']}", "{'stars': 4, 'area': ['centre', 'south']}")
	}
}

func BenchmarkJaroWinkler(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		JaroWinkler.Score("ada@example.com", "ada@example.org")
	}
}
