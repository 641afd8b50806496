package fuzzy

// alphabet numbers the distinct code points of a text 0, 1, 2, … in order
// of first appearance, for the bit-vector Levenshtein and Jaro's queues:
// ASCII by a table, the rest by a map made only when a text has some.
type alphabet struct {
	ascii [128]int32
	other map[rune]int32
	n     int32 // how many are numbered
}

// newAlphabet numbers the code points of text.
func newAlphabet(text []rune) *alphabet {
	a := &alphabet{}
	for i := range a.ascii {
		a.ascii[i] = -1
	}
	for _, r := range text {
		if a.index(r) >= 0 {
			continue
		}
		if r >= 0 && r < 128 {
			a.ascii[r] = a.n
		} else {
			if a.other == nil {
				a.other = make(map[rune]int32)
			}
			a.other[r] = a.n
		}
		a.n++
	}
	return a
}

// index is r's number, -1 for a code point the text lacks.
func (a *alphabet) index(r rune) int32 {
	if r >= 0 && r < 128 {
		return a.ascii[r]
	}
	if k, ok := a.other[r]; ok {
		return k
	}
	return -1
}
