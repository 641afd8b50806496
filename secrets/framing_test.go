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

// TestReview65LeaksRemoved: what review 65 found the new readers missed:
// Windows' capitals and .bat names, htpasswd's flag clusters, a flag
// quoted whole, userid=, glued short flags of getopt's tools, more tools'
// flags, prompts, numbered lists, wrappers, shell keywords, docker run's
// other flags, and lists that name the command outside or after sudo.
func TestReview65LeaksRemoved(t *testing.T) {
	commands := []string{
		"NET USER bob <K> /ADD", "SQLPLUS scott/<K>", "sqlplus.exe scott/<K>", "SETX DB_PASSWORD <K>", "RABBITMQCTL add_user admin <K>", "rabbitmqctl.bat add_user admin <K>",
		"htpasswd -nbB bob <K>", "htpasswd -Bb f bob <K>", "7z a \"-p<K>\" a.7z d", "sqlldr userid=scott/<K> control=x.ctl", "expdp userid=system/<K> schemas=x",
		"ldapsearch -w<K>", "ssh-keygen -N<K> -f k", "smbclient -Ubob%<K> //s/x", "cqlsh -u c -p<K> h",
		"openssl pkcs12 -export -password pass:<K>", "jarsigner -storepass <K> app.jar alias", "smbmap -u bob -p <K> -H h", "influx config create -t <K>",
		"rabbitmqctl authenticate_user admin <K>", "aws ssm put-parameter --type=SecureString --value <K>",
		"bob@host:~$ mysql -u root -p<K> db", "PS C:\\Users\\bob> mysql -u root -p<K> db", "1. mysql -u root -p<K> db", "1) mysql -u root -p<K> db",
		"timeout 10 mysql -u root -p<K> db", "xargs mysql -u root -p<K> db", "nice -n 10 mysql -u root -p<K> db", "doas mysql -u root -p<K> db",
		"if true; then mysql -u root -p<K> db; fi", "{ mysql -u root -p<K> db; }", "!!mysql -u root -p<K> db",
		"docker run --rm --stop-timeout 5 img mysql -p<K>", "docker run --rm --ip 10.0.0.2 img zip -P <K> a f", "docker container run --rm img zip -P <K> a f",
		"exec.Command(`zip`, `-P`, `<K>`)", "spawn('zip', ['-P', '<K>', 'a'])", "execFile(\"zip\", [\"-P\", \"<K>\"])", "(\"zip\", \"-P\", '<K>')",
		"['sudo', 'mysql', '-p<K>']", "['sudo', '-E', 'mysql', '-p<K>']", "['docker', 'run', 'img', 'mysql', '-p<K>']",
	}
	var cases []reviewSecret
	for i, c := range commands {
		cases = append(cases, reviewSecret{name: strings.Fields(c)[0] + "/" + string(rune('a'+i%26)), text: strings.ReplaceAll(c, "<K>", "S3cr3tPass99"), secret: "S3cr3tPass99"})
	}
	checkGoes(t, cases)
}
