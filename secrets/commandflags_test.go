package secrets

import (
	"strings"
	"testing"
)

// toolCommands are commands that take a secret of their own, each with
// <K> where it goes.
var toolCommands = []string{
	"gh secret set API_KEY --body <K>", "gh secret set API_KEY -b <K>", "gh secret set API_KEY --body=<K>", "gh secret set API_KEY -b<K>",
	"aws secretsmanager create-secret --name db --secret-string <K>", "aws ssm put-parameter --name /db/pw --value <K> --type SecureString",
	"az keyvault secret set --vault-name v --name db --value <K>", "az login -u bob@x.com -p <K>",
	"vault login <K>", "vault login token=<K>", "consul acl token create -secret <K>", "nomad acl token create -secret=<K>",
	"openssl pkcs12 -export -in c.pem -out c.p12 -passout pass:<K>", "openssl rsa -in k.pem -passin pass:<K>", "openssl enc -aes-256-cbc -in f -out f.enc -k <K>",
	"zip -P <K> secret.zip f.txt", "unzip -P <K> secret.zip", "7z a -p<K> archive.7z dir",
	"keytool -genkey -keystore k.jks -storepass <K>", "keytool -genkey -keystore k.jks -keypass <K>", "ssh-keygen -p -P old -N <K> -f k",
	"ldapsearch -x -D cn=admin -w <K> -b dc=x", "ldappasswd -x -D cn=admin -w x -s <K> uid=bob", "smbclient //srv/share -U bob%<K>", "lftp -u bob,<K> ftp.x",
	"mosquitto_pub -h b -u bob -P <K> -t t -m m", "cqlsh -u cassandra -p <K>", "beeline -u jdbc:hive2://h -n bob -p <K>", "ncftp -u bob -p <K> ftp.x", "influx -username admin -password <K>",
	"rabbitmqctl add_user bob <K>", "rabbitmqctl change_password bob <K>", "net user bob <K> /add",
	"sqlplus bob/<K>@db", "sqlplus -S bob/<K>@//db:1521/x", "expdp bob/<K> directory=d dumpfile=x.dmp",
	"htpasswd -b .htpasswd bob <K>", "htpasswd -nb bob <K>", "setx OPENAI_API_KEY <K>", "npm config set //registry.npmjs.org/:_authToken <K>",
	"echo <K> | sudo -S apt update",
}

func TestToolSecretsRemoved(t *testing.T) {
	var cases []reviewSecret
	for _, v := range []string{"Zk42q8R2mL4xV7nP1tK9wS3", "Summer2024!"} {
		for _, c := range toolCommands {
			cases = append(cases, reviewSecret{name: strings.Fields(c)[0] + "/" + v, text: strings.ReplaceAll(c, "<K>", v), secret: v})
		}
	}
	checkGoes(t, cases)
}

// TestToolSecretsBenignStay: the same commands with no secret: a prompt,
// a variable, a file or the environment instead, other subcommands and
// flags.
func TestToolSecretsBenignStay(t *testing.T) {
	checkStays(t, []reviewText{
		{"vault", "vault login -method=userpass username=bob\nvault login -method=github"},
		{"sqlplus", "sqlplus /nolog\nsqlplus / as sysdba\nsqlplus bob@//db:1521/x\nsqlplus -s /nolog @script.sql\nexpdp system directory=d"},
		{"variables", "gh secret set NAME -b\"$VAL\"\ngh secret set NAME --body \"$(cat f)\"\nldapsearch -w $LDAP_PW -x\ncqlsh -u cassandra -p $CQL_PW\nzip -P \"$ZIP_PW\" out.zip f\necho $PW | sudo -S apt update"},
		{"openssl-sources", "openssl enc -d -aes-256-cbc -pass env:PASS -in f\nopenssl pkcs12 -passin file:pw.txt -in x.p12"},
		{"other-flags", "smbclient -L //srv -U bob\nssh-keygen -t ed25519 -N '' -f key\n7z x archive.7z -o/tmp/out\nzip -r out.zip dir -x '*.git*'\nunzip -o f.zip -d out\nkeytool -list -keystore k.jks\nmosquitto_sub -h b -t t -p 1883"},
		{"not-secure", "aws ssm put-parameter --name /x --value v1.2.3-beta --type String"},
		{"users", "net user bob /domain\nnet user\nrabbitmqctl add_user bob\nrabbitmqctl list_users\nhtpasswd -c .htpasswd bob"},
		{"names", "setx PATH \"%PATH%;C:\\bin\"\nsetx OPENAI_API_KEY \"%OPENAI_API_KEY%\"\nnpm config set registry https://registry.npmjs.org/\nnpm config set //registry.npmjs.org/:_authToken ${NPM_TOKEN}"},
		{"sudo-tee", "echo hello | sudo tee /etc/motd"},
	})
}

