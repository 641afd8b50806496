package secrets

import "strings"

// This file reads the forms of SQL's password literals that sql.go's
// statements do not: a statement's words on lines of their own, Postgres's
// dollar quotes, and SQL Server's procedures that set a password.

// sqlSpace skips what may stand between a statement's words at k:
// blanks, line breaks (raw, or JSON's \n, \r and \t escapes) and, after a
// break, a client's continuation prompt, so that IDENTIFIED\nBY '…' and
// WITH PASSWORD\n'…' read as on one line.
func sqlSpace(s string, k int) int {
	for k < len(s) {
		switch {
		case blank(s[k]) || s[k] == '\r':
			k++
		case sqlBreak(s, k) > 0:
			k += sqlBreak(s, k)
			k += sqlPrompt(s[k:min(len(s), k+maxSQLHead)])
		case s[k] == '\\' && k+1 < len(s) && (s[k+1] == 't' || s[k+1] == 'r') && (k == 0 || s[k-1] != '\\'):
			k += 2
		default:
			return k
		}
	}
	return k
}

// maxDollarQuoted bounds the text a dollar quote's closing tag is looked
// for in: a password, not a function's body.
const maxDollarQuoted = 256

// dollarQuoted reads Postgres's dollar-quoted string at k, $$…$$ or
// $tag$…$tag$ (a tag of letters, digits and "_", not starting with a
// digit: $1 is a parameter), on one line.
func dollarQuoted(s string, k int) (vs, ve int, ok bool) {
	if k >= len(s) || s[k] != '$' {
		return 0, 0, false
	}
	e := k + 1
	for e < len(s) && e-k < 32 && (asciiLetter(s[e]) || s[e] == '_' || e > k+1 && s[e] >= '0' && s[e] <= '9') {
		e++
	}
	if e >= len(s) || s[e] != '$' {
		return 0, 0, false
	}
	tag := s[k : e+1]
	vs = e + 1
	n := strings.Index(s[vs:min(len(s), vs+maxDollarQuoted)], tag)
	if n <= 0 || strings.ContainsAny(s[vs:vs+n], "\r\n") {
		return 0, 0, false
	}
	return vs, vs + n, true
}

// sqlProcedures are SQL Server's procedures that set a password, and
// which of their arguments are passwords: by position (from 0) and by
// name.
var sqlProcedures = []struct {
	name      string
	positions []int
	names     []string
}{
	{"sp_addlogin", []int{1}, []string{"passwd"}},
	{"sp_password", []int{0, 1}, []string{"old", "new"}},
}

// sqlProcedurePasswords finds the passwords given to SQL Server's
// procedures that set one, in any case, by position or by name: [EXEC]
// sp_addlogin 'login', 'password' [, …]; sp_password 'old', 'new'
// [, 'login']; sp_addlogin @loginame = 'app', @passwd = N'…'.
func sqlProcedurePasswords(s string) []assignment {
	var out []assignment
	// Each "_" after "sp" in any case (sP_addlogin too): one search.
	for u := range indexes(s, "_") {
		if i := u - 2; i >= 0 && strings.EqualFold(s[i:u], "sp") {
			if i > 0 && (nameByte(s[i-1]) && s[i-1] != '.' || s[i-1] == '@') {
				continue // master.dbo.sp_addlogin and [dbo].[sp_addlogin] are the procedure
			}
			word := sqlWord(s, i)
			for _, p := range sqlProcedures {
				if strings.EqualFold(word, p.name) {
					e := i + len(word)
					if i > 0 && s[i-1] == '[' && e < len(s) && s[e] == ']' {
						e++
					}
					out = procedureArguments(out, s, e, p.positions, p.names)
				}
			}
		}
	}
	return out
}

// procedureArguments reads a procedure's arguments after its name (at
// k), adding those that are passwords by their position or name.
func procedureArguments(out []assignment, s string, k int, positions []int, names []string) []assignment {
	k = sqlSpace(s, k)
	if k < len(s) && s[k] == '(' {
		k = sqlSpace(s, k+1) // as some clients call it
	}
	for n := 0; n < 4 && k < len(s); n++ {
		secret := false
		for _, p := range positions {
			secret = secret || p == n
		}
		if s[k] == '@' {
			name := sqlWord(s, k+1)
			e := sqlSpace(s, k+1+len(name))
			if name == "" || e >= len(s) || s[e] != '=' {
				return out // a variable given by position: no literal
			}
			secret = false
			for _, w := range names {
				secret = secret || strings.EqualFold(name, w)
			}
			k = sqlSpace(s, e+1)
		}
		if k+1 < len(s) && (s[k] == 'N' || s[k] == 'n') && s[k+1] == '\'' {
			k++
		}
		vs, ve, ok := sqlQuoted(s, k)
		if !ok {
			vs, ve, ok = sqlValue(s, k) // NULL, @pw
			if !ok {
				return out
			}
			if s[vs] == '@' {
				secret = false // a T-SQL variable, whatever its name reads as (@Password1)
			}
		}
		if secret && commandValue(s[vs:ve]) {
			out = append(out, assignment{name: "sp_ password", kind: passwordName, start: vs, end: ve, form: formWord})
		}
		k = ve
		if k < len(s) && (s[k] == '\'' || s[k] == '"') {
			k++
		} else if strings.HasPrefix(s[k:], `\"`) {
			k += 2
		}
		k = sqlSpace(s, k)
		if k >= len(s) || s[k] != ',' {
			return out
		}
		k = sqlSpace(s, k+1)
	}
	return out
}
