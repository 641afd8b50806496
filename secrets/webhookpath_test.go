package secrets

import (
	"net/url"
	"strings"
	"testing"
)

// webhookPathSecrets are Slack's and Discord's webhook secrets in a path
// on a host of their own: a test's stand-in server for the service.
func webhookPathSecrets() []reviewSecret {
	discord := "Zk21q8R2mL4xV7nP1tK9wS3abcDEF_ghiJKL-mnoPQR_abcDEF_ghiJKL-mnoPQR12345"
	return []reviewSecret{
		{"slack-local", "POST http://127.0.0.1:8080/services/T0123ABCD/B0456EFGH/Zk21q8R2mL4xV7nP1tK9wS3X", "Zk21q8R2mL4xV7nP1tK9wS3X"},
		{"slack-json", `{"webhook": "http://slack.test/services/T0123ABCD/B0456EFGH/Zk21q8R2mL4xV7nP1tK9wS3X"}`, "Zk21q8R2mL4xV7nP1tK9wS3X"},
		{"discord-local", "http://localhost:9000/api/webhooks/1122334455667788990/" + discord, discord},
	}
}

// webhookPathBenign are paths of the same beginnings that carry no
// secret: a webhook API's listing, a service's status page, ids of
// other lengths.
func webhookPathBenign() []reviewText {
	return []reviewText{
		{"webhook-deliveries", "GET /api/webhooks/12/deliveries?page=2"},
		{"services-status", "GET /services/TEAMS/BUILDS/status and /services/T0123ABCD/B0456EFGH/short"},
		{"github-hooks", "POST /repos/octo/app/hooks/12345678/pings"},
	}
}

func TestWebhookPathSecretsRemoved(t *testing.T) {
	checkGoes(t, webhookPathSecrets())
	x, err := Rules{}.Redactor()
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse("http://127.0.0.1:8080/services/T0123ABCD/B0456EFGH/Zk21q8R2mL4xV7nP1tK9wS3X")
	if got := x.URL(u); strings.Contains(got, "Zk21q8R2mL4xV7nP1tK9wS3X") {
		t.Errorf("Expected the webhook's secret out of the stored URL, but it is %s", got)
	}
}

func TestWebhookPathBenignStay(t *testing.T) {
	checkStays(t, webhookPathBenign())
}
