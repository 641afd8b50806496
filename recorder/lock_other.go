//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package recorder

// lockDir is a no-op where flock is unavailable: saving stays atomic, but two
// processes recording the same cassette at once may lose one's additions.
func lockDir(string) (unlock func(), err error) {
	return func() {}, nil
}
