// Package filemode gives the permissions a file written whole in place of
// another (a temporary file renamed over it) takes: the old file's, so that
// a cassette or baseline its owner made private stays private, or 0644 for
// a new file, as os.Create makes one to be committed.
package filemode

import "os"

// Of is the permission bits of the file at path, or 0644 when there is none
// (or it cannot be read; the write then says why).
func Of(path string) os.FileMode {
	if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() {
		return fi.Mode().Perm()
	}
	return 0o644
}
