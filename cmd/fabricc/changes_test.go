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
	steps := regexp.MustCompile("(?s)```hcl\n(.*?)```").FindAllStringSubmatch(string(src), 2)
	if rollout == nil || len(steps) < 2 {
		t.Fatal("docs/changes.md lacks the rollout example or the qos blocks of steps 1 and 3")
	}
	lowMTU := strings.NewReplacer("mtu   = 9216", "mtu   = 4500", "mtu       = 9000", "mtu       = 4200").Replace(string(fabric))
	withQoS := func(block string) string {
		qos := regexp.MustCompile(`(?m)^\s+`).ReplaceAllString(block, "")
		return strings.Replace(string(fabric), "qos {\n  profile = \"nvidia-roce\"\n}\n", qos, 1)
	}
	step1 := withQoS(steps[0][1])
	step2 := strings.Replace(step1, `roce_class = "roce"`, `roce_class = "roce4"`, 1)
	tests := []struct {
		name, base, head, want string
	}{
		{"MTU decrease", string(fabric), lowMTU, "\n\n" + rollout[1]},
		{"step 1: a second lossless class", string(fabric), step1, "class roce4: added"},
		{"step 2: roce_class moves", step1, step2, "qos: RoCE class roce -> roce4"},
		{"step 3: the old class goes", step2, withQoS(steps[1][1]), "class roce: removed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tmp := t.TempDir()
			baseDir, headDir := filepath.Join(tmp, "base"), filepath.Join(tmp, "head")
			writeFabric(t, baseDir, tc.base)
			writeFabric(t, headDir, tc.head)
			code, out, errs := fabricc(t, "plan", "--base", baseDir, headDir)
			if code != 2 {
				t.Fatalf("exit %d:\n%s", code, errs)
			}
			if !strings.Contains(out, tc.want) {
				t.Errorf("docs/changes.md's step should plan %q; fabricc plan prints:\n%s", tc.want, out)
			}
			if !strings.HasPrefix(tc.name, "MTU") && strings.Contains(out, "\nrollout ") {
				t.Errorf("docs/changes.md's step shows a rollout hazard:\n%s", out)
			}
		})
	}
}
