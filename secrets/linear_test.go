package secrets

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// slowCSV is a CSV of rows rows, one saying "see the http docs", as a
// tool's output in JSON (about 32 bytes a row): each JSON \n before a
// quote made the old search for a command's start read back over every
// row before it (1.17 MB took 12 s to scrub).
func slowCSV(rows int) string {
	var b strings.Builder
	for i := range rows {
		fmt.Fprintf(&b, "\"2024-01-%02d\",\"user%d\",\"ok\"\n", i%28+1, i)
	}
	b.WriteString("\"2024-02-01\",\"bob\",\"see the http docs\"\n")
	j, _ := json.Marshal(map[string]string{"output": b.String()})
	return string(j)
}

// slowScript is a Dockerfile's RUN continued over lines lines.
func slowScript(lines int) string {
	var b strings.Builder
	b.WriteString("RUN apt-get install -y \\\n")
	for i := range lines {
		fmt.Fprintf(&b, "    package%d \\\n", i)
	}
	b.WriteString("    done\ncurl -u admin https://x\n")
	return b.String()
}

// slowInputs are the review's inputs that took the command rules
// quadratic time (n bytes, about): a command's start was looked for back
// over lines that a backslash continues, or over JSON's \n before a quote.
func slowInputs() []struct {
	name string
	make func(n int) string
} {
	return []struct {
		name string
		make func(n int) string
	}{
		{"backslash-lines", func(n int) string { return strings.Repeat("x \\\n", n/4) + " -p" }},
		{"backslash-crlf-lines", func(n int) string { return strings.Repeat("x \\\r\n", n/5) + " -p" }},
		{"json-backslash-lines", func(n int) string { return strings.Repeat(`x \\\n`, n/6) + " -p" }},
		{"json-nl-quote", func(n int) string { return strings.Repeat(`\n'`, n/3) + " -p" }},
		{"json-nl-dquote", func(n int) string { return strings.Repeat(`\n"`, n/3) + " -p" }},
		{"json-nl-escaped-quote", func(n int) string { return strings.Repeat(`\n\"`, n/4) + " -p" }},
		{"json-escaped-backslash-n", func(n int) string { return strings.Repeat(`a\\n`, n/4) + " -p" }},
		{"csv-in-json", func(n int) string { return slowCSV(n / 32) }},
		{"dockerfile-continued", func(n int) string { return slowScript(n / 16) }},
		{"bash-c-mysql", func(n int) string { return strings.Repeat(`bash -c "mysql -p `, n/18) }},
		{"prompt", func(n int) string { return strings.Repeat("127.0.0.1:6379> ", n/16) + "AUTH x" }},
		{"sudo", func(n int) string { return strings.Repeat("sudo ", n/5) + "mysql -pX" }},
		{"and-p", func(n int) string { return strings.Repeat("a & -p ", n/7) }},
		{"quotes-p", func(n int) string { return strings.Repeat("'", n) + " -p" }},
		{"sql-create-user", func(n int) string { return strings.Repeat("CREATE USER u IDENTIFIED BY 'Zq7xZ8mR3pY9wB7t' ", n/48) }},
		{"sql-alter-role", func(n int) string { return strings.Repeat("ALTER ROLE r WITH PASSWORD 'Zq7xZ8mR3pY9wB7t' ", n/47) }},
		{"sql-set-password", func(n int) string { return strings.Repeat("SET PASSWORD = 'Zq7xZ8mR3pY9wB7t' ", n/34) }},
		{"sql-identified-q", func(n int) string { return strings.Repeat("IDENTIFIED BY 'Zq7xZ8mR3pY9wB7t' ", n/33) }},
		{"resp-auth-escaped", func(n int) string { return strings.Repeat(`*2\r\n$4\r\nAUTH\r\n$16\r\nZq7xZ8mR3pY9wB7t\r\n`, n/52) }},
		{"resp-auth-raw", func(n int) string { return strings.Repeat("*2\r\n$4\r\nAUTH\r\n$16\r\nZq7xZ8mR3pY9wB7t\r\n", n/42) }},
		{"blanks-quote", func(n int) string { return strings.Repeat("                                '", n/33) + " -p" }},
		{"sql-lines-prompt", func(n int) string {
			return strings.Repeat("CREATE USER u\n    -> IDENTIFIED BY 'Zq7xZ8mR3pY9wB7t', ", n/54)
		}},
		{"sql-open-comment", func(n int) string { return strings.Repeat("/* ' -- IDENTIFIED BY 'Zq7xZ8mR3pY9wB7t'\n", n/42) }},
		{"sql-json-lines", func(n int) string {
			return strings.Repeat(`CREATE ROLE r\n-- x\nLOGIN PASSWORD 'Zq7xZ8mR3pY9wB7t' `, n/51)
		}},
		{"redis-acl", func(n int) string { return strings.Repeat("ACL SETUSER u on >Zq7xZ8mR3pY9wB7t ", n/35) }},
		{"redis-config", func(n int) string { return strings.Repeat("CONFIG SET requirepass Zq7xZ8mR3pY9wB7t\n", n/40) }},
		{"ssh-sudo", func(n int) string { return strings.Repeat("ssh h sudo ", n/11) + "mysql -pX" }},
		{"sql-password-function", func(n int) string { return strings.Repeat("PASSWORD('Zq7xZ8mR3pY9wB7t') ", n/29) }},
		// PowerShell's continued lines and secret parameters (cmdlets_test.go).
		{"cmdlet-backtick-lines", func(n int) string { return strings.Repeat("Set-Item -Path x `\n", n/19) + " -Password" }},
		{"json-cmdlet-backtick-lines", func(n int) string { return strings.Repeat(`Set-Item -Path x `+"`"+`\n`, n/20) + " -Key" }},
		{"backtick-blank-lines", func(n int) string { return strings.Repeat("x `\n", n/4) + " -Token" }},
		{"cmdlet-secret-params", func(n int) string { return strings.Repeat("Set-Secret -Secret -Token -Key ", n/31) }},
		{"cmdlet-prompt-command", func(n int) string {
			return strings.Repeat(`PS C:\> (Set-Secret -SasToken x)) pwsh -Command "`, n/47)
		}},
	}
}

