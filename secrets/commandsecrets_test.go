package secrets

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// commandSecretTexts hold a password, <K>, where a command, a command run
// by another, Redis or an SQL statement takes it: the review's misses
// that a rule covers precisely, and the rules' own cases.
func commandSecretTexts() []struct{ name, text string } {
	return []struct{ name, text string }{
		{"mysql/glued", "mysql -uroot -p<K> shop"},
		{"mysql/quoted", "mysql -uroot -p'<K>' shop"},
		{"mysql/dquoted", "mysql -uroot -p\"<K>\" shop"},
		{"mysql/flags-around", "mysql -h 10.0.0.5 -P 3306 -u admin -p<K> -D shop -e 'select 1'"},
		{"mysql/db-first", "mysql shop -uroot -p<K>"},
		{"mysqldump/pipe", "mysqldump --single-transaction -h db -u root -p<K> shop | gzip > x.gz"},
		{"mariadb", "mariadb -uroot -p<K>"},
		{"time-mysql", "time mysql -uroot -p<K> shop"},
		{"nohup-mysqldump", "nohup mysqldump -uroot -p<K> shop > x.sql &"},
		{"sudo-u-mysql", "sudo -u mysql mysql -uroot -p<K>"},
		{"sudo-mysql", "sudo mysql -uroot -p<K>"},
		{"docker-exec/it", "docker exec -it db mysql -uroot -p<K> shop"},
		{"docker-exec/i-redirect", "docker exec -i db mysql -uroot -p<K> < dump.sql"},
		{"docker-exec/env-flag", "docker exec -e LANG=C -u root db mysql -uroot -p<K>"},
		{"docker-compose-exec", "docker compose exec db mysql -uroot -p<K>"},
		{"podman-exec", "podman exec -it db redis-cli -a <K> ping"},
		{"kubectl-exec/mysql", "kubectl exec -it mysql-0 -- mysql -uroot -p<K>"},
		{"kubectl-exec/redis", "kubectl exec -it redis-0 -- redis-cli -a <K> ping"},
		{"ssh/bare", "ssh host mysql -uroot -p<K>"},
		{"ssh/flags", "ssh -p 2222 -i ~/.ssh/id deploy@db mysql -uroot -p<K>"},
		{"ssh/quoted", "ssh host 'mysql -uroot -p<K> shop'"},
		{"ssh/dquoted-redis", "ssh host \"redis-cli -a <K> ping\""},
		{"bash-c", "bash -c \"mysql -uroot -p<K> shop\""},
		{"bash-lc", "bash -lc \"mysql -uroot -p<K>\""},
		{"sh-c-redis", "sh -c 'redis-cli -a <K> ping'"},
		{"sudo-bash-c", "sudo bash -c \"mysql -uroot -p<K>\""},
		{"docker-exec-sh-c", "docker exec db sh -c \"mysql -uroot -p<K>\""},
		{"bash-c-login", "bash -c 'echo <K> | docker login -u me --password-stdin'"},
		{"background-and", "make & mysql -uroot -p<K>"},
		{"continued/lf", "mysql -uroot \\\n -p<K>"},
		{"continued/crlf", "mysql -uroot \\\r\n -p<K>"},
		{"continued/docker-login", "docker login \\\n  -u me \\\n  -p <K>"},
		{"continued/json", "{\"cmd\":\"mysql -uroot \\\\\\n -p<K>\"}"},
		{"continued/json-crlf", "{\"cmd\":\"mysql -uroot \\\\\\r\\n -p<K>\"}"},
		{"curl/spaced", "curl -s -u admin:<K> https://x"},
		{"curl/glued", "curl -uadmin:<K> https://x"},
		{"curl/quoted", "curl -u 'admin:<K>' https://x"},
		{"curl/long", "curl --user admin:<K> https://x"},
		{"docker-login/spaced", "docker login -u me -p <K> ghcr.io"},
		{"docker-login/glued", "docker login -u me -p<K> ghcr.io"},
		{"docker-login/equals", "docker login -u=me -p=<K>"},
		{"stdin/echo", "echo <K> | docker login -u me --password-stdin"},
		{"stdin/echo-n", "echo -n <K> | docker login -u me --password-stdin ghcr.io"},
		{"stdin/printf", "printf <K> | docker login --password-stdin"},
		{"stdin/passwd", "echo \"<K>\" | sudo passwd --stdin bob"},
		{"chpasswd", "echo 'bob:<K>' | chpasswd"},
		{"chpasswd/sudo", "echo \"bob:<K>\" | sudo chpasswd"},
		{"here-string/cat", "cat <<< <K> | docker login --password-stdin"},
		{"here-string/login", "docker login -u me --password-stdin <<< <K>"},
		{"redis-cli/a", "redis-cli -a <K>"},
		{"redis-cli/flags", "redis-cli -h cache -a <K> --no-auth-warning ping"},
		{"redis-cli/pass", "redis-cli --user app --pass <K> ping"},
		{"redis-cli/auth-arg", "redis-cli -h cache AUTH <K>"},
		{"redis-cli/auth-user", "redis-cli --user app AUTH app <K>"},
		{"redis-prompt", "redis-cli -h cache\ncache:6379> AUTH <K>\nOK"},
		{"redis-prompt/user", "127.0.0.1:6379> auth default <K>"},
		{"redis-prompt/db", "127.0.0.1:6379[2]> AUTH <K>"},
		{"redis-prompt/after-cli", "$ redis-cli\n127.0.0.1:6379> AUTH <K>"},
		{"hello", "HELLO 3 AUTH default <K> SETNAME app"},
		{"resp/upper", "*2\r\n$4\r\nAUTH\r\n$16\r\n<K>\r\n"},
		{"resp/lower", "*2\r\n$4\r\nauth\r\n$16\r\n<K>\r\n"},
		{"resp/json-escaped", `*3\r\n$4\r\nAUTH\r\n$7\r\ndefault\r\n$16\r\n<K>\r\n`},
		{"httpie/auth", "http -a bob:<K> example.org"},
		{"httpie/auth-long", "http --auth bob:<K> example.org"},
		{"httpie/header", "http example.org Authorization:'Bearer <K>'"},
		{"httpie/field", "http POST example.org password=<K>"},
		{"httpie/param", "http example.org token==<K>"},
		{"xh/auth", "xh example.org -a bob:<K>"},
		{"sql/create-user", "CREATE USER 'u'@'%' IDENTIFIED BY '<K>';"},
		{"sql/create-user-lower", "create user 'u'@'%' identified by '<K>';"},
		{"sql/mid-line-lower", "done; then create user 'u'@'%' identified by '<K>';"},
		{"sql/json-lower", `{"content":"ok\ncreate user 'u'@'%' identified by '<K>';"}`},
		{"sql/mysql-e", `mysql -e "alter user 'root'@'localhost' identified by '<K>';"`},
		{"sql/execute", `cursor.execute("create user 'u'@'%' identified by '<K>'")`},
		{"sql/with-plugin", "ALTER USER 'u'@'%' IDENTIFIED WITH 'caching_sha2_password' BY '<K>';"},
		{"sql/grant", "GRANT ALL ON *.* TO 'u'@'%' IDENTIFIED BY '<K>';"},
		{"sql/bare", "CREATE USER u IDENTIFIED BY <K>;"},
		{"sql/dquoted", "CREATE USER u IDENTIFIED BY \"<K>\";"},
		{"sql/password-expire", "CREATE USER u IDENTIFIED BY '<K>' PASSWORD EXPIRE;"},
		{"sql/set-password-for", "SET PASSWORD FOR 'u'@'%' = '<K>';"},
		{"sql/set-password-fn", "SET PASSWORD = PASSWORD('<K>');"},
		{"sql/set-password-lower", "mysql> set password for 'u'@'%' = '<K>';"},
		{"sql/role-login", "ALTER ROLE app WITH LOGIN PASSWORD '<K>';"},
		{"sql/role-lower", "alter role app with login password '<K>';"},
		{"sql/user-with-password", "CREATE USER app WITH PASSWORD '<K>';"},
		{"sql/encrypted", "ALTER USER app WITH ENCRYPTED PASSWORD '<K>';"},
		{"sql/login-n", "ALTER LOGIN sa WITH PASSWORD = N'<K>';"},
		{"sql/login-check", "CREATE LOGIN u WITH PASSWORD = '<K>' MUST_CHANGE, CHECK_POLICY = ON;"},
		{"sid/prose", "the server replied with sid=<K> and then"},
		{"sid/sentence-end", "logged in, sid=<K>."},
		{"sessionid/prose", "its sessionid: <K>. Then"},
	}
}

