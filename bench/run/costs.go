//go:build linux

package main

import (
	"cmp"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
)

// costKind is one row of the README's "What each file costs" table: the
// files a build writes for one purpose, told apart by name.
type costKind struct {
	name  string
	match func(base string) bool
}

// suffixes matches a file whose name ends in one of the suffixes.
func suffixes(s ...string) func(string) bool {
	return func(base string) bool {
		for _, x := range s {
			if strings.HasSuffix(base, x) {
				return true
			}
		}
		return false
	}
}

// costKinds are the rows, in the order a file is tried: the first that
// matches takes it (the OpenConfig set request before the OpenConfig
// JSON, whose suffix it ends with; the documents last).
var costKinds = []costKind{
	{"`<host>.linux.sh`", suffixes(".linux.sh")},
	{"`model.json`", func(b string) bool { return b == "model.json" }},
	{"`manifest.json`", func(b string) bool { return b == "manifest.json" }},
	{"`<switch>.openconfig-set.json`", suffixes(".openconfig-set.json")},
	{"`<switch>.openconfig.json`", suffixes(".openconfig.json")},
	{"`<host>.windows.ps1`", suffixes(".windows.ps1")},
	{"FreeBSD (`.freebsd.sh`, `.rc.conf`, `.loader.conf`, `.sysctl.conf`)", suffixes(".freebsd.sh", ".rc.conf", ".loader.conf", ".sysctl.conf")},
	{"switch configs (`.onyx.cli`, `.eos.cfg`, `.nvue.yaml`, `.nvue.sh`)", suffixes(".onyx.cli", ".eos.cfg", ".nvue.yaml", ".nvue.sh")},
	{"documents (`.md`, `.svg`)", suffixes(".md", ".svg")},
}

// costRow is what one kind of file adds up to in a build.
type costRow struct {
	kind  string
	files int
	bytes int64
}

// costsOf walks a build folder and sums its files by kind; a file no
// kind matches is its own row, so that a new kind of file shows up
// instead of hiding in another's figures.
func costsOf(build string) ([]costRow, error) {
	rows := map[string]*costRow{}
	err := filepath.WalkDir(build, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		k := kindOf(d.Name())
		if rows[k] == nil {
			rows[k] = &costRow{kind: k}
		}
		rows[k].files++
		rows[k].bytes += info.Size()
		return nil
	})
	var out []costRow
	for _, r := range rows {
		out = append(out, *r)
	}
	slices.SortFunc(out, func(a, b costRow) int { return cmp.Or(cmp.Compare(b.bytes, a.bytes), cmp.Compare(a.kind, b.kind)) })
	return out, err
}

// kindOf is the row a file named base belongs to.
func kindOf(base string) string {
	for _, k := range costKinds {
		if k.match(base) {
			return k.name
		}
	}
	return "other: `" + base + "`"
}

// costs builds size n into the scratch folder and prints what each kind
// of file costs: how many, the bytes per file and per device, and the
// share of the build.
func costs(dir string, n int) {
	out := filepath.Join(dir, fmt.Sprintf("costs-%d", n))
	b, tb := buildInto([]string{"FABRICC_TIMINGS=1"}, out, n)
	defer removeBuilds(out)
	rows, err := costsOf(out)
	if err != nil {
		fail(err)
	}
	devices := builtDevices(b.stderr)
	var total int64
	for _, r := range rows {
		total += r.bytes
	}
	fmt.Printf("What each file costs: the %d-switch build, %d devices, %d files, %.0f MB (%.1f KB per device)\n\n",
		n, devices, int(tb["files"]), float64(total)/1e6, float64(total)/1e3/float64(devices))
	fmt.Println("| file | files | per file | per device | share |")
	fmt.Println("|---|---|---|---|---|")
	for _, r := range rows {
		fmt.Printf("| %s | %d | %.1f KB | %.1f KB | %.1f %% |\n", r.kind, r.files,
			float64(r.bytes)/1e3/float64(r.files), float64(r.bytes)/1e3/float64(devices), 100*float64(r.bytes)/float64(total))
	}
}

// builtDevices reads the device count from build's "wrote N files for M
// devices to DIR" line.
func builtDevices(stderr string) int {
	for _, line := range strings.Split(stderr, "\n") {
		var files, devices int
		if _, err := fmt.Sscanf(line, "wrote %d files for %d devices", &files, &devices); err == nil && devices > 0 {
			return devices
		}
	}
	fail(fmt.Errorf("no \"wrote N files for M devices\" line in %q", stderr))
	return 0
}
