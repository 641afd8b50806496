package recorder

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentcheck/agentcheck/internal/shell"
)

// The cassette of a test is a relative path made of its name, one
// directory per subtest level, so that the names a file system holds are
// as close to the test's as it allows. The rules, segment by segment:
//
//   - a name of lowercase letters, digits and . _ - stays as it is
//     ("case_1");
//   - a name that also has capitals gets "~" and a mask of which of its
//     letters are capitals ("TestX~88"), so that Foo and foo stay two files
//     on a file system that ignores case (macOS, Windows);
//   - any other name (other characters, a leading or trailing ".", ".git",
//     "..", a name ending in .yaml, a Windows device name such as "con", a
//     name that looks like a hashed one, a name too long) becomes its
//     characters outside [A-Za-z0-9._-] replaced by "_", cut short, then
//     "-" and 32 hex digits of a SHA-256 of the name;
//   - a path longer than maxPath keeps its first directories and puts the
//     rest in one hashed file name, of the whole test name.
//
// So distinct names never share a file or one another's directory, even
// with case folded; no segment is hidden or climbs out of the directory.
const (
	// maxSegment bounds a cassette file or directory name before ".yaml"
	// (file systems allow 255 bytes; the temporary file's affixes need
	// some).
	maxSegment = 120
	// maxPath bounds the cassette's path relative to its directory.
	maxPath = 400
	// hashLen is the hex digits of a hashed name: 128 bits, so that no one
	// finds two names that share one.
	hashLen = 32
	// hashedLeaf bounds the readable part of the file name of a path cut
	// short.
	hashedLeaf = 40
)

// CassetteFile is the file [ForTest] keeps the cassette of the test named
// test in, relative to its directory ([DefaultDir] or [WithDir]'s): one
// directory per subtest level, a name of lowercase letters, digits and
// . _ - as it is, a name with capitals followed by "~" and a mask of them
// ("TestBooking~88.yaml"), so that Foo and foo are two files even where
// case is ignored, any other name made portable and followed by a hash, a
// path too long cut short with a hash. Distinct test names never share a
// file, case folded, and no name is hidden or climbs out of the directory.
func CassetteFile(test string) string {
	names := strings.Split(test, "/")
	segs := make([]string, len(names))
	size := len(".yaml") - 1
	for i, name := range names {
		segs[i] = segment(name)
		size += len(segs[i]) + 1
	}
	if size <= maxPath {
		return filepath.Join(segs...) + ".yaml"
	}
	// Too long: keep the directories that fit with a hashed leaf.
	leaf := hashedLeaf + 1 + hashLen + len(".yaml")
	keep, used := 0, 0
	for keep < len(segs)-1 && used+len(segs[keep])+1+leaf <= maxPath {
		used += len(segs[keep]) + 1
		keep++
	}
	rest := strings.Join(names[keep:], "/")
	segs = append(segs[:keep], hashed("path", test, rest, hashedLeaf))
	return filepath.Join(segs...) + ".yaml"
}

// segment is the file or directory name of one level of a test name.
func segment(name string) string {
	if !plain(name) {
		return hashed("segment", name, name, maxSegment-1-hashLen)
	}
	mask := caseMask(name)
	if mask == "" {
		return name
	}
	if len(name)+1+len(mask) > maxSegment {
		return hashed("segment", name, name, maxSegment-1-hashLen)
	}
	return name + "~" + mask
}

// plain reports whether a name may stand in a path as it is (perhaps with
// a case mask): only [A-Za-z0-9._-], not hidden, "." or "..", not ending in
// "." (which Windows drops), not a Windows device name, not ending in
// ".yaml" (a cassette's directory never looks like a cassette), not shaped
// like a hashed name, not too long.
func plain(name string) bool {
	if name == "" || len(name) > maxSegment || name[0] == '.' || name[len(name)-1] == '.' {
		return false
	}
	for i := 0; i < len(name); i++ {
		if !plainByte(name[i]) {
			return false
		}
	}
	lower := strings.ToLower(name)
	if strings.HasSuffix(lower, ".yaml") || looksHashed(lower) {
		return false
	}
	device, _, _ := strings.Cut(lower, ".")
	switch device {
	case "con", "prn", "aux", "nul":
		return false
	}
	if len(device) == 4 && (device[:3] == "com" || device[:3] == "lpt") && device[3] >= '0' && device[3] <= '9' {
		return false
	}
	return true
}

func plainByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_'
}

// looksHashed reports whether a lowercased name ends as a hashed one does:
// "-" and hashLen hex digits.
func looksHashed(lower string) bool {
	i := len(lower) - hashLen - 1
	if i < 0 || lower[i] != '-' {
		return false
	}
	for _, c := range []byte(lower[i+1:]) {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// caseMask says which letters of name are capitals, 4 letters to a hex
// digit (the first letter is the digit's high bit), trailing zero digits
// dropped; "" when it has none.
func caseMask(name string) string {
	var mask []byte
	digit, n := byte(0), 0
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			continue
		}
		digit <<= 1
		if c <= 'Z' {
			digit |= 1
		}
		if n++; n == 4 {
			mask = append(mask, "0123456789abcdef"[digit])
			digit, n = 0, 0
		}
	}
	if n > 0 {
		mask = append(mask, "0123456789abcdef"[digit<<(4-n)])
	}
	return strings.TrimRight(string(mask), "0")
}

// hashed is the readable part of shown, up to limit bytes, then "-" and a
// hash of name in its domain ("segment" or "path"). The readable part is
// shown with its characters outside [A-Za-z0-9._-] and its leading dots
// replaced by "_".
func hashed(domain, name, shown string, limit int) string {
	b := make([]byte, 0, limit+1+hashLen)
	for i := 0; i < len(shown) && len(b) < limit; i++ {
		c := shown[i]
		if !plainByte(c) || c == '.' && len(b) == 0 {
			c = '_'
		}
		b = append(b, c)
	}
	if len(b) == 0 {
		b = append(b, '_')
	}
	sum := sha256.Sum256([]byte(domain + "\x00" + name))
	b = append(b, '-')
	return string(hex.AppendEncode(b, sum[:hashLen/2]))
}

// oldCassette is the test's cassette file under the naming rule before
// CassetteFile (a name kept letter for letter, whatever its case; other
// characters as "_" with 8 hex digits of a hash), when that file exists and
// the one at path does not: a cassette recorded by an earlier agentcheck,
// which a miss tells how to rename. "" otherwise.
func oldCassette(dir, test, path string) string {
	segs := strings.Split(test, "/")
	for i, name := range segs {
		s := strings.Map(func(c rune) rune {
			if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_' {
				return c
			}
			return '_'
		}, name)
		if s == "" || strings.Trim(s, ".") == "" {
			s = strings.Repeat("_", max(len(s), 1))
		}
		if s != name || len(s) > maxSegment {
			sum := sha256.Sum256([]byte(name))
			s = s[:min(len(s), maxSegment-9)] + "-" + hex.EncodeToString(sum[:4])
		}
		segs[i] = s
	}
	old := filepath.Join(dir, filepath.Join(segs...)+".yaml")
	if old == path {
		return ""
	}
	if _, err := os.Stat(old); err != nil {
		return ""
	}
	return old
}

// renameCommand is the shell command that moves the cassette at old to new.
func renameCommand(old, new string) string {
	return "mkdir -p " + shell.Quote(filepath.Dir(new)) + " && mv " + shell.Quote(old) + " " + shell.Quote(new)
}
