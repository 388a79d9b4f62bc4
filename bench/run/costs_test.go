//go:build linux

package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCostsOf sums a build folder's files by kind: the OpenConfig set
// request apart from the OpenConfig JSON it ends like, FreeBSD's files in
// one row, and a file of no known kind in a row of its own.
func TestCostsOf(t *testing.T) {
	dir := t.TempDir()
	files := map[string]int{
		"model.json":                100,
		"manifest.json":             10,
		"h1/h1.linux.sh":            50,
		"h2/h2.linux.sh":            70,
		"s1/s1.openconfig-set.json": 30,
		"s1/s1.openconfig.json":     20,
		"s1/s1.openconfig.md":       5,
		"s1/s1.buffer.svg":          4,
		"b1/b1.freebsd.sh":          8,
		"b1/b1.rc.conf":             2,
		"s1/s1.eos.cfg":             9,
		"s1/s1.unexpected":          1,
	}
	for name, size := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, make([]byte, size), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := costsOf(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []costRow{
		{"`<host>.linux.sh`", 2, 120},
		{"`model.json`", 1, 100},
		{"`<switch>.openconfig-set.json`", 1, 30},
		{"`<switch>.openconfig.json`", 1, 20},
		{"FreeBSD (`.freebsd.sh`, `.rc.conf`, `.loader.conf`, `.sysctl.conf`)", 2, 10},
		{"`manifest.json`", 1, 10},
		{"documents (`.md`, `.svg`)", 2, 9},
		{"switch configs (`.onyx.cli`, `.eos.cfg`, `.nvue.yaml`, `.nvue.sh`)", 1, 9},
		{"other: `s1.unexpected`", 1, 1},
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(costRow{})); diff != "" {
		t.Errorf("costsOf (-want +got):\n%s", diff)
	}
}
