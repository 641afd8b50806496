// Package cassettes holds the go-vcr cassettes that agentcheck's runnable
// examples, its README and the agentcheck eval demo replay: the judge's
// answers to their questions, recorded once by the program in
// cassettes/record and replayed offline, without a key, ever after. It
// embeds them, so that the agentcheck command replays its demo with no file
// around; tests and examples open them by path, as any cassette. They were
// recorded against the scripted judgetest server, not a real model (see
// README.md to re-record them against one).
package cassettes

import (
	"embed"
	"io/fs"
)

//go:embed *.yaml
var files embed.FS

// FS returns the cassettes by file name, such as "demo.yaml".
func FS() fs.FS { return files }
