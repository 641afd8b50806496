// Command modproxy writes a file-based Go module proxy (GOPROXY=file://DIR)
// that serves every module of this repository at one release version, built
// from the working tree as the Go module proxy would build it from the tags:
// the files git tracks or would track (ignored ones left out), nested modules
// left out of their parent, zipped by golang.org/x/mod/zip. Before that it
// checks what a release needs from each go.mod: no replace directive, and
// every module of the repository that one requires, required at a release
// version, not a pseudo-version. .ci/install-check uses it to prove that the
// modules install with go get and go install alone.
//
//	go run ./.ci/modproxy -version v0.1.0 -out /tmp/proxy
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
	"golang.org/x/mod/zip"
)

func main() {
	version := flag.String("version", "", "the release version every module is served at, such as v0.1.0")
	out := flag.String("out", "", "the proxy directory to write")
	flag.Parse()
	if err := run(*version, *out); err != nil {
		fmt.Fprintln(os.Stderr, "modproxy:", err)
		os.Exit(1)
	}
}

type mod struct {
	dir, path string
	gomod     []byte
}

func run(version, out string) error {
	if !semver.IsValid(version) || semver.Prerelease(version) != "" || semver.Build(version) != "" {
		return fmt.Errorf("-version %q: want a release version such as v0.1.0", version)
	}
	if out == "" {
		return errors.New("-out: the proxy directory is required")
	}
	files, err := gitFiles()
	if err != nil {
		return err
	}
	var mods []mod
	for _, f := range files {
		if path.Base(f) != "go.mod" {
			continue
		}
		data, err := os.ReadFile(filepath.FromSlash(f))
		if err != nil {
			return err
		}
		mf, err := modfile.ParseLax(f, data, nil)
		if err != nil {
			return err
		}
		if mf.Module == nil {
			return fmt.Errorf("%s: no module line", f)
		}
		mods = append(mods, mod{dir: path.Dir(f), path: mf.Module.Mod.Path, gomod: data})
	}
	if err := checkRequirements(mods, files); err != nil {
		return err
	}
	for _, m := range mods {
		if err := publish(m, version, files, out); err != nil {
			return fmt.Errorf("%s: %w", m.path, err)
		}
		fmt.Printf("modproxy: %s@%s from %s/\n", m.path, version, m.dir)
	}
	return nil
}

// checkRequirements refuses a go.mod a consumer could not build with: one
// with a replace directive (a consumer's build ignores it), or one that
// requires a module of the repository at a pseudo-version (no tag has it).
func checkRequirements(mods []mod, files []string) error {
	ours := map[string]bool{}
	for _, m := range mods {
		ours[m.path] = true
	}
	var problems []string
	for _, m := range mods {
		name := path.Join(m.dir, "go.mod")
		mf, err := modfile.Parse(name, m.gomod, nil)
		if err != nil {
			return err
		}
		for _, r := range mf.Replace {
			problems = append(problems, fmt.Sprintf("%s:%d: replace %s: a consumer's build ignores replace directives; go.work ties the modules together for local development",
				name, r.Syntax.Start.Line, r.Old.Path))
		}
		for _, r := range mf.Require {
			if ours[r.Mod.Path] && (module.IsPseudoVersion(r.Mod.Version) || semver.Prerelease(r.Mod.Version) != "") {
				problems = append(problems, fmt.Sprintf("%s:%d: requires %s at %s, which no release has; require a tagged version (see RELEASING.md)",
					name, r.Syntax.Start.Line, r.Mod.Path, r.Mod.Version))
			}
		}
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "\n"))
	}
	return nil
}

// publish writes m's list, .info, .mod and .zip files into the proxy.
func publish(m mod, version string, files []string, out string) error {
	escaped, err := module.EscapePath(m.path)
	if err != nil {
		return err
	}
	dir := filepath.Join(out, filepath.FromSlash(escaped), "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var zipFiles []zip.File
	prefix := m.dir + "/"
	if m.dir == "." {
		prefix = ""
	}
	for _, f := range files {
		rel, ok := strings.CutPrefix(f, prefix)
		if !ok {
			continue
		}
		info, err := os.Lstat(filepath.FromSlash(f))
		if errors.Is(err, os.ErrNotExist) {
			continue // deleted in the working tree
		}
		if err != nil {
			return err
		}
		zipFiles = append(zipFiles, file{rel: rel, path: filepath.FromSlash(f), info: info})
	}
	var z bytes.Buffer
	if err := zip.Create(&z, module.Version{Path: m.path, Version: version}, zipFiles); err != nil {
		return err
	}
	info, err := json.Marshal(map[string]any{"Version": version, "Time": time.Now().UTC().Format(time.RFC3339)})
	if err != nil {
		return err
	}
	for name, data := range map[string][]byte{
		"list":            []byte(version + "\n"),
		version + ".info": info,
		version + ".mod":  m.gomod,
		version + ".zip":  z.Bytes(),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// gitFiles lists the working tree's files as git sees them: tracked ones
// and untracked ones not ignored, slash-separated, from the repository's
// root.
func gitFiles() ([]string, error) {
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git ls-files: %v: %s", err, stderr.String())
	}
	var files []string
	for f := range strings.SplitSeq(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		if f != "" {
			files = append(files, f)
		}
	}
	return files, nil
}

// file is a working-tree file for zip.Create.
type file struct {
	rel, path string
	info      os.FileInfo
}

func (f file) Path() string                 { return f.rel }
func (f file) Lstat() (os.FileInfo, error)  { return f.info, nil }
func (f file) Open() (io.ReadCloser, error) { return os.Open(f.path) }
