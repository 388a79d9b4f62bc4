package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/fabricc/fabricc/artifacts"
	"github.com/fabricc/fabricc/push"
)

// TestReportNamesItsBuild: verify, diff and
// push say which build they worked from, in --json and --report: from
// --artifacts the folder, the SHA-256 of its manifest.json and the
// sources digest it records; from a fabric PATH the path and the same
// sources digest, computed as fabricc build computes it. Before, a
// drift alert could not say whether it checked build N or N+1.
func TestReportNamesItsBuild(t *testing.T) {
	dir, _ := labFor(t)
	inv := filepath.Join(dir, "inventory.hcl")
	_, _, out := closBuild(t)
	raw, err := os.ReadFile(filepath.Join(out, artifacts.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	m, err := artifacts.ReadManifest(out)
	if err != nil || len(m.Inputs.SourcesSHA256) != 64 {
		t.Fatalf("manifest: %v, sources %q", err, m.Inputs.SourcesSHA256)
	}
	sum := sha256.Sum256(raw)
	fromDir := push.BuildInfo{Dir: out, ManifestSHA256: hex.EncodeToString(sum[:]), SourcesSHA256: m.Inputs.SourcesSHA256}
	fromPath := push.BuildInfo{Path: clos, SourcesSHA256: m.Inputs.SourcesSHA256}
	report := filepath.Join(t.TempDir(), "push.json")
	for _, tc := range []struct {
		args []string
		want push.BuildInfo
	}{
		{[]string{"verify", "--artifacts", out, "-i", inv, "--json"}, fromDir},
		{[]string{"diff", "--artifacts", out, "-i", inv, "--json"}, fromDir},
		{[]string{"verify", clos, "-i", inv, "--json"}, fromPath},
		{[]string{"push", "--yes", "--artifacts", out, "-i", inv, "--json", "--report", report}, fromDir},
	} {
		_, stdout, stderr := fabricc(t, tc.args...)
		var env struct {
			Result struct{ Build *push.BuildInfo } `json:"result"`
		}
		if err := json.Unmarshal([]byte(stdout), &env); err != nil || env.Result.Build == nil || *env.Result.Build != tc.want {
			t.Errorf("%v: build %+v (%v); want %+v\n%s", tc.args, env.Result.Build, err, tc.want, stderr)
		}
	}
	var rep struct{ Build *push.BuildInfo }
	readJSON(t, report, &rep)
	if rep.Build == nil || *rep.Build != fromDir {
		t.Errorf("--report: build %+v, want %+v", rep.Build, fromDir)
	}
}
