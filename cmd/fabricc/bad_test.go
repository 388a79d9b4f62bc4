package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestBadExamples runs `fabricc validate --compact` on every
// examples/bad/*.hcl from the repository root and requires exactly the
// diagnostics in the matching .want file, and exit status 1 (0 for a
// warn-*.hcl, whose mistake is a warning).
func TestBadExamples(t *testing.T) {
	t.Chdir(filepath.Join("..", ".."))
	hcls, err := filepath.Glob(filepath.Join("examples", "bad", "*.hcl"))
	if err != nil || len(hcls) == 0 {
		t.Fatalf("no examples/bad/*.hcl found (err %v)", err)
	}
	for _, src := range hcls {
		name := strings.TrimSuffix(filepath.Base(src), ".hcl")
		t.Run(name, func(t *testing.T) {
			code, got, stderr := fabricc(t, "validate", "--compact", filepath.ToSlash(src))
			wantCode := 1
			if strings.HasPrefix(name, "warn-") {
				wantCode = 0
			}
			if code != wantCode {
				t.Errorf("exit status %d, want %d (a bad example must fail, a warn- one warn); stderr:\n%s", code, wantCode, stderr)
			}
			want := strings.TrimSuffix(src, ".hcl") + ".want"
			if *update {
				if err := os.WriteFile(want, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			wb, err := os.ReadFile(want)
			if err != nil {
				t.Fatalf("%v: run `go test ./cmd/fabricc -run TestBadExamples -update` and review the new .want", err)
			}
			if d := cmp.Diff(strings.Split(string(wb), "\n"), strings.Split(got, "\n")); d != "" {
				t.Errorf("%s mismatch (-want +got):\n%s", want, d)
			}
		})
	}
}

// TestAIPodTrial pins what validate says about the AI-pod trial of issue
// 13 (testdata/ai-pod: ten mistakes in one pod, see its fabric.hcl): one
// diagnostic per mistake that lowering can see, no follow-ons.
// testdata/ai-pod/trial.sh runs the later stages with a built binary.
func TestAIPodTrial(t *testing.T) {
	code, got, _ := fabricc(t, "validate", "--compact", filepath.Join("testdata", "ai-pod"))
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	want := filepath.Join("testdata", "ai-pod.want")
	if *update {
		if err := os.WriteFile(want, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	wb, err := os.ReadFile(want)
	if err != nil {
		t.Fatalf("%v: run go test ./cmd/fabricc -run TestAIPodTrial -update", err)
	}
	if d := cmp.Diff(strings.Split(string(wb), "\n"), strings.Split(got, "\n")); d != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", want, d)
	}
}
