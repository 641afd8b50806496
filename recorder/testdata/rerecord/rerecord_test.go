// Package rerecord holds the tests whose re-record commands recorder's
// TestRerecordCommandRecordsThatTestAlone runs: each asks the stub server
// at $RERECORD_URL once through its own cassette under $RERECORD_DIR and
// writes the command its recorder prints to $RERECORD_DIR/commands.jsonl.
// Go test functions, subtests with every kind of name, and Ginkgo specs
// whose texts end alike share the package, so that a command that picks
// too much records something it should not.
package rerecord

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentcheck/agentcheck/recorder"
	"github.com/onsi/ginkgo/v2"
)

func call(t recorder.T) {
	dir, url := os.Getenv("RERECORD_DIR"), os.Getenv("RERECORD_URL")
	if dir == "" || url == "" {
		return // run by hand: nothing to do
	}
	rec := recorder.ForTest(t, recorder.WithDir(dir))
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatalf("%v", err)
	}
	req.Header.Set("X-Test", t.Name())
	req.Header.Set("X-Dir", dir)
	resp, err := rec.Client().Do(req)
	if err != nil {
		t.Fatalf("%v", err)
	}
	resp.Body.Close()
	line, _ := json.Marshal([2]string{t.Name(), rec.RerecordCommand()})
	f, err := os.OpenFile(filepath.Join(dir, "commands.jsonl"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatalf("%v", err)
	}
	defer f.Close()
	if _, err := f.Write(append(line, '\n')); err != nil {
		t.Fatalf("%v", err)
	}
}

func TestPlain(t *testing.T) {
	call(t)
	t.Run("sub", func(t *testing.T) { call(t) })
}

func TestPlainer(t *testing.T) { call(t) }

func TestOdd(t *testing.T) {
	for _, name := range []string{
		"with space", "a/b", `re.*[x]+(y)|z$^\`, "ünïcödé", "dup", "dup", "it's", "#01",
		"tab\tand\nnewline", "::warning::x", "bell\a\u200bzero-width", "Foo", "foo",
	} {
		t.Run(name, func(t *testing.T) { call(t) })
	}
	t.Run("outer", func(t *testing.T) {
		call(t)
		t.Run("inner", func(t *testing.T) { call(t) })
	})
}

func TestSuite(t *testing.T) {
	ginkgo.RunSpecs(t, "rerecord suite")
}

var _ = ginkgo.Describe("container", func() {
	ginkgo.It("spec", func() { call(ginkgo.GinkgoT()) })
	ginkgo.It("spec's (other) [one]", func() { call(ginkgo.GinkgoT()) })
	ginkgo.It("tab\there", func() { call(ginkgo.GinkgoT()) })
})

var _ = ginkgo.Describe("outer", func() {
	ginkgo.Describe("container", func() {
		ginkgo.It("spec", func() { call(ginkgo.GinkgoT()) })
	})
})

func BenchmarkCall(b *testing.B) {
	call(b)
	for b.Loop() {
	}
}
