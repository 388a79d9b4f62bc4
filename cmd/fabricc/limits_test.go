package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestBadInputExitsOne: input built to crash or hang fabricc (nesting that
// overflowed the stack and exited 2 through the Go runtime, a device or a
// FIFO as the fabric, a build over someone else's folder) ends in exit
// status 1 with a located message; 2 stays for a wrong command line.
func TestBadInputExitsOne(t *testing.T) {
	dir := t.TempDir()
	deep := filepath.Join(dir, "deep.hcl")
	src := "fabric \"f\" {\n  description = " + strings.Repeat("(", 300000) + "1" + strings.Repeat(")", 300000) + "\n}\n"
	if err := os.WriteFile(deep, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "pipe.hcl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	project := filepath.Join(dir, "project")
	writeFile(t, filepath.Join(project, "main.go"), "package main\n")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"validate", "--compact", deep}, 1, deep + ":2:80: error: Nesting too deep"},
		{[]string{"validate", "--compact", "/dev/zero"}, 1, "/dev/zero:1:1: error: Not a regular file"},
		{[]string{"validate", "--compact", fifo}, 1, fifo + ":1:1: error: Not a regular file"},
		{[]string{"build", "../../examples/homelab-40g", "-o", project}, 1, project + " is not empty and holds no manifest.json"},
		{[]string{"validate", "--no-such-flag", deep}, 2, "unknown flag"},
	} {
		code, stdout, stderr := fabricc(t, tc.args...)
		if code != tc.code || !strings.Contains(stdout+stderr, tc.want) {
			t.Errorf("fabricc %s: exit %d, want %d with %q\nstdout: %.300s\nstderr: %.300s", strings.Join(tc.args, " "), code, tc.code, tc.want, stdout, stderr)
		}
	}
	if data, err := os.ReadFile(filepath.Join(project, "main.go")); err != nil || string(data) != "package main\n" {
		t.Errorf("the refused build changed %s", project)
	}
}
