package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentcheck/agentcheck/recorder"
	"github.com/agentcheck/agentcheck/secrets"
)

const cassettesUsageText = `Usage: agentcheck cassettes check [flags] [PATH...]

Fails when a go-vcr cassette holds a credential, so that CI can refuse a
recording that leaked one. PATH is a cassette file or a directory, searched
recursively for *.yaml and *.yml: hidden directories such as .cassettes
included, and a subtest's directory named .git, only a repository's own
.git not; symbolic links to directories followed, each directory once.
YAML files there that are no cassettes are skipped.
Without PATH, testdata/cassettes and cassettes, those of them that exist.

Every part of the file is read: request and response headers, URLs, forms
and bodies (compressed bodies decoded: a body in a Content-Encoding the
check cannot read is itself a finding; JSON at any depth, NDJSON, server-sent
events, multipart forms), YAML comments, keys go-vcr does not know and every
YAML document. Found is what the recorder removes when it records:
  - a credential header: Authorization, Proxy-Authorization, Api-Key,
    X-Api-Key, OpenAI-Organization, OpenAI-Project, Cookie, Set-Cookie,
    Ocp-Apim-Subscription-Key, X-RapidAPI-Key, X-Goog-Api-Key, --header, and
    a generated-looking value in a header whose name says key, token, secret,
    auth, cred, signature, session or password (not X-Ratelimit-*-Tokens,
    not X-Signature-Algorithm);
  - a value named as a credential, in a query string, a form, a multipart
    field, a JSON field, an XML element, an INI or .env line: the families
    *_token, *_secret, *_key, *_password, *_signature (hf_token,
    private_token, client_secret, AccountKey, aws_secret_access_key,
    oauth_signature), dsn, connection_string, webhook_url, and --name; not
    their look-alikes (sort_key, page_token, public_key, max_tokens,
    has_password) nor values that are no credential (yes/no words, enums
    such as "include", algorithm names, documented example keys);
  - keys by their format: OpenAI, Anthropic, OpenRouter, Google (AIza,
    ya29., GOCSPX-), Hugging Face hf_, Groq gsk_, xAI xai-, Perplexity pplx-,
    Replicate r8_, GitHub, GitLab glpat-, npm_, PyPI, SendGrid SG.,
    DigitalOcean dop_v1_, AWS key IDs, Slack tokens and webhook URLs,
    Stripe, JWTs, bearer tokens, private keys, and many more; the password
    of a connection string (postgres://user:PASSWORD@host); a key split
    across a stream's events;
  - a request's credential echoed in its interaction: raw, URL-encoded or
    base64;
  - your rules: a value at --json-path that is not "[REDACTED]", a match of
    --pattern, a value of --header or --name, the value of --env. Give the
    recorder the same rules (recorder.WithRedaction) and the check proves
    they applied.
Token counts (max_tokens, X-Ratelimit-Remaining-Tokens), numbers, hashes,
ids and placeholders ("$OPENAI_API_KEY", "[REDACTED]", "[REDACTED-2]") are
no secrets.

Each finding is one line, the secret masked to its first characters:
  FILE:LINE: interaction N: request|response header|body|url|form: WHAT

Flags:
  --header NAME      a header the recorder drops (repeatable)
  --name NAME        a query, form or JSON field name whose values the
                     recorder redacts, at any depth (repeatable)
  --json-path PATH   a JSON body path the recorder redacts, dot-separated
                     keys, indexes or * (messages.*.name; repeatable)
  --pattern REGEX    a Go regular expression the recorder redacts (repeatable)
  --env VAR          an environment variable whose value is a secret
                     (repeatable)
  --rules FILE       rules as JSON: {"headers": [...], "names": [...],
                     "json_paths": [...], "patterns": [...], "env": [...]},
                     added to the flags'

Exit status: 0 when no cassette holds a secret, 1 when one does, 2 for a
usage error or a cassette that cannot be read or parsed (named with its
line; the other cassettes are still checked).

   agentcheck cassettes merge CASSETTE... > MERGED.yaml
combines cassettes recorded by shards or parallel processes into one (see
agentcheck cassettes merge -h).
`

// runCassettes runs "agentcheck cassettes SUBCOMMAND".
func runCassettes(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, cassettesUsageText)
		return exitUsage
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, cassettesUsageText)
		return exitOK
	case "check":
		return runCheck(args[1:], stdout, stderr)
	case "merge":
		return runMerge(args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "agentcheck cassettes: unknown command %q\n\n%s", args[0], cassettesUsageText)
	return exitUsage
}

// defaultCassetteDirs are checked when no PATH is given: where recorder.ForTest
// keeps a package's cassettes, and a module's shared ones.
var defaultCassetteDirs = []string{recorder.DefaultDir, "cassettes"}

