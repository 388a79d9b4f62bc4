package freebsd

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMissingOIDStopsOneNIC: mce0's driver lacks conf.qos.trust_state
// (firmware that does not answer the DSCP query). mce0 gets nothing, no
// loader.conf tunable either, mce1 is set whole, and the run ends with
// status 1 naming mce0. Before, the run enabled PFC on mce0, died on
// trust_state and never touched mce1.
func TestMissingOIDStopsOneNIC(t *testing.T) {
	f, h := twoNICs()
	s := hostScript(t, f, h)
	fh := newFakeHost(t, "mce0", "mce1")
	fh.mlx5OIDs("0", "conf.qos.trust_state")
	fh.mlx5OIDs("1")
	out, errs, code := fh.run(s)
	if code != 1 {
		t.Errorf("exit %d, want 1\n%s%s", code, out, errs)
	}
	for _, w := range []string{
		"fabricc: error: mce0: mlx5en lacks dev.mce.0.conf.qos.trust_state, so nothing is set on mce0 ",
		"fabricc: error: the steps of these NICs stopped (see fabricc: error: above; the other NICs' steps ran): mce0\n",
	} {
		if !strings.Contains(errs, w) {
			t.Errorf("stderr lacks %q:\n%s", w, errs)
		}
	}
	if !strings.Contains(out, "set mce1 dev.mce.1.conf.qos.trust_state: 0 -> 2\n") ||
		!strings.HasSuffix(out, "fabricc: 32 change(s) applied; 1 NIC(s) failed, their steps stopped on an error: mce0\n") ||
		strings.Contains(out, "set mce0 ") {
		t.Errorf("stdout:\n%s", out)
	}
	if got := fh.read("sysctl.dev.mce.0.rx_priority_flow_control"); got != "0\n" {
		t.Errorf("mce0 PFC = %q, want untouched", got)
	}
	if got := fh.read("sysctl.dev.mce.1.conf.qos.trust_state"); got != "2\n" {
		t.Errorf("mce1 trust_state = %q, want 2", got)
	}
	loader := fh.read("loader.conf")
	if strings.Contains(loader, "dev.mce.0.") || !strings.Contains(loader, "dev.mce.1.conf.qos.trust_state=\"2\"\n") ||
		!strings.HasPrefix(loader, "zfs_load=\"YES\"\nmlx5en_load=\"YES\"\n") {
		t.Errorf("loader.conf:\n%s", loader)
	}
	if log := fh.read("log"); strings.Contains(log, "mce0") {
		t.Errorf("commands on mce0:\n%s", log)
	}

	out, _, code = fh.run(s, "--check")
	if code != 3 || !strings.Contains(out, "DIFF mce0 driver sysctls: intended present; actual absent: dev.mce.0.conf.qos.trust_state\n") ||
		!strings.Contains(out, "DIFF mce0 dev.mce.0.conf.qos.trust_state: intended 2; actual absent\n") ||
		!strings.Contains(out, "manual: mce0: RoCE needs a kernel built with 'options OFED'") {
		t.Errorf("--check exit %d, want the stop, then each setting read:\n%s", code, out)
	}
}

// TestEveryNICStopped: when the steps of every NIC stopped, the summary
// on standard output counts them and never says that the host already
// matches (a run that changed nothing because nothing could run is no
// match). A dry run notes where a run would stop instead of failing.
func TestEveryNICStopped(t *testing.T) {
	f, h := twoNICs()
	s := hostScript(t, f, h)
	fh := newFakeHost(t, "mce0", "mce1")
	fh.mlx5OIDs("0", "conf.qos.trust_state")
	fh.mlx5OIDs("1", "conf.qos.trust_state")
	for _, mode := range []struct{ arg, want string }{
		{"", "fabricc: 0 change(s) applied; 2 NIC(s) failed, their steps stopped on an error: mce0 mce1\n"},
	} {
		var args []string
		if mode.arg != "" {
			args = []string{mode.arg}
		}
		out, errs, code := fh.run(s, args...)
		if code != 1 || !strings.HasSuffix(out, mode.want) || strings.Contains(out, "nothing to do") {
			t.Errorf("%q: exit %d, want 1 and stdout ending %q:\n%s%s", mode.arg, code, mode.want, out, errs)
		}
	}
}

// TestNICStops: a host where the NIC's steps must not start changes
// nothing for that NIC, says why, and goes on with the next.
func TestNICStops(t *testing.T) {
	tests := []struct {
		name  string
		setup func(fh *fakeHost)
		want  string // on stderr
	}{
		{"lagg port, FreeBSD 14 ifconfig", func(fh *fakeHost) {
			fh.write("if.mce0", fh.read("if.mce0")+"\tlaggdev: lagg0\n")
		}, "fabricc: error: mce0: mce0 is a port of lagg0 (lagg(4)); fabricc does not configure lagg ports (their MTU and addresses belong on lagg0): take mce0 out of lagg0, or out of the fabric\n"},
		{"lagg port, FreeBSD 13 ifconfig", func(fh *fakeHost) {
			fh.write("if.mce0", fh.read("if.mce0")+"\tlagg: laggproto lacp laggdev lagg1\n")
		}, "fabricc: error: mce0: mce0 is a port of lagg1 (lagg(4))"},
		{"other unit", func(fh *fakeHost) {
			fh.write("iflist", "mce1 mce3 lo0\n")
			if err := os.Remove(filepath.Join(fh.dir, "if.mce0")); err != nil {
				t.Fatal(err)
			}
		}, "fabricc: error: interface mce0 not found; mlx5en is loaded and has mce1 mce3: fix the nic's interface attribute in the fabric\n"},
		{"renamed in rc.conf", func(fh *fakeHost) {
			fh.write("iflist", "stor0 mce1 lo0\n")
			fh.write("rc.ifconfig_mce0_name", "stor0\n")
			if err := os.Remove(filepath.Join(fh.dir, "if.mce0")); err != nil {
				t.Fatal(err)
			}
		}, "fabricc: error: interface mce0 not found; rc.conf renames it (ifconfig_mce0_name=stor0): write the new name as the nic's interface in the fabric and mce0 as its driver_interface\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, h := twoNICs()
			fh := newFakeHost(t, "mce0", "mce1")
			fh.mlx5OIDs("0")
			fh.mlx5OIDs("1")
			tc.setup(fh)
			out, errs, code := fh.run(hostScript(t, f, h))
			if code != 1 || !strings.Contains(errs, tc.want) || !strings.Contains(errs, "): mce0\n") {
				t.Errorf("exit %d, stderr lacks %q:\n%s", code, tc.want, errs)
			}
			if strings.Contains(fh.read("loader.conf"), "dev.mce.0.") || strings.Contains(fh.read("log"), "mce0") {
				t.Errorf("mce0 changed:\n%s\n%s", fh.read("loader.conf"), fh.read("log"))
			}
			if !strings.Contains(out, "set mce1 dev.mce.1.conf.qos.trust_state: 0 -> 2\n") {
				t.Errorf("mce1 not set:\n%s", out)
			}
		})
	}
}

