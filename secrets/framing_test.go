package secrets

import (
	"strings"
	"testing"
)

// framedCommands are commands inside what frames them: a Dockerfile's
// RUN, a cron schedule, docker run's image, a prompt, a list's marker, a
// notebook's ! and %sh, a systemd unit's ExecStart=, a YAML key, a flag
// quoted whole, and exec forms and process APIs that list a command's
// words.
var framedCommands = []string{
	"RUN mysql -uroot -p<K> < init.sql", "RUN docker login -u bob -p <K> registry.x", "0 3 * * * mysqldump -uroot -p<K> shop | gzip > /b.gz",
	"*/5 * * * * sshpass -p <K> ssh h uptime", "@daily sshpass -p <K> ssh h backup", "$ docker run --rm -e X=1 mysql:8 mysql -h db -uroot -p<K> -e \"select 1\"",
	"> mysql -uroot -p<K>", "PS> mysql -uroot -p<K>", "C:\\> mysql -uroot -p<K>", "- mysql -uroot -p<K>", "!mysql -uroot -p<K>", "%sh mysql -uroot -p<K>",
	"ExecStart=/usr/bin/mysqldump -uroot -p<K> shop", "ExecStartPre=-/usr/bin/sshpass -p <K> scp h:/a /b", "entrypoint: mysql -uroot -p<K>", "- run: mysql -uroot -p<K>",
	"mysql -u root \"-p<K>\" shop", "mysql -u root \"--password=<K>\" shop",
	`CMD ["mysql", "-uroot", "-p<K>"]`, `subprocess.run(["sshpass", "-p", "<K>", "ssh", "h"])`, `exec.Command("mysqldump", "-uroot", "-p<K>", "shop")`,
	"command: [\"mysqladmin\", \"ping\", \"--password=<K>\"]", "args = [\n  'zip',\n  '-P',\n  '<K>',\n  'out.zip',\n]",
}

func TestFramedCommandSecretsRemoved(t *testing.T) {
	var cases []reviewSecret
	for _, v := range []string{"Summer2024!", "@pw_2024_prod"} {
		for i, c := range framedCommands {
			cases = append(cases, reviewSecret{name: strings.Fields(c)[0] + "/" + string(rune('a'+i)) + "/" + v, text: strings.ReplaceAll(c, "<K>", v), secret: strings.TrimPrefix(v, "@")})
		}
	}
	checkGoes(t, cases)
}

// TestFramedCommandsBenignStay: the same frames round commands that take
// no password, or ask for it, or take a variable; lists of other words;
// a number or a list's marker before prose.
func TestFramedCommandsBenignStay(t *testing.T) {
	checkStays(t, []reviewText{
		{"prompts", "RUN mysql -u root -p$MYSQL_ROOT_PASSWORD shop\n0 3 * * * mysqldump -u root -p shop > /b.sql\n- mysql -u root -p\n$ docker run --rm -p 8080:80 nginx\n%sh ls -la"},
		{"exec-forms", `CMD ["mysql", "-u", "root", "-p"]` + "\n" + `["docker", "run", "-p", "8080:80", "nginx"]` + "\n" + `exec.Command("mysql", "-u", user, "-p"+pw)` + "\n" + `{"args": ["-p", "8080", "--name", "web"]}`},
		{"units", "ExecStart=/usr/bin/node server.js -p 3000\nExecReload=/bin/kill -HUP $MAINPID"},
		{"lists", "- 3 apples\n- mkdir -p /tmp/x\n* run: make test\n> quoted -p text"},
		{"cron", "*/15 * * * * /usr/local/bin/backup.sh -p /data\n0 0 * * 0 docker system prune -af"},
	})
}
