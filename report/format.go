package report

import "fmt"

// Format is how a Run is written. Its text form is its name ("table",
// "jsonl", "json", "junit", "markdown", "html"), which flag.TextVar reads.
type Format uint8

// The formats. Table is an aligned table with a mean per metric; JSONL a
// JSON object per case (each metric's score under its name, its id and
// reasons beside them); JSON {"samples": [the same objects], "summary":
// {...}, "run": {...}}, which ReadJSON reads back; JUnit a JUnit XML test
// report; Markdown a GitHub step summary; HTML one self-contained page.
const (
	Table Format = iota
	JSONL
	JSON
	JUnit
	Markdown
	HTML
)

var formatNames = [...]string{Table: "table", JSONL: "jsonl", JSON: "json", JUnit: "junit", Markdown: "markdown", HTML: "html"}

// String is the format's name.
func (f Format) String() string {
	if int(f) < len(formatNames) {
		return formatNames[f]
	}
	return fmt.Sprintf("Format(%d)", uint8(f))
}

// MarshalText writes the format's name.
func (f Format) MarshalText() ([]byte, error) {
	if int(f) >= len(formatNames) {
		return nil, fmt.Errorf("unknown format %d", uint8(f))
	}
	return []byte(formatNames[f]), nil
}

// UnmarshalText reads a format's name.
func (f *Format) UnmarshalText(text []byte) error {
	for i, n := range formatNames {
		if string(text) == n {
			*f = Format(i)
			return nil
		}
	}
	return fmt.Errorf("unknown format %q (want table, jsonl, json, junit, markdown or html)", text)
}
