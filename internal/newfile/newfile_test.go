package newfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestWrite: the file gets exactly the bytes and the mode (also where
// the umask would take bits away), and an existing name is refused with
// os's error, its bytes untouched.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	for _, mode := range []fs.FileMode{0o644, 0o755, 0o666, 0o600} {
		p := filepath.Join(dir, "f"+strconv.FormatUint(uint64(mode), 8))
		data := []byte("#!/bin/sh\necho " + mode.String() + "\n")
		if err := Write(p, mode, data, true); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(p)
		if err != nil || string(got) != string(data) {
			t.Errorf("%s holds %q (%v), want %q", p, got, err, data)
		}
		fi, err := os.Stat(p)
		if err != nil || fi.Mode().Perm() != mode {
			t.Errorf("%s has mode %v (%v), want %v", p, fi.Mode().Perm(), err, mode)
		}
		err = Write(p, mode, []byte("other"), true)
		var pe *fs.PathError
		if !errors.Is(err, fs.ErrExist) || !errors.As(err, &pe) || pe.Op != "open" || pe.Path != p {
			t.Errorf("writing %s again: %v, want an open *fs.PathError that is fs.ErrExist", p, err)
		}
		if got, _ := os.ReadFile(p); string(got) != string(data) {
			t.Errorf("a refused write changed %s to %q", p, got)
		}
	}
	if err := Write(filepath.Join(dir, "missing", "f"), 0o644, nil, true); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("writing below a missing folder: %v, want fs.ErrNotExist", err)
	}
}

// BenchmarkWrite and BenchmarkOSWrite write 16 KB files, the size of
// a host script, into TMPDIR (a tmpfs such as /dev/shm shows the system
// calls' cost without the disk's).
func BenchmarkWrite(b *testing.B) {
	benchWrite(b, func(p string, data []byte) error { return Write(p, 0o644, data, false) })
}

func BenchmarkOSWrite(b *testing.B) {
	benchWrite(b, func(p string, data []byte) error {
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return err
		}
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	})
}

func benchWrite(b *testing.B, write func(string, []byte) error) {
	dir := b.TempDir()
	data := make([]byte, 16<<10)
	b.SetBytes(int64(len(data)))
	for i := 0; b.Loop(); i++ {
		if err := write(filepath.Join(dir, strconv.Itoa(i)), data); err != nil {
			b.Fatal(err)
		}
	}
}

// TestReplace: the file gets the bytes and exactly the mode, an existing
// file of another mode is replaced, and a link planted at the name is
// replaced, not written through.
func TestReplace(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "report.json")
	if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Replace(p, "report.json.tmp-", 0o600, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(p); string(got) != "new" {
		t.Errorf("%s holds %q, want %q", p, got, "new")
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Errorf("%s has mode %v, want 0600", p, fi.Mode().Perm())
	}
	victim := filepath.Join(dir, "victim")
	if err := os.WriteFile(victim, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "linked.json")
	if err := os.Symlink(victim, link); err != nil {
		t.Fatal(err)
	}
	if err := Replace(link, "linked.json.tmp-", 0o600, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(victim); string(got) != "precious" {
		t.Errorf("Replace wrote through the link: victim holds %q", got)
	}
	if fi, err := os.Lstat(link); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("%s is not a regular file after Replace: %v", link, err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 {
		t.Errorf("Replace left %d entries in the folder, want 3 (no temporary file)", len(entries))
	}
}