// TestNoMellanoxDevice: on a host with no ConnectX at all (a Chelsio T6,
// pciconf vendor 0x1425) no driver is loaded and loader.conf is left as
// it was; before, the run loaded mlx5en and wrote its lines first.
func TestNoMellanoxDevice(t *testing.T) {
	f, h := twoNICs()
	fh := newFakeHost(t)
	fh.write("pci", "t6nex0@pci0:2:0:4:\tclass=0x020000 rev=0x00 hdr=0x00 vendor=0x1425 device=0x6408 subvendor=0x1425 subdevice=0x0000\n")
	_, errs, code := fh.run(hostScript(t, f, h))
	want := "fabricc: error: mce0: no Mellanox device (PCI vendor 0x15b3) in pciconf -l, so mlx5en has nothing to drive: is this the host the fabric names, with its ConnectX installed?\n"
	if code != 1 || !strings.Contains(errs, want) || !strings.Contains(errs, "): mce0 mce1\n") {
		t.Errorf("exit %d, stderr:\n%s", code, errs)
	}
	if got := fh.read("loader.conf"); got != "zfs_load=\"YES\"\n" {
		t.Errorf("loader.conf changed:\n%s", got)
	}
	if log := fh.read("log"); log != "" {
		t.Errorf("commands ran:\n%s", log)
	}
}

// TestMissingLinkDiagnosed: the reasons an interface is missing
// (rc.conf's rename, the driver's other interfaces) are read by a run,
// which prints them, and by a dry run where the driver is loaded (the run
// would stop there, and the dry run says so with the run's message);
// --check, and a dry run where the driver is not loaded yet (the run
// loads it first, which may create the interface), do not use them and
// do not read them (sysrc -n ifconfig_mce0_name, ifconfig -l).
func TestMissingLinkDiagnosed(t *testing.T) {
	f, h := twoNICs()
	s := hostScript(t, f, h)
	const why = "interface mce0 not found; mlx5en is loaded and has mce1 mce3: fix the nic's interface attribute in the fabric\n"
	tests := []struct {
		mode      string
		unloaded  bool   // kldstat finds no mlx5en, and no dev.mce sysctl
		reads     string // what the run read, in $FAKES/reads
		out, errs string // in stdout, stderr
	}{
		{mode: "--check", out: "DIFF mce0 link: intended present; actual absent\n"},
		{mode: "--dry-run", reads: "sysrc -n ifconfig_mce0_name\nifconfig -l\n", out: "would stop: " + why,
			errs: "fabricc: error: a run would stop the steps of these NICs (see would stop: above; the other NICs' steps would run): mce0\n"},
		{mode: "--dry-run", unloaded: true, out: "note: mce0 is not present here and mlx5en is not loaded; showing every step\n"},
		{mode: "", reads: "sysrc -n ifconfig_mce0_name\nifconfig -l\n", errs: "fabricc: error: " + why},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("mode%s,unloaded=%v", tc.mode, tc.unloaded), func(t *testing.T) {
			fh := newFakeHost(t, "mce1")
			fh.mlx5OIDs("1")
			if tc.unloaded {
				fh.write("kldstat", "#!/bin/sh\nexit 1\n")
			}
			fh.write("iflist", "mce1 mce3 lo0\n")
			fh.write("sysrc", "#!/bin/sh\n[ \"$1\" != -n ] || case $2 in *_name) echo \"sysrc $*\" >>\"$FAKES/reads\" ;; esac\n"+
				strings.TrimPrefix(fakeTools["sysrc"], "#!/bin/sh\n"))
			fh.write("ifconfig", "#!/bin/sh\n[ \"$1\" != -l ] || echo \"ifconfig $*\" >>\"$FAKES/reads\"\n"+
				strings.TrimPrefix(fakeTools["ifconfig"], "#!/bin/sh\n"))
			var args []string
			if tc.mode != "" {
				args = []string{tc.mode}
			}
			out, errs, _ := fh.run(s, args...)
			if got := fh.read("reads"); got != tc.reads {
				t.Errorf("reads %q, want %q\n%s%s", got, tc.reads, out, errs)
			}
			if !strings.Contains(out, tc.out) || !strings.Contains(errs, tc.errs) {
				t.Errorf("stdout lacks %q or stderr lacks %q:\n%s\n--\n%s", tc.out, tc.errs, out, errs)
			}
		})
	}
}