// TestCommandSecretsRemoved: each password is gone from what the
// Redactor stores, in text, in a JSON body and in a tool call's
// arguments, and the check finds it in a response, JSON or plain text.
func TestCommandSecretsRemoved(t *testing.T) {
	x, err := Rules{}.Redactor()
	if err != nil {
		t.Fatal(err)
	}
	k := "Zq7" + fakeKey("", 13)
	cases := commandSecretTexts()
	var rs []response // each text as a JSON and as a plain-text response, checked in one cassette
	for _, tc := range cases {
		text := strings.ReplaceAll(tc.text, "<K>", k)
		b, _ := json.Marshal(map[string]string{"content": text})
		rs = append(rs, response{"application/json", string(b)}, response{"text/plain", text})
	}
	found := checkEach(t, rs)
	for i, tc := range cases {
		text := strings.ReplaceAll(tc.text, "<K>", k)
		if got := x.Text(text); strings.Contains(got, k) {
			t.Errorf("%s: Text(%q) = %q, the password kept", tc.name, text, got)
		}
		b, _ := json.Marshal(map[string]string{"content": text})
		if _, got := x.Message(http.Header{"Content-Type": {"application/json"}}, b); strings.Contains(string(got), k) {
			t.Errorf("%s: JSON body %s scrubbed to %s, the password kept", tc.name, b, got)
		}
		args, _ := json.Marshal(map[string]string{"command": text})
		call, _ := json.Marshal(map[string]any{"model": "m", "messages": []any{map[string]any{"role": "assistant",
			"tool_calls": []any{map[string]any{"type": "function", "function": map[string]any{"name": "shell", "arguments": string(args)}}}}}})
		if _, got := x.Message(http.Header{"Content-Type": {"application/json"}}, call); strings.Contains(string(got), k) {
			t.Errorf("%s: a tool call's arguments %s scrubbed to %s, the password kept", tc.name, call, got)
		}
		for j := 2 * i; j < 2*i+2; j++ {
			if len(found[j]) == 0 {
				t.Errorf("%s: the check of a %s response holding %q found nothing", tc.name, rs[j].ctype, text)
			}
		}
	}
}