// TestCommandRulesLinear: the command rules' work (the bytes their
// searches read and their reader's steps, shellScan) on each slow input
// grows as the input does: four times the text, at most 4.2 times the
// work, and at most 12 steps a byte. Searching back for a command's start
// from each trigger, as the rules did, reads the continued lines before
// it again for each: the work grows as the square of the text. The texts
// are 4 and 16 KiB: the work is counted, not timed, and a square shows
// at any size past the rules' windows of a few hundred bytes (the SQL
// head reads back at most 240, maxSQLHead). With sqlHeadBefore reading back to
// the text's start, sql-create-user takes 3.99 times the work per byte at
// 16 KiB that it takes at 4 (16 and 64 KiB took four times the CPU; 64 and
// 256 KiB 5.3 s of the package's 16 under -race).
func TestCommandRulesLinear(t *testing.T) {
	const n = 4 << 10
	for _, in := range slowInputs() {
		small, large := in.make(n), in.make(4*n)
		w1, w4 := commandSteps(small), commandSteps(large)
		if w1 == 0 {
			t.Errorf("%s: no work counted on %d bytes: the rules do not read it, the test tests nothing", in.name, len(small))
			continue
		}
		if ratio := float64(w4) / float64(w1) * float64(len(small)) / float64(len(large)); ratio > 1.05 {
			t.Errorf("%s: %d steps for %d bytes, %d for %d: the work grows %.2f times faster than the text", in.name, w1, len(small), w4, len(large), ratio)
		}
		if w4 > 12*len(large) {
			t.Errorf("%s: %d steps for %d bytes, over 12 a byte", in.name, w4, len(large))
		}
	}
}

// commandSteps are the steps of the command, SQL and RESP rules on s.
func commandSteps(s string) int {
	_, shell := shellScan(s)
	_, sql := sqlScan(s)
	_, resp := respScan(s)
	return shell + sql + resp
}

// BenchmarkCommandStart scrubs each slow input at 1 MiB and 4 MiB
// (go test -run '^$' -bench CommandStart ./secrets/): the time must grow
// as the text does.
func BenchmarkCommandStart(b *testing.B) {
	x, _ := Rules{}.Redactor()
	for _, in := range slowInputs() {
		for _, n := range []int{1 << 20, 4 << 20} {
			text := in.make(n)
			b.Run(fmt.Sprintf("%s/%dMiB", in.name, n>>20), func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					x.Text(text)
				}
			})
		}
	}
}

