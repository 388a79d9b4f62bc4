package push

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/fabricc/fabricc/artifacts"
	"github.com/fabricc/fabricc/inventory"
)

// TestLoadArtifactsChecksTheManifest: push --artifacts reads a build
// folder only through its manifest: a file changed, added, replaced by
// a link or missing is refused with the file named.
func TestLoadArtifactsChecksTheManifest(t *testing.T) {
	_, set := demo(t)
	for _, tc := range []struct {
		name  string
		spoil func(t *testing.T, dir string)
		want  string // "" loads
	}{
		{"as built", func(*testing.T, string) {}, ""},
		{"pushed file edited", func(t *testing.T, dir string) {
			appendTo(t, filepath.Join(dir, "leaf1", "leaf1.nvue.yaml"), "# edited\n")
		}, "leaf1/leaf1.nvue.yaml: changed after `fabricc build`: its SHA-256 is "},
		{"other file edited", func(t *testing.T, dir string) {
			appendTo(t, filepath.Join(dir, "gpu01", "gpu01.linux.sh"), "rm -rf /\n")
		}, "gpu01/gpu01.linux.sh: changed after `fabricc build`"},
		{"model edited", func(t *testing.T, dir string) {
			appendTo(t, filepath.Join(dir, "model.json"), " ")
		}, "model.json: changed after `fabricc build`"},
		{"stray config elsewhere", func(t *testing.T, dir string) {
			write(t, filepath.Join(dir, "old", "spine1.eos.cfg"), "hostname evil\n")
		}, "old/spine1.eos.cfg: not listed in manifest.json; push --artifacts uses only what `fabricc build` wrote"},
		{"stray file at the top", func(t *testing.T, dir string) {
			write(t, filepath.Join(dir, "notes.txt"), "x\n")
		}, "notes.txt: not listed in manifest.json"},
		{"link instead of a file", func(t *testing.T, dir string) {
			p := filepath.Join(dir, "spine1", "spine1.eos.cfg")
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("/etc/hostname", p); err != nil {
				t.Fatal(err)
			}
		}, "spine1/spine1.eos.cfg: not a regular file"},
		{"script writable by others", func(t *testing.T, dir string) {
			if err := os.Chmod(filepath.Join(dir, "gpu01", "gpu01.linux.sh"), 0o777); err != nil {
				t.Fatal(err)
			}
		}, "gpu01/gpu01.linux.sh: writable by group or others (-rwxrwxrwx), so any of them could change what push sends to a switch or verify runs on a host;"},
		{"config writable by the group", func(t *testing.T, dir string) {
			if err := os.Chmod(filepath.Join(dir, "leaf1", "leaf1.nvue.yaml"), 0o664); err != nil {
				t.Fatal(err)
			}
		}, "leaf1/leaf1.nvue.yaml: writable by group or others (-rw-rw-r--)"},
		{"listed file missing", func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, "leaf3", "leaf3.onyx.cli")); err != nil {
				t.Fatal(err)
			}
		}, "leaf3/leaf3.onyx.cli: listed in manifest.json but missing"},
		{"pushed file edited and its manifest entry too", func(t *testing.T, dir string) {
			// The reviewer's case: an "exit" leaves EOS's configure
			// session, and what follows would run as commands, even in
			// a dry run. The manifest is rewritten to match.
			p := filepath.Join(dir, "spine1", "spine1.eos.cfg")
			old := sha256File(t, p)
			appendTo(t, p, "exit\nbash timeout 10 echo PWNED > /mnt/flash/pwned\n")
			m := filepath.Join(dir, "manifest.json")
			data, err := os.ReadFile(m)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(m, []byte(strings.Replace(string(data), old, sha256File(t, p), 1)), 0o644); err != nil {
				t.Fatal(err)
			}
		}, "spine1/spine1.eos.cfg is not what fabricc renders from the folder's model.json: the folder was changed after `fabricc build`, or built by another fabricc version; build it again with this one"},
		{"no manifest", func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, "manifest.json")); err != nil {
				t.Fatal(err)
			}
		}, "--artifacts takes a folder written by `fabricc build FABRIC -o "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			if err := artifacts.Write(dir, set); err != nil {
				t.Fatal(err)
			}
			tc.spoil(t, dir)
			b, err := LoadArtifacts(dir)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("a clean build folder: %v", err)
			case tc.want == "":
				if len(b.Configs) != 6 || !strings.Contains(string(b.Configs["spine1"]), "! fabric multivendor-clos, switch spine1") {
					t.Errorf("loaded %d configs; spine1:\n%s", len(b.Configs), b.Configs["spine1"])
				}
			case err == nil || !strings.Contains(filepath.ToSlash(err.Error()), tc.want):
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestPathBuildIsFolderBuild checks that push of a fabric path works
// from what push --artifacts reads of its build folder: the same
// configuration bytes for every switch, and the compiled model equal to
// the one decoded from model.json.
func TestPathBuildIsFolderBuild(t *testing.T) {
	f, set := demo(t)
	dir := filepath.Join(t.TempDir(), "out")
	if err := artifacts.Write(dir, set); err != nil {
		t.Fatal(err)
	}
	folder, err := LoadArtifacts(dir)
	if err != nil {
		t.Fatal(err)
	}
	devs, err := artifacts.RenderSwitches(f)
	if err != nil {
		t.Fatal(err)
	}
	path := FromDevices(f, devs)
	if len(path.Configs) != len(f.Switches) {
		t.Fatalf("%d configurations for %d switches", len(path.Configs), len(f.Switches))
	}
	if d := cmp.Diff(folder.Configs, path.Configs); d != "" {
		t.Errorf("configurations differ (-folder +path):\n%s", d)
	}
	if d := cmp.Diff(folder.Fabric, path.Fabric); d != "" {
		t.Errorf("models differ (-model.json +compiled):\n%s", d)
	}
}

