package secrets

import "testing"

// mysqlGluedSecrets are passwords glued to the -p of MySQL's and
// MariaDB's clients that start with a variable's or a reference's mark:
// after -p, every byte to the blank is the password.
func mysqlGluedSecrets() []reviewSecret {
	return []reviewSecret{
		{"mysql-at", "mysql -u root -p@pw_2024_prod db", "pw_2024_prod"},
		{"mysql-at-no-db", "mysql -uroot -p@summer2024", "summer2024"},
		{"mysqldump-percent", "mysqldump -u root -p%hunter2% shop > shop.sql", "hunter2"},
		{"mysqladmin-amp-quoted", "mysqladmin -u root -p'&welcome1' status", "welcome1"},
		{"mariadb-bang", "mariadb -u app -p!letmein42 shop", "letmein42"},
		{"mysql-amp-bare", "mysql -h db -u app -p&Welcome1 shop", "Welcome1"},
		{"mysql-at-double-quoted", `mysql -u root -p"@pw_2024_prod" db`, "pw_2024_prod"},
		{"mysql-percent-open", "mysql -u root -p%pw2024 db", "pw2024"},
		{"mysql-at-json-escaped", `{"command":"mysql -u root -p\"@pw_2024_prod\" db"}`, "pw_2024_prod"},
		{"mysql-amp-heredoc", "bash <<'EOF'\nmysqldump -u root -p'&welcome1' shop | gzip > shop.gz\nEOF", "welcome1"},
		{"mysql-url-encoded-at", "mysql -u root -p%40pw_2024_prod db", "pw_2024_prod"},
		{"mysql-bang-both", "mysql -u root -p!pass2024! db", "pass2024"},
		{"mysql-crlf-script", "@echo off\r\nmysqldump -u root -p%hunter2% shop > shop.sql\r\n", "hunter2"},
		{"mysql-in-docker-exec", "docker exec -it db mysql -uroot -p@pw_2024_prod -e 'select 1'", "pw_2024_prod"},
		{"mysql-at-capital-extension", "mysql -u root -p@Summer.Fun shop", "Summer.Fun"},
		{"mysql-long-at", "mysql -u root --password=@pw_2024_prod shop", "pw_2024_prod"},
		{"mysqldump-long-amp-quoted", "mysqldump -u root --password='&welcome1' shop > shop.sql", "welcome1"},
		{"mariadb-long-percent", `{"cmd": "mariadb -u app --password=%hunter2% shop"}`, "hunter2"},
		{"mysqldump-at-capital-extension", "mysqldump -uroot -p@Pass.Word2 --all-databases", "Pass.Word2"},
		// Every client of the two, not only the best known.
		{"mysqlimport", "mysqlimport -u root -pHunter2pw --local shop orders.csv", "Hunter2pw"},
		{"mysqlbinlog-at", "mysqlbinlog -h db -u repl -p@pw_2024_prod --read-from-remote-server binlog.000001", "pw_2024_prod"},
		{"mysqlcheck-long", "mysqlcheck -u root --password=S3cr3t!x --all-databases", "S3cr3t!x"},
		{"mariadb-backup", "mariadb-backup --backup --user=root --password=Hunter2pw --target-dir=/bk", "Hunter2pw"},
		{"mariadb-admin-path", "/usr/bin/mariadb-admin -uroot -p%hunter2% status", "hunter2"},
	}
}

// mysqlGluedBenign are -p with no password glued, other flags, and the
// same marks where they make a reference: cmd's variables and batch
// arguments, a file's name, SQL's placeholders, YAML's anchors.
func mysqlGluedBenign() []reviewText {
	return []reviewText{
		{"mysql-prompt", "mysql -u root -p shop\nmysqldump -u root -p --all-databases > all.sql"},
		{"mysql-port", "mysql -h db -P 3306 -u app -p"},
		{"sql-placeholders", "UPDATE users SET password = @p1 WHERE id = @p2"},
		{"yaml-anchor", "base: &pw_anchor1\n  host: db\nprod:\n  <<: *pw_anchor1"},
		{"mysql-batch-variable", "mysql -u root -p%DB_PASS% shop\nmysqldump -u root -p%MYSQL_PWD% shop"},
		{"mysql-batch-substring", "mysql -u root -p%pgpass:~0,8% shop\nmysql -u root -p!DB_PASS! shop"},
		{"mysql-batch-argument", "mysql -u %1 -p%2 shop\nmysql -u root -p%~1 shop\nmysql -u root -p%%P shop"},
		{"mysql-at-file", "mysql -uroot -p@pw_2024.txt\nmysql -u root -p@secrets/db.pass shop"},
		{"mysql-html-escaped", "mysql -u root -p&lt;password&gt; shop"},
		{"mysql-lower-variable", "mysql -u %username% -p%dbpass% shop"},
		{"prose-dash-p", "Pass -p@host to ssh, or -p%d to printf; mkdir -p@tmp"},
		{"mysql-short-marks", "mysql -u root -p@x shop\nmysql -u root -p&& echo done"},
		{"mysql-delayed-lower", "mysql -u root -p!dbpass! shop"},
		{"perl-flag", "perl -p -e 's/@pw_2024/x/' file"},
		// Review 64's: templates, Razor, an HTML entity cut by the shell's
		// ";", an unquoted "&" (which ends the command), a %VAR%\ path.
		{"mysql-long-templates", "mysql -u root --password=%(password)s shop\nmysqldump -u root --password=@{password} shop\nmysql --password=%{DB_PASSWORD} x\nmysql --password=@Model.DbPassword x\nmysql --password=%(DbPassword) x"},
		{"mysql-glued-templates", "mysql -u root -p%(password)s shop\nmysql -u root -p@{password} shop\nmysql -u root -p@Model.DbPassword shop"},
		{"mysql-html-quoted-variable", "mysql -u root --password=&quot;$MYSQL_PWD&quot; shop\nmysql -u root -p&quot;$MYSQL_PWD&quot; shop\nmysql -u root --password=&amp;&amp; echo ok"},
		{"mysql-unquoted-amp", "mysql -u root --password=&password shop\nmysql -u root --password=&amp; shop"},
		{"mysql-long-batch-path", "mysql -u root --password=%APPDATA%\\pw.txt shop"},
		{"mysql-clients-prompt", "mysqlimport -u root -p --local shop orders.csv\nmysqlbinlog -u repl -p binlog.000001\nmariadb-check -p --all-databases"},
		{"mysql-long-references", "mysql -u root --password=@pw_2024.txt shop\nmysql -u root --password=%DB_PASS% shop\nmysql --password= -e 'select 1'"},
	}
}

func TestMySQLGluedSecretsRemoved(t *testing.T) {
	checkGoes(t, mysqlGluedSecrets())
}

func TestMySQLGluedBenignStay(t *testing.T) {
	checkStays(t, mysqlGluedBenign())
}
