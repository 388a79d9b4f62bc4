package push

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/internal/redact/redacttest"
)

// TestEOSDiffRedactsVendorSecrets: a session diff whose context, added
// and removed lines carry a credential, for each word of package redact
// (the vendors' own keywords; the lab's preload hides the same), is cut
// after the line's first credential word, and no credential is left.
func TestEOSDiffRedactsVendorSecrets(t *testing.T) {
	for _, l := range redacttest.Lines {
		in := "--- system:/running-config\n+++ session:/x\n@@ -1,3 +1,3 @@\n " + l.Text + "\n-" + l.Text + "\n+" + l.Text + "\n"
		cut := l.Shown + " <redacted>"
		want := "@@ -1,3 +1,3 @@\n " + cut + "\n-" + cut + "\n+" + cut + "\n"
		got := eosDiff(in)
		if got != want {
			t.Errorf("%s line %q: eosDiff = %q, want %q", l.Platform, l.Shown, maskSecrets(got, l.Secrets), want)
		}
	}
}

// maskSecrets replaces each secret in s, so that a failing test does not
// print it.
func maskSecrets(s string, secrets []string) string {
	for _, x := range secrets {
		s = strings.ReplaceAll(s, x, "<a credential>")
	}
	return s
}
