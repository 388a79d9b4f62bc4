package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestVersionRecorded: the fabricc version is in version --json, in the
// --json envelope of every command and in push's --report, so that a
// pipeline's record says which fabricc made it; never in a build's
// files, which must stay byte-identical across fabricc versions.
func TestVersionRecorded(t *testing.T) {
	saved := version
	version = "v9.8.7"
	t.Cleanup(func() { version = saved })
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", "tutorial", "fabric.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	writeFabric(t, "fab", string(src))

	code, stdout, _ := fabricc(t, "version", "--json")
	want := `{
  "format_version": 1,
  "fabricc_version": "v9.8.7",
  "command": "version",
  "ok": true,
  "diagnostics": [],
  "errors": 0,
  "warnings": 0,
  "result": {
    "version": "v9.8.7",
    "go": "` + runtime.Version() + `",
    "os": "` + runtime.GOOS + `",
    "arch": "` + runtime.GOARCH + `"
  }
}
`
	if code != 0 || stdout != want {
		t.Errorf("version --json: exit %d\n%s\nwant\n%s", code, stdout, want)
	}
	const field = "\n  \"fabricc_version\": \"v9.8.7\",\n"
	for _, args := range [][]string{{"validate", "fab"}, {"build", "fab", "-o", "out"}, {"plan", "--base", "fab", "fab"}, {"models"}} {
		_, stdout, _ := fabricc(t, append(args, "--json")...)
		if !strings.HasPrefix(stdout, "{\n  \"format_version\": 1,"+field) {
			t.Errorf("%v --json: no fabricc_version after format_version:\n%.300s", args, stdout)
		}
	}
	for _, name := range []string{"manifest.json", "model.json", "fabric.md"} {
		data, err := os.ReadFile(filepath.Join("out", name))
		if err != nil || strings.Contains(string(data), "v9.8.7") {
			t.Errorf("out/%s holds the fabricc version (or cannot be read: %v)", name, err)
		}
	}
	inv := "defaults {\n  username     = \"admin\"\n  password_env = \"FABRICC_TEST_UNSET\"\n}\n\ndevice \"leaf1\" {\n  address = \"127.0.0.1\"\n  port    = 1\n}\n"
	if err := os.WriteFile("inv.hcl", []byte(inv), 0o600); err != nil {
		t.Fatal(err)
	}
	fabricc(t, "push", "--yes", "--artifacts", "out", "-i", "inv.hcl", "--insecure-ignore-host-key", "--report", "report.json")
	report, err := os.ReadFile("report.json")
	if err != nil || !strings.HasPrefix(string(report), "{"+field+"  \"id\": ") {
		t.Errorf("push --report: want fabricc_version first (%v):\n%.300s", err, report)
	}
}
