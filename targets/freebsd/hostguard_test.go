package freebsd

import (
	"strings"
	"testing"
)

// TestHostNameLine: the script names its host in HOST_NAME as one sh
// word in single quotes (a plain one too: shellcheck reads a bare
// NAME=a-b as arithmetic, SC2100), a hostile one escaped so that sh
// reads it literally, before the prelude, whose --help names it.
func TestHostNameLine(t *testing.T) {
	tests := []struct{ name, want string }{
		{"nas5", "\nHOST_NAME='nas5'\n\nMODE=apply\n"},
		{"rack1-nas01", "\nHOST_NAME='rack1-nas01'\n\nMODE=apply\n"},
		{"h'$(touch /x)`id`\n", "\nHOST_NAME='h'\\''$(touch /x)`id`\n'\n\nMODE=apply\n"},
	}
	for _, tc := range tests {
		f := fixture()
		f.Hosts[1].Name = tc.name
		s := files(t, f, 1)[tc.name+".freebsd.sh"]
		if !strings.Contains(s, tc.want) {
			t.Errorf("host %q: script lacks %q", tc.name, tc.want)
		}
		if got := scriptHost(t, s); got != tc.name {
			t.Errorf("host %q: HOST_NAME reads back as %q", tc.name, got)
		}
	}
}

// TestHostGuard runs nas5's script where uname -n is another name: a run
// stops with status 1 before its first change (nothing logged, the
// loader.conf as it was), --check reports the host name with the other
// differences, --dry-run prints the run's message after "would stop:"
// and exits 1 as the run would, and --any-host or FABRICC_ANY_HOST=1
// go on with a note. The first label and case of the name do not matter;
// without uname, hostname(1) is read.
func TestHostGuard(t *testing.T) {
	const stop = "fabricc: error: this host's name (uname -n) is cn002, not nas5, the host this script is for; nothing was changed: use this host's own script, or, where the name is set later (a shared image), run with --any-host (or FABRICC_ANY_HOST=1)\n"
	const other = "note: this host's name (uname -n) is cn002, not nas5, the host this script is for; going on (--any-host)\n"
	const mtu = "ifconfig mce0 mtu 9000 up\n"
	tests := []struct {
		name, host string // host: what uname -n prints
		noUname    bool   // uname fails; hostname prints host
		env, args  []string
		rc         int
		out        string // stdout contains it
		first      bool   // stdout starts with out
		errs       string // the whole of stderr
		applied    bool   // the run set the MTU
	}{
		{name: "another host: refused", host: "cn002", rc: 1, errs: stop},
		{name: "another host, quoted", host: "cn 002'$x", rc: 1,
			errs: "fabricc: error: this host's name (uname -n) is 'cn 002'\\''$x', not nas5, the host this script is for; nothing was changed: use this host's own script, or, where the name is set later (a shared image), run with --any-host (or FABRICC_ANY_HOST=1)\n"},
		{name: "no name", host: "", rc: 1,
			errs: "fabricc: error: this host's name (uname -n) is unknown, not nas5, the host this script is for; nothing was changed: use this host's own script, or, where the name is set later (a shared image), run with --any-host (or FABRICC_ANY_HOST=1)\n"},
		{name: "--check", host: "cn002", args: []string{"--check"}, rc: 3, first: true, out: "DIFF system host name: intended nas5; actual cn002\n"},
		{name: "--dry-run", host: "cn002", args: []string{"--dry-run"}, rc: 1, first: true,
			out:  "would stop: " + strings.TrimPrefix(stop, "fabricc: error: "),
			errs: "fabricc: error: a run would stop on the host name (see would stop: above)\n"},
		{name: "--any-host", host: "cn002", args: []string{"--any-host"}, rc: 0, out: other, applied: true},
		{name: "FABRICC_ANY_HOST=1", host: "cn002", env: []string{"FABRICC_ANY_HOST=1"}, rc: 0, out: other, applied: true},
		{name: "FABRICC_ANY_HOST=yes is not 1", host: "cn002", env: []string{"FABRICC_ANY_HOST=yes"}, rc: 1, errs: stop},
		{name: "FQDN, other case", host: "NAS5.cluster.example", rc: 0, out: "set mce0 mtu: 1500 -> 9000\n", applied: true},
		{name: "prefix is not the name", host: "nas50", rc: 1,
			errs: "fabricc: error: this host's name (uname -n) is nas50, not nas5, the host this script is for; nothing was changed: use this host's own script, or, where the name is set later (a shared image), run with --any-host (or FABRICC_ANY_HOST=1)\n"},
		{name: "no uname: hostname", host: "nas5", noUname: true, rc: 0, out: "set mce0 mtu: 1500 -> 9000\n", applied: true},
		{name: "no uname: hostname, another host", host: "cn002", noUname: true, rc: 1, errs: stop},
	}
	f, h := twoNICs()
	s := hostScript(t, f, h)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fh := newFakeHost(t, "mce0", "mce1")
			fh.mlx5OIDs("0")
			fh.mlx5OIDs("1")
			fh.write("name", tc.host+"\n")
			if tc.noUname {
				fh.write("no-uname", "")
			}
			fh.env = tc.env
			out, errs, rc := fh.run(s, tc.args...)
			if rc != tc.rc || !strings.Contains(out, tc.out) || (tc.rc == 1 && errs != tc.errs) {
				t.Errorf("status %d, want %d; stdout:\n%s\nwant in it:\n%s\nstderr:\n%s\nwant:\n%s", rc, tc.rc, out, tc.out, errs, tc.errs)
			}
			if tc.first && !strings.HasPrefix(out, tc.out) {
				t.Errorf("stdout does not start with %q:\n%s", tc.out, out)
			}
			// --check reads on: the NIC's differences follow.
			if tc.first && tc.rc == 3 && !strings.Contains(out, "DIFF mce0 mtu: intended 9000; actual 1500\n") {
				t.Errorf("--check stopped at the host name:\n%s", out)
			}
			if tc.rc == 1 && tc.out == "" && out != "" {
				t.Errorf("a refused run printed on stdout:\n%s", out)
			}
			// A dry run never sums up a refused host as nothing to do.
			if tc.rc == 1 && tc.out != "" && !strings.HasSuffix(out, "fabricc: a run would stop on the host name before its first change (see would stop: above)\n") {
				t.Errorf("dry run summary:\n%s", out)
			}
			log := fh.read("log")
			if applied := strings.Contains(log, mtu); applied != tc.applied {
				t.Errorf("MTU set: %v, want %v; commands run:\n%s", applied, tc.applied, log)
			}
			if !tc.applied && (log != "" || fh.read("loader.conf") != "zfs_load=\"YES\"\n") {
				t.Errorf("changed something: commands\n%s\nloader.conf\n%s", log, fh.read("loader.conf"))
			}
		})
	}
}
