package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestChangesExamples keeps docs/changes.md true: its rollout example is
// what fabricc plan prints for the MTU decrease it describes, and its
// step 1 of make before break (a second lossless class) compiles into
// the plan test fabric with no rollout hazard.
func TestChangesExamples(t *testing.T) {
	t.Chdir(filepath.Join("..", ".."))
	src, err := os.ReadFile(filepath.Join("docs", "changes.md"))
	if err != nil {
		t.Fatal(err)
	}
	base := filepath.Join("plan", "testdata", "base")
	fabric, err := os.ReadFile(filepath.Join(base, "fabric.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	rollout := regexp.MustCompile("(?s)\n```\n(rollout .*?)```").FindStringSubmatch(string(src))
	step1 := regexp.MustCompile("(?s)```hcl\n(.*?)```").FindStringSubmatch(string(src))
	if rollout == nil || step1 == nil {
		t.Fatal("docs/changes.md lacks the rollout example or the qos block of step 1")
	}
	lowMTU := strings.NewReplacer("mtu   = 9216", "mtu   = 4500", "mtu       = 9000", "mtu       = 4200").Replace(string(fabric))
	qos := regexp.MustCompile(`(?m)^\s+`).ReplaceAllString(step1[1], "")
	second := strings.Replace(string(fabric), "qos {\n  profile = \"nvidia-roce\"\n}\n", qos, 1)
	tests := []struct {
		name, head, want string
	}{
		{"MTU decrease", lowMTU, "\n\n" + rollout[1]},
		{"step 1: a second lossless class", second, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "fabric")
			writeFabric(t, dir, tc.head)
			code, out, errs := fabricc(t, "plan", "--base", base, dir)
			if code != 2 {
				t.Fatalf("exit %d:\n%s", code, errs)
			}
			if tc.want != "" && !strings.Contains(out, tc.want) {
				t.Errorf("docs/changes.md shows:\n%s\nwhich is not in what fabricc plan prints:\n%s", tc.want, out)
			}
			if tc.want == "" && strings.Contains(out, "\nrollout ") {
				t.Errorf("docs/changes.md's step shows a rollout hazard:\n%s", out)
			}
			if tc.want == "" && !strings.Contains(out, "class roce4: added") {
				t.Errorf("the step's class is not in the plan:\n%s", out)
			}
		})
	}
}
