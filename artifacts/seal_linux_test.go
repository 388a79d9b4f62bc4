package artifacts

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// TestSealTrust: a rebuild into a sealed build folder keeps unchanged
// files on the manifest's digests without reading them back; without the
// seal, or once manifest.json changed after it, every kept file is read
// back first. (TestBuildIncremental checks that an edited file is never
// kept, even with its old modification time put back.)
func TestSealTrust(t *testing.T) {
	f, opts := compileChanged(t, "multivendor-clos", nil)
	dir := filepath.Join(t.TempDir(), "out")
	build := func() *Result {
		t.Helper()
		res, err := Build(context.Background(), dir, f, opts)
		if err != nil {
			t.Fatal(err)
		}
		if res.Linked > 0 && res.Written != 0 {
			t.Fatalf("a rebuild of the same fabric wrote %d files", res.Written)
		}
		return res
	}
	build()
	if _, err := unix.Getxattr(dir, sealAttr, make([]byte, 32)); err != nil {
		t.Skipf("the temporary folder's file system keeps no extended attributes (%v): every rebuild compares", err)
	}
	res := build()
	if res.Compared != 0 || res.Linked != res.Files {
		t.Errorf("sealed folder: %d of %d files kept, %d read back; want all kept, none read back", res.Linked, res.Files, res.Compared)
	}
	if err := unix.Removexattr(dir, sealAttr); err != nil {
		t.Fatal(err)
	}
	if res := build(); res.Compared != res.Linked {
		t.Errorf("unsealed folder: %d of %d kept files read back, want all", res.Compared, res.Linked)
	}
	// The rebuild sealed the folder again; a manifest changed after the
	// seal (here only its mode, which sets its ctime) voids it.
	if err := os.Chmod(filepath.Join(dir, ManifestFile), 0o644); err != nil {
		t.Fatal(err)
	}
	if res := build(); res.Compared != res.Linked {
		t.Errorf("manifest changed after the seal: %d of %d kept files read back, want all", res.Compared, res.Linked)
	}
}
