package freebsd

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// zfsLoader is a ZFS-root host's loader.conf(5): lines that must survive
// every edit, and two copies of a line conf_set replaces.
const zfsLoader = "# comment line 1\nzfs_load=\"YES\"\nmlx5en_load=\"NO\"\n" +
	"vfs.root.mountfrom=\"zfs:zroot/ROOT/default\"\nmlx5en_load=\"NO\"\n"

// TestConfSet: conf_set replaces the NAME= lines of the file and keeps
// every other line, its mode and no stray copy beside it; a file that
// ends without a newline or does not exist yet is fine too.
func TestConfSet(t *testing.T) {
	tests := []struct {
		name, before    string // before "" with missing: no file
		missing         bool
		file, set, want string
	}{
		{"replaces both copies", zfsLoader, false, "loader.conf", "mlx5en_load YES",
			"# comment line 1\nzfs_load=\"YES\"\nvfs.root.mountfrom=\"zfs:zroot/ROOT/default\"\nmlx5en_load=\"YES\"\n"},
		{"last line without newline", "zfs_load=\"YES\"", false, "loader.conf", "mlx5en_load YES",
			"zfs_load=\"YES\"\nmlx5en_load=\"YES\"\n"},
		{"only the replaced line, grep status 1", "hw.mlxen0.conf.rx_ppp=0\n", false, "sysctl.conf", "hw.mlxen0.conf.rx_ppp 8",
			"hw.mlxen0.conf.rx_ppp=8\n"},
		{"dots are literal", "hwXmlxen0.conf.rx_ppp=0\n", false, "sysctl.conf", "hw.mlxen0.conf.rx_ppp 8",
			"hwXmlxen0.conf.rx_ppp=0\nhw.mlxen0.conf.rx_ppp=8\n"},
		{"no file yet", "", true, "loader.conf", "mlx5en_load YES", "mlx5en_load=\"YES\"\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, tc.file)
			if !tc.missing {
				if err := os.WriteFile(path, []byte(tc.before), 0o640); err != nil {
					t.Fatal(err)
				}
			}
			out, err := shRun(t, nil, "conf_set "+path+" "+tc.set+"\n")
			if err != nil {
				t.Fatalf("conf_set: %v\n%s", err, out)
			}
			got, _ := os.ReadFile(path)
			if string(got) != tc.want {
				t.Errorf("file =\n%s\nwant\n%s", got, tc.want)
			}
			if fi, err := os.Stat(path); err == nil && !tc.missing && fi.Mode().Perm() != 0o640 {
				t.Errorf("mode %v, want 0640 kept", fi.Mode().Perm())
			}
			if left, _ := filepath.Glob(path + ".*"); len(left) != 0 {
				t.Errorf("left behind %v", left)
			}
		})
	}
}

// TestConfSetFailure: grep exiting 2 after part of its output (what it
// does when the disk fills: "grep: write error: No space left on
// device"), or a copy that cannot be made, fails the step and leaves the
// file exactly as it was, with no copy beside it; before the fix the
// truncated copy replaced loader.conf and the step counted as done.
func TestConfSetFailure(t *testing.T) {
	realGrep, err := exec.LookPath("grep")
	if err != nil {
		t.Skip("no grep")
	}
	tests := []struct {
		name  string
		fakes map[string]string
		want  string
	}{
		{"grep write error", map[string]string{"grep": "#!/bin/sh\ncase \"$1\" in -v) " + realGrep + " \"$@\" | head -c 20; echo 'grep: write error: No space left on device' >&2; exit 2 ;; esac\nexec " + realGrep + " \"$@\"\n"},
			"fabricc: error: /boot/loader.conf mlx5en_load: "},
		{"copy fails", map[string]string{"cp": "#!/bin/sh\necho 'cp: No space left on device' >&2\nexit 1\n"},
			"fabricc: error: /boot/loader.conf mlx5en_load: "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "loader.conf")
			if err := os.WriteFile(path, []byte(zfsLoader), 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := shRun(t, tc.fakes, "ensure /boot/loader.conf mlx5en_load YES NO conf_set "+path+" mlx5en_load YES\necho not reached\n")
			if err == nil || strings.Contains(out, "not reached") || !strings.Contains(out, tc.want) ||
				!strings.Contains(out, "fabricc: "+path+" not changed: ") {
				t.Errorf("err %v, want the step to fail:\n%s", err, out)
			}
			if got, _ := os.ReadFile(path); string(got) != zfsLoader {
				t.Errorf("loader.conf changed:\n%s", got)
			}
			if left, _ := filepath.Glob(path + ".*"); len(left) != 0 {
				t.Errorf("left behind %v", left)
			}
		})
	}
}

// TestConfSetDryRunText: the command a dry run prints for conf_set, run
// by sh, makes the same file conf_set does.
func TestConfSetDryRunText(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a", "loader.conf"), filepath.Join(dir, "b", "loader.conf")
	for _, p := range []string{a, b} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(zfsLoader), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	text, err := shRun(t, nil, "cmd_text conf_set "+b+" mlx5en_load YES\n")
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if !strings.HasPrefix(text, "t=$(mktemp "+b+".XXXXXX) && cp -p "+b+" \"$t\" && { grep -v '^mlx5en_load=' "+b) {
		t.Errorf("dry-run text %q", text)
	}
	if out, err := shRun(t, nil, "conf_set "+a+" mlx5en_load YES\n"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if out, err := exec.Command("sh", "-c", text).CombinedOutput(); err != nil {
		t.Fatalf("sh -c %q: %v\n%s", text, err, out)
	}
	ga, _ := os.ReadFile(a)
	gb, _ := os.ReadFile(b)
	if string(ga) != string(gb) || !strings.HasSuffix(string(ga), "vfs.root.mountfrom=\"zfs:zroot/ROOT/default\"\nmlx5en_load=\"YES\"\n") {
		t.Errorf("conf_set made\n%s\nthe dry-run text\n%s", ga, gb)
	}
}