// FuzzCommandRules: on any text the command and SQL rules stay in
// bounds (each value a span of the text), their work is linear (at most
// 12 steps a byte, as TestCommandRulesLinear), and a scrubbed text holds
// none of the values they found.
func FuzzCommandRules(f *testing.F) {
	for _, s := range []string{
		"mysql -uroot -pZq7xZ8mR3pY9wB7t shop", "x \\\n -p", `x \\\n -p`, `\n' -p`, "echo 'bob:Zq7xZ8mR3pY9wB7t' | chpasswd",
		"docker exec -it db mysql -uroot -pZq7xZ8mR3pY9wB7t", "ssh host 'redis-cli -a Zq7xZ8mR3pY9wB7t'", "127.0.0.1:6379> AUTH Zq7xZ8mR3pY9wB7t",
		"SET PASSWORD FOR 'u'@'%' = 'Zq7xZ8mR3pY9wB7t';", "create user u identified by 'Zq7xZ8mR3pY9wB7t'", "*2\r\n$4\r\nAUTH\r\n$16\r\nZq7xZ8mR3pY9wB7t\r\n",
		"bash -lc \"mysql -p\\u003cpassword\\u003e\"", "curl -uadmin:Zq7xZ8mR3pY9wB7t x", "docker login --password-stdin <<< Zq7xZ8mR3pY9wB7t",
		"mysql> CREATE USER 'a'@'%'\n    -> IDENTIFIED BY 'Zq7xZ8mR3pY9wB7t', b /* c */ IDENTIFIED BY 'Zq7xZ8mR3pY9wB7u';",
		`{"sql":"CREATE ROLE r\n-- x\nLOGIN PASSWORD 'Zq7xZ8mR3pY9wB7t'"}`, "redis-cli ACL SETUSER u on >Zq7xZ8mR3pY9wB7t ~*",
		"127.0.0.1:6379> CONFIG SET masterauth Zq7xZ8mR3pY9wB7t", "ssh db sudo -u m sqlcmd -P Zq7xZ8mR3pY9wB7t",
		"CREATE USER u IDENTIFIED\n    -> BY $p$Zq7xZ8mR3pY9wB7t$p$;", "EXEC sp_addlogin @loginame = N'a', @passwd = N'Zq7xZ8mR3pY9wB7t'",
		"$pw = ConvertTo-SecureString 'Zq7xZ8mR3pY9wB7t' -AsPlainText", "Invoke-Sqlcmd -Password:Zq7xZ8mR3pY9wB7t",
		`Acl SetUser u on >Zq7xZ8mR3pY9wB7t`, `CONFIG SET "requirepass" "Zq7xZ8mR3pY9wB7t"`, "bcp t out f -S db -P Zq7xZ8mR3pY9wB7t",
		// Review 65's panics: a tool's flag with "=" and nothing after it,
		// a lone "-" after sudo.
		"gh secret set A --body=", "7z a -p=", "ExecStart=nomad acl token create -secret=", "sudo - -u", "ls -p x; sudo -",
		`CMD ["zip", "-P", "Zq7xZ8mR3pY9wB7t"]`, `("`, "smbclient -U a%", "sqlplus a/", "vault login token=",
		// Review 67's: an empty quoted argument to a tool judged by its
		// name.
		`setx DB_PASSWORD ""`, `npm config set //registry.npmjs.org/:_authToken ''`, `RUN ["setx", "DB_PASSWORD", ""]`,
		// A Markdown label whose ":" ends the text (a panic before the
		// commit that added it was tested on documents), and its kin.
		"**Password**:", "`api_key`:", "__Password:__", "**Password:**", "| Password |", "| Password | x", "- **API key:** `", ":*", ":`", "*:",
	} {
		f.Add(s)
	}
	x, err := Rules{}.Redactor()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		found, _ := shellScan(s)
		if steps := commandSteps(s); steps > 12*len(s)+64 {
			t.Errorf("%d steps for %d bytes: %q", steps, len(s), s)
		}
		found = append(found, sqlPasswords(s)...)
		found = append(found, sqlProcedurePasswords(s)...)
		found = append(found, respAuth(s)...)
		for _, a := range found {
			if a.start < 0 || a.start > a.end || a.end > len(s) {
				t.Fatalf("%q: %s at [%d:%d] outside the text", s, a.name, a.start, a.end)
			}
		}
		got := x.Text(s)
		for _, a := range found {
			if v := s[a.start:a.end]; !strings.Contains(s[:a.start]+s[a.end:], v) && strings.Contains(got, v) {
				t.Errorf("%q: %s value %q found, and kept: %q", s, a.name, v, got)
			}
		}
	})
}

// equalsInputs repeat a secret name's "=" with no separator between:
// each value ran to the text's end, and was read again from each "=";
// and 37026f6's INI line at a JSON string's start, a word its value
// (["password = the …), which was linear but five times as slow a byte
// as prose (23 times under the race detector).
func equalsInputs() []struct {
	name string
	make func(n int) string
} {
	var out []struct {
		name string
		make func(n int) string
	}
	for _, unit := range []string{"password=", "--password=", "passwd=", "api_key=", "x password=", "token=a&", `["password = the `,
		"DECLARE @id INT = 1, @password sysname = 'x', ", ", @pw AS NVARCHAR(50) =",
		"DECLARE @s char(1) = ';', -- c\n @pw varchar(9) = 'x''", "SET @pw = '''"} {
		out = append(out, struct {
			name string
			make func(n int) string
		}{unit, func(n int) string { return strings.Repeat(unit, n/len(unit)) }})
	}
	return out
}

