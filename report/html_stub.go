package report

import (
	"errors"
	"io"
)

// writeHTML renders r as one self-contained HTML page. This stand-in is
// replaced by the HTML report (report/html*.go), which deletes this file.
func writeHTML(w io.Writer, r *Run) error {
	return errors.New("html: not built yet")
}