func runCheck(args []string, stdout, stderr io.Writer) int {
	usageErr := func(err error) int {
		fmt.Fprintf(stderr, "agentcheck cassettes check: %s\n\nRun \"agentcheck cassettes check -h\" for usage.\n", shownLines(err.Error()))
		return exitUsage
	}
	flags := flag.NewFlagSet("cassettes check", flag.ContinueOnError)
	flags.SetOutput(new(bytes.Buffer))
	flags.Usage = func() {}
	var rules secrets.Rules
	flags.Var((*stringsFlag)(&rules.Headers), "header", "")
	flags.Var((*stringsFlag)(&rules.JSONPaths), "json-path", "")
	flags.Var((*stringsFlag)(&rules.Patterns), "pattern", "")
	flags.Var((*stringsFlag)(&rules.Names), "name", "")
	flags.Var((*stringsFlag)(&rules.Env), "env", "")
	rulesFile := flags.String("rules", "", "")
	if err := flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, cassettesUsageText)
			return exitOK
		}
		return usageErr(err)
	}
	if *rulesFile != "" {
		fromFile, err := secrets.Load(*rulesFile)
		if err != nil {
			return usageErr(err)
		}
		rules = rules.Merge(fromFile)
	}
	// A rule that cannot work is the user's mistake, reported once rather
	// than for every cassette.
	if _, err := rules.Redactor(); err != nil {
		return usageErr(err)
	}
	files, err := cassetteFiles(flags.Args())
	if err != nil {
		return usageErr(err)
	}

	var findings, leaky, broken, skipped int
	for _, f := range files {
		path := f.path
		found, err := secrets.Check(path, rules)
		if err != nil && f.found && errors.Is(err, secrets.ErrNotCassette) {
			// Other YAML in a directory searched (a workflow under .github).
			skipped++
			continue
		}
		if err != nil {
			fmt.Fprintf(stderr, "agentcheck cassettes check: %s\n", shownLines(err.Error()))
			broken++
			continue
		}
		for _, f := range found {
			fmt.Fprintln(stdout, shownLines(fmt.Sprint(f)))
		}
		findings += len(found)
		if len(found) > 0 {
			leaky++
		}
	}
	checked := len(files) - broken - skipped
	if checked+broken == 0 {
		return usageErr(fmt.Errorf("no go-vcr cassettes among the %s found", plural(len(files), "YAML file")))
	}
	switch {
	case findings > 0:
		fmt.Fprintf(stdout, "agentcheck cassettes check: %s in %d of %s\n", plural(findings, "secret"), leaky, plural(checked, "cassette"))
		fmt.Fprint(stdout, "Remove them from the files and redact them when recording: the recorder drops the standard\n"+
			"credential headers; add your own with recorder.WithRedaction(secrets.Rules{...}), and revoke any\n"+
			"key that was committed.\n")
	case broken == 0:
		fmt.Fprintf(stdout, "agentcheck cassettes check: no secrets in %s\n", plural(checked, "cassette"))
	}
	if broken > 0 {
		fmt.Fprintf(stderr, "agentcheck cassettes check: %d of %s could not be checked\n", broken, plural(checked+broken, "cassette"))
		return exitUsage
	}
	if findings > 0 {
		return exitFailed
	}
	return exitOK
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// cassetteFile is a file to check; found is true for one found in a
// directory rather than named.
type cassetteFile struct {
	path  string
	found bool
}

// cassetteFiles expands the PATH arguments: a file is itself, whatever its
// name; a directory is its *.yaml and *.yml files, recursively (see
// walkCassettes). A named
// directory without YAML files is an error: CI checking an empty or
// misspelt directory must not pass.
func cassetteFiles(args []string) ([]cassetteFile, error) {
	explicit := len(args) > 0
	if !explicit {
		for _, d := range defaultCassetteDirs {
			if _, err := os.Stat(d); err == nil {
				args = append(args, d)
			}
		}
		if len(args) == 0 {
			return nil, fmt.Errorf("no PATH given and neither %s exists here", strings.Join(defaultCassetteDirs, " nor "))
		}
	}
	var files []cassetteFile
	for _, arg := range args {
		info, err := os.Stat(arg)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			files = append(files, cassetteFile{path: arg})
			continue
		}
		n := len(files)
		err = walkCassettes(arg, func(path string) {
			files = append(files, cassetteFile{path: path, found: true})
		})
		if err != nil {
			return nil, err
		}
		if explicit && len(files) == n {
			return nil, fmt.Errorf("%s: no cassettes (*.yaml, *.yml) in the directory", arg)
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no cassettes (*.yaml, *.yml) in %s", strings.Join(args, ", "))
	}
	return files, nil
}

// walkCassettes calls found with each *.yaml and *.yml file under root, in
// lexical order: every directory is searched, hidden ones included
// (.cassettes, .github, a subtest's directory named .git), except a
// repository's own .git (a directory holding HEAD and objects/), and
// symbolic links to directories are followed, each directory once, so that
// a link back up the tree ends no walk in a loop.
func walkCassettes(root string, found func(path string)) error {
	visited := map[string]bool{}
	var walk func(dir string) error
	walk = func(dir string) error {
		real, err := filepath.EvalSymlinks(dir)
		if err != nil {
			return err
		}
		if real, err = filepath.Abs(real); err != nil {
			return err
		}
		if visited[real] {
			return nil
		}
		visited[real] = true
		entries, err := os.ReadDir(dir)
		if err != nil {
			return err
		}
		for _, e := range entries {
			path := filepath.Join(dir, e.Name())
			isDir := e.IsDir()
			if e.Type()&fs.ModeSymlink != 0 {
				info, err := os.Stat(path)
				if err != nil {
					continue // a dangling link holds nothing
				}
				isDir = info.IsDir()
			}
			switch {
			case isDir && e.Name() == ".git" && gitDir(path):
			case isDir:
				if err := walk(path); err != nil {
					return err
				}
			case filepath.Ext(path) == ".yaml" || filepath.Ext(path) == ".yml":
				found(path)
			}
		}
		return nil
	}
	return walk(root)
}

// gitDir says whether dir is a repository's own .git directory.
func gitDir(dir string) bool {
	head, err := os.Stat(filepath.Join(dir, "HEAD"))
	if err != nil || head.IsDir() {
		return false
	}
	objects, err := os.Stat(filepath.Join(dir, "objects"))
	return err == nil && objects.IsDir()
}