// TestEqualsRuleLinear: the name=value rule reads each byte as a value
// at most once (equalsAssignments' steps), four times the text at most
// 4.2 times the work; the values it finds together are no longer than
// the text, so that judging them is linear too. The texts are 16 and 64
// KiB (64 and 256 took four times the CPU): with the skip taken out
// (i < read in equalsAssignments), password= takes 4.00 times the work
// per byte at 64 KiB that it takes at 16.
func TestEqualsRuleLinear(t *testing.T) {
	const n = 16 << 10
	for _, in := range equalsInputs() {
		small, large := in.make(n), in.make(4*n)
		_, w1 := equalsAssignments(small)
		found, w4 := equalsAssignments(large)
		if w1 == 0 {
			t.Errorf("%s: no work counted on %d bytes", in.name, len(small))
			continue
		}
		if ratio := float64(w4) / float64(w1) * float64(len(small)) / float64(len(large)); ratio > 1.05 {
			t.Errorf("%s: %d steps for %d bytes, %d for %d: the work grows %.2f times faster than the text", in.name, w1, len(small), w4, len(large), ratio)
		}
		if w4 > 2*len(large) {
			t.Errorf("%s: %d steps for %d bytes, over 2 a byte", in.name, w4, len(large))
		}
		total := 0
		for _, a := range found {
			total += a.end - a.start
		}
		if total > len(large) {
			t.Errorf("%s: values of %d bytes found in %d", in.name, total, len(large))
		}
	}
}

// BenchmarkEqualsRule scrubs each repeated name=value at 64 KiB and
// 256 KiB (go test -run '^$' -bench EqualsRule ./secrets/).
func BenchmarkEqualsRule(b *testing.B) {
	x, _ := Rules{}.Redactor()
	for _, in := range equalsInputs() {
		for _, n := range []int{64 << 10, 256 << 10} {
			text := in.make(n)
			b.Run(fmt.Sprintf("%s/%dKiB", in.name, n>>10), func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					x.Text(text)
				}
			})
		}
	}
}

// valueInputs are the sixth review's values that placeholder took
// quadratic time on: a call in a call for each "(" (codeCall searched
// each level's first argument to the value's end), and an escape escaped
// again for each "&amp;" (placeholder decoded the value once a level).
// As JSON ({"password": "f(f(…"}) and XML (<password>&amp;amp;…lt;) 256
// KiB of them took 36 s and 27 s to scrub.
func valueInputs() []struct {
	name string
	make func(n int) string
} {
	return []struct {
		name string
		make func(n int) string
	}{
		{"call-in-call", func(n int) string { return strings.Repeat("f(", n/2) }},
		{"call-in-call-name", func(n int) string { return strings.Repeat("hash(", n/5) + "pw)" }},
		{"amp-escaped", func(n int) string { return "&" + strings.Repeat("amp;", n/4) + "lt;" }},
		{"json-escaped-amp", func(n int) string { return `\u0026` + strings.Repeat("amp;", n/4) + "lt;" }},
	}
}

// TestValueRulesLinear: placeholder's work on each of valueInputs (the
// bytes its decodings and codeCall read, placeholderSteps) grows as the
// value does, at most 8 steps a byte: 16 and 64 KiB, counted, not timed.
func TestValueRulesLinear(t *testing.T) {
	const n = 4 << 10
	for _, in := range valueInputs() {
		small, large := in.make(n), in.make(4*n)
		_, w1 := placeholderSteps(small, 0)
		_, w4 := placeholderSteps(large, 0)
		if w1 == 0 {
			t.Errorf("%s: no work counted on %d bytes: the test tests nothing", in.name, len(small))
			continue
		}
		if ratio := float64(w4) / float64(w1) * float64(len(small)) / float64(len(large)); ratio > 1.05 {
			t.Errorf("%s: %d steps for %d bytes, %d for %d: the work grows %.2f times faster than the value", in.name, w1, len(small), w4, len(large), ratio)
		}
		if w4 > 8*len(large) {
			t.Errorf("%s: %d steps for %d bytes, over 8 a byte", in.name, w4, len(large))
		}
	}
}

// BenchmarkValueRules scrubs each of valueInputs as a JSON password and
// an XML element at 64 and 256 KiB (go test -run '^$' -bench ValueRules
// ./secrets/).
func BenchmarkValueRules(b *testing.B) {
	x, _ := Rules{}.Redactor()
	for _, in := range valueInputs() {
		for _, n := range []int{64 << 10, 256 << 10} {
			v := in.make(n)
			for _, text := range []string{`{"password": "` + v + `"}`, "<password>" + v + "</password>"} {
				b.Run(fmt.Sprintf("%s/%s/%dKiB", in.name, text[:2], n>>10), func(b *testing.B) {
					b.SetBytes(int64(len(text)))
					for b.Loop() {
						x.Text(text)
					}
				})
			}
		}
	}
}
