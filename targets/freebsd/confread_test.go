package freebsd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// scanValue is a shell function over the prelude's conf_scan: the value
// of FILE's last assignment to NAME as shadowed reads the boot files,
// or unset.
const scanValue = `scan_value() {
	_sv=$(printf 'f\037-\037%s\nv\037-\037%s\037whole\037\037\n' "$1" "$2" | conf_scan)
	_sv=${_sv#*"$(printf '\037')"}
	_sv=${_sv#*"$(printf '\037')"}
	_sv=${_sv%%"$(printf '\037')"*}
	echo "${_sv:-unset}"
}
`

// TestConfReaders: the lines of loader.conf(5) and sysctl.conf(5) that
// conf_get (what a step finds in /boot/loader.conf and /etc/sysctl.conf)
// and conf_scan (what shadowed finds in the files boot reads after them)
// both read give both the same value: quoted or bare, the last of several,
// none for a comment, for a longer name that starts with NAME, for a
// name a regular expression's dot would match, or for a missing file; an
// empty value is unset. conf_get is conf_scan's reading, so the lines a
// person writes by hand and the loader reads (loader.conf(5): blanks
// around =, a trailing comment) or sh(1) does (export, 'quoted') are a
// value to conf_get too; before, conf_get called them unset and a run
// added a second line even where the value was the fabric's.
func TestConfReaders(t *testing.T) {
	const name = "dev.mce.0.conf.qos.trust_state"
	tests := []struct{ name, text, want string }{
		{"quoted", name + "=\"2\"\n", "2"},
		{"bare", name + "=2\n", "2"},
		{"list", "dev.mce.0.conf.qos.prio_0_7_tc=\"0,0,0,3,0,0,6,0\"\n" + name + "=\"0,0,0,3,0,0,6,0\"\n", "0,0,0,3,0,0,6,0"},
		{"last of several", name + "=\"1\"\nzfs_load=\"YES\"\n" + name + "=\"2\"\n", "2"},
		{"commented out", "#" + name + "=\"1\"\n", "unset"},
		{"a longer name", name + "_x=\"1\"\n" + name + ".y=1\n", "unset"},
		{"dots are dots", "dev.mce.0.conf.qos.trustXstate=1\ndevXmce.0.conf.qos.trust_state=\"1\"\n", "unset"},
		{"in another's value", "x=\"" + name + "=1\"\n", "unset"},
		{"empty", name + "=\"\"\n", "unset"},
		{"no file", "", "unset"},
		{"blanks around =", name + " = \"2\"\n", "2"},
		{"leading blanks", "  \t" + name + "=2\n", "2"},
		{"export", "export " + name + "=2\n", "2"},
		{"single quotes", name + "='2'\n", "2"},
		{"trailing comment, quoted", name + "=\"2\" # dscp\n", "2"},
		{"trailing comment, bare", name + "=2 # dscp\n", "2"},
		{"a hand line, then conf_set's", name + " = \"1\"\n" + name + "=\"2\"\n", "2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "loader.conf")
			if tc.text != "" {
				if err := os.WriteFile(file, []byte(tc.text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			out, err := shRun(t, nil, scanValue+"conf_get "+file+" "+name+"\nscan_value "+file+" "+name+"\n")
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if want := tc.want + "\n" + tc.want + "\n"; out != want {
				t.Errorf("conf_get, conf_scan over\n%s= %q, want %q", tc.text, out, want)
			}
		})
	}
}

// TestConfGetHandLines: a /boot/loader.conf whose hand-written lines
// (blanks around =, a comment) already hold the fabric's value gets no
// second line for it; one whose hand line holds another value gets the
// fabric's line last, which the loader reads last, and a --check after
// that run finds no loader.conf difference.
func TestConfGetHandLines(t *testing.T) {
	f, h := twoNICs()
	s := hostScript(t, f, h)
	fh := newFakeHost(t, "mce0", "mce1")
	fh.mlx5OIDs("0")
	fh.mlx5OIDs("1")
	const hand = "zfs_load=\"YES\"\ndev.mce.0.conf.qos.trust_state = \"2\" # dscp\ndev.mce.0.conf.qos.cable_length = \"7\"\n"
	fh.write("loader.conf", hand)
	out, errs, code := fh.run(s)
	loader := fh.read("loader.conf")
	if code != 0 || strings.Contains(out, "loader.conf dev.mce.0.conf.qos.trust_state:") ||
		!strings.Contains(out, "loader.conf dev.mce.0.conf.qos.cable_length: 7 -> 50\n") {
		t.Errorf("exit %d:\n%s%s", code, out, errs)
	}
	if !strings.HasPrefix(loader, hand) || strings.Count(loader, "dev.mce.0.conf.qos.trust_state") != 1 ||
		!strings.Contains(loader, "\ndev.mce.0.conf.qos.cable_length=\"50\"\n") {
		t.Errorf("loader.conf:\n%s", loader)
	}
	// The fake ifconfig keeps no MTU or address, so only the loader.conf
	// lines are read back.
	out, _, _ = fh.run(s, "--check")
	if strings.Contains(out, "loader.conf ") {
		t.Errorf("--check after the run:\n%s", out)
	}
}