// TestPushed: LoadArtifacts keeps the bytes of a switch's own
// configuration file alone; every other file is only hashed.
func TestPushed(t *testing.T) {
	for rel, want := range map[string]bool{
		"leaf1/leaf1.eos.cfg":           true,
		"leaf3/leaf3.onyx.cli":          true,
		"leaf1/leaf1.nvue.yaml":         true,
		"leaf1/leaf1.nvue.sh":           false,
		"leaf1/leaf1.openconfig.json":   false,
		"gpu01/gpu01.linux.sh":          false,
		"leaf1/leaf2.eos.cfg":           false,
		"a/leaf1/leaf1.eos.cfg":         false,
		"leaf1.eos.cfg":                 false,
		"model.json":                    false,
		"leaf1/leaf1.eos.cfg/x.eos.cfg": false,
	} {
		if got := pushed(rel); got != want {
			t.Errorf("pushed(%q) = %v, want %v", rel, got, want)
		}
	}
}

func appendTo(t *testing.T, p, text string) {
	t.Helper()
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

func write(t *testing.T, p, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// sha256File is the hex SHA-256 of the file at p.
func sha256File(t *testing.T, p string) string {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// TestTargetsRefuseAReleaseWithoutPushCommands: a Cumulus switch declared
// at a release before `nv config revision` (5.5.0, NVUE Command
// Reference, Config Commands) is refused before anything connects; the
// build accepts it (5.3 and later), since only push needs the command.
func TestTargetsRefuseAReleaseWithoutPushCommands(t *testing.T) {
	for _, tc := range []struct {
		release string
		want    string // "" accepted
	}{
		{"5.4.0", `switch "leaf1" declares os_version 5.4.0, and push needs 5.5.0 or later: ` +
			"`nv config revision`, which push reads the applied revision with, came in Cumulus Linux 5.5.0 (NVUE Command Reference, Config Commands, Version History); " +
			"upgrade the switch and its os_version, or apply the built configuration by hand"},
		{"5.4", `switch "leaf1" declares os_version 5.4, and push needs 5.5.0 or later`},
		{"5.5", ""},
		{"5.5.0", ""},
		{"5.10.1", ""},
	} {
		f, set := demo(t)
		f.Switch("leaf1").OSVersion = tc.release
		_, err := FromSet(f, set).Targets([]*inventory.Device{{Name: "leaf1"}, {Name: "spine1"}})
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)) {
			t.Errorf("release %s: %v; want %q", tc.release, err, tc.want)
		}
	}
}
