//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package recorder

import (
	"os"
	"syscall"
)

// lockDir takes an exclusive flock on the cassette directory, so that two
// go test processes (packages run in parallel) saving cassettes there merge
// instead of overwriting each other. Locking the directory rather than the
// file survives the rename that replaces the file, and leaves no lock file
// behind in testdata.
func lockDir(dir string) (unlock func(), err error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