// TestReview65BenignStay: what review 65 found this session's readers
// redacted that they should not: lists of data that name a tool first,
// cmd's and systemd's variables and specifiers after a password flag,
// SQL*Plus's substitution variables, model names under a grader's pass,
// assertion types, slugs after a key's prefix or in a webhook's path.
func TestReview65BenignStay(t *testing.T) {
	checkStays(t, []reviewText{
		{"data-lists", `ops = ["exp", "runs/exp42_lr3e4"]` + "\n" + `x = ("imp", "pkg/Module_v2x")` + "\n" + `np.array(["imp", "models/resnet50_v2"])` + "\n" + `args: ['rman', 'backup/full_2024']` + "\n" + `menu = ["setx", "API_KEY", "Show_Value_2024"]`},
		{"batch-variables", "smbclient -U %USERNAME% //srv/share\nsmbclient -U DOMAIN\\%USERNAME% //s/x\nsmbclient -U user%%PASSWORD%% //s/x\nnet user bob %RANDOM%%RANDOM% /add\nzip -P %APPDATA%\\pw a f\nzip -P %TEMP%/x a f"},
		{"sqlplus-substitution", "sqlplus \"&&user/&&pass\"\nsqlplus scott/&pw@db"},
		{"systemd-specifiers", "ExecStart=/usr/bin/sshpass -p %d/pw ssh h\nExecStart=/usr/bin/redis-cli -a %d/redis ping\nExecStart=/usr/bin/mysql -p%d/x\nExecStart=/usr/bin/docker login -u bob -p %d/token reg\nExecStart=/usr/bin/ldapsearch -w %d/ldap\nExecStart=/usr/bin/keytool -storepass %d/ks -list"},
		{"grader-pass", `{"pass": "gpt-4o-2024-08-06"}` + "\npass: claude-3-haiku-20240307\n" + `{"results": [{"pass": "run-20240811-abc123"}]}`},
		{"slugs", "branch: pa-Fix-Login-Redirect-When-Session-Expires-2024\nhttps://example.atlassian.net/browse/pa-ImplementSSOLoginForEnterpriseCustomers2024\n/api/webhooks/123456789012345678/events-for-guild-and-channel-subscriptions-list-paged-v2-2024"},
	})
}

// TestReview66BenignStay: what review 66 found redacted that holds no
// secret: 7z's -p alone (it asks), a form's empty password before its
// next field, a form's labels and errors under numbered names, code that
// reads a credential, and a tool's flag given a path, a glob or code.
func TestReview66BenignStay(t *testing.T) {
	checkStays(t, []reviewText{
		{"7z-prompt", "7z a -p archive.7z dist\n7z x -p archive.7z -oout\n" + `["7z", "a", "-p", "archive.7z", "dist"]`},
		{"empty-password-fields", "password=&remember_me=1\npassword=&next=1\npassword1=&password2=&commit=Sign+up\nuser[password]=&user[remember_me]=1\ndb_password=&db_host=localhost\nDEFINE password=&1"},
		{"labels-and-errors", `{"password2": ["This field is required."]}` + "\n" + `{"errors": {"password_confirmation": ["doesn't match Password"]}}` + "\n" + `password2 = "Confirm password"` + "\nlabel_password1=Enter a password\npassword_confirmation=Passwords do not match"},
		{"code-references", "password1=form.password1.data\npassword_confirmation = params[:password_confirmation]\npassword=settings.DB_PASSWORD"},
		{"tool-values", "ldapsearch -x -w ~/.pgpass -D cn=admin\nkeytool -list -storepass *default\nsetx DB_PASSWORD %APPDATA%\\pw.txt\nvault login os.environ['PW']"},
	})
}

// TestReview66SecretsRemoved: nested bracketed names, tools' arguments in
// exec forms, numbered token names in a form.
func TestReview66SecretsRemoved(t *testing.T) {
	checkGoes(t, []reviewSecret{
		{"nested-brackets", "items[0][password]=Zq7xZ8mR3pY9wB7t\norder[user][password]=Zq7xZ8mR3pY9wB7u", "Zq7xZ8mR3pY9wB7t|Zq7xZ8mR3pY9wB7u"},
		{"exec-form-argument", `CMD ["rabbitmqctl", "add_user", "bob", "Zq7xZ8mR3pY9wB7t"]` + "\n" + `subprocess.run(["vault", "login", "Zq7xZ8mR3pY9wB7u"])`, "Zq7xZ8mR3pY9wB7t|Zq7xZ8mR3pY9wB7u"},
		{"numbered-token-form", "a=1&token_2=Summer2024!&token2=Summer2024?", "Summer2024!|Summer2024?"},
		{"numbered-password", "password1=S3cr3tPass99", "S3cr3tPass99"},
	})
}

// TestReview67: an htpasswd password given as a path, a glob or code
// stays, as Django's form code under numbered names does (it was cut at
// its quote); a value quoted whole is a literal whatever it holds; a
// list that starts a process over several lines, and a log's [INFO].
func TestReview67(t *testing.T) {
	checkStays(t, []reviewText{
		{"htpasswd-references", "htpasswd -nbB admin *default\nhtpasswd -nbB admin ~/.pgpass\nhtpasswd -nbB admin %APPDATA%\\pw.txt\nhtpasswd -nbB admin os.environ['PW']"},
		{"django-form-code", `password1 = forms.CharField(label=_("Password"), widget=forms.PasswordInput)` + "\n" + `password2 = forms.CharField(label=_("Password confirmation"))`},
	})
	checkGoes(t, []reviewSecret{
		{"quoted-whole", "zip -P 'My(Secret)1' a.zip f\nkeytool -list -storepass '*Star1Pw'\nhtpasswd -nbB admin 'S3cr(et)99'", "My(Secret)1|*Star1Pw|S3cr(et)99"},
		{"exec-form-lines", "subprocess.run(\n    [\"vault\", \"login\", \"hvs.CAESIJx9abcdefghij\"],\n    check=True)", "hvs.CAESIJx9abcdefghij"},
		{"log-tag", "[INFO] sshpass -p S3cretPw9 ssh h\n[2/6] zip -P S3cretPw8 a f", "S3cretPw9|S3cretPw8"},
	})
}
