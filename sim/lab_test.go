package sim

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// labFabric reads the multivendor example's compiled model from golden/.
func labFabric(t *testing.T) *model.Fabric {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "golden", "multivendor-clos", "model.json"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := model.Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestLabWritesNewSecretFiles: a lab folder given with --dir that already
// holds a secret file readable by others and a link where a secret goes
// gets new 0600 files; the link's target is not written through.
func TestLabWritesNewSecretFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lab")
	secrets := filepath.Join(dir, "secrets")
	if err := os.MkdirAll(secrets, 0o700); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(t.TempDir(), "stolen")
	if err := os.WriteFile(target, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(secrets, "leaf1")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(secrets, "leaf2"), []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	lab, err := StartLab(context.Background(), labFabric(t), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer lab.Close()
	if data, _ := os.ReadFile(target); len(data) != 0 {
		t.Errorf("a password was written through the link into %s", target)
	}
	for _, name := range []string{"secrets/leaf1", "secrets/leaf2", "inventory.hcl", "known_hosts"} {
		fi, err := os.Lstat(filepath.Join(dir, name))
		if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v %v, want a regular 0600 file", name, fi.Mode(), err)
		}
	}
}

// TestLabRefusesAFolderOthersWrite: a --dir folder that group or others
// may write into is refused before any simulator starts.
func TestLabRefusesAFolderOthersWrite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lab")
	if err := os.MkdirAll(filepath.Join(dir, "secrets"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if lab, err := StartLab(context.Background(), labFabric(t), dir, nil); err == nil {
		lab.Close()
		t.Fatal("a world-writable lab folder was used")
	} else if want := dir + " is not a folder only you can write"; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %q, want one starting %q", err, want)
	}
}
