package freebsd

import (
	"strings"
	"testing"
)

// renamedHost is a fake host with twoNICs' mce0 renamed rdma0 by
// rc.conf (ifconfig_mce0_name="rdma0"): ifconfig -D rdma0 names mce0,
// whose sysctls keep the driver's name.
func renamedHost(t *testing.T) *fakeHost {
	fh := newFakeHost(t, "rdma0", "mce1")
	fh.mlx5OIDs("0")
	fh.mlx5OIDs("1")
	fh.write("drv.rdma0", "mce0\n")
	return fh
}

// renamedScript renders twoNICs with mce0 renamed rdma0.
func renamedScript(t *testing.T) string {
	f, h := twoNICs()
	h.NICs[0].Interface, h.NICs[0].DriverInterface = "rdma0", "mce0"
	return hostScript(t, f, h)
}

// TestRenamedInterface: an interface rc.conf renames (rdma0, the driver's
// mce0) gets its link and rc.conf settings under its name and its
// sysctls and loader tunables under the driver's (dev.mce.0), once
// ifconfig -D shows rdma0 is mce0. Before, the compiler refused the name
// rdma0, and a fabric that kept mce0 was refused by the script.
func TestRenamedInterface(t *testing.T) {
	s := renamedScript(t)
	for _, w := range []string{
		"\trenamed_from rdma0 mce0 || return 0\n",
		"ensure rdma0 mtu 9000 \"$(if_mtu rdma0)\" ifconfig rdma0 mtu 9000 up\n",
		"ensure rdma0 dev.mce.0.conf.qos.trust_state 2 \"$(sysctl_get dev.mce.0.conf.qos.trust_state)\" sysctl dev.mce.0.conf.qos.trust_state=2\n",
		"\trc_words ifconfig_rdma0 'inet 10.0.7.17/24 mtu 9000' ",
	} {
		if !strings.Contains(s, w) {
			t.Errorf("script lacks %q", w)
		}
	}
	if strings.Contains(s, "ifconfig mce0") || strings.Contains(s, "dev.mce.rdma0") {
		t.Errorf("script mixes the names up")
	}
	fh := renamedHost(t)
	out, errs, code := fh.run(s)
	if code != 0 || !strings.Contains(out, "set rdma0 dev.mce.0.conf.qos.trust_state: 0 -> 2\n") {
		t.Errorf("exit %d:\n%s%s", code, out, errs)
	}
	if !strings.Contains(fh.read("log"), "ifconfig rdma0 mtu 9000 up\n") || fh.read("rc.ifconfig_rdma0") != "inet 10.0.7.17/24 mtu 9000\n" {
		t.Errorf("log:\n%s\nrc.ifconfig_rdma0 %q", fh.read("log"), fh.read("rc.ifconfig_rdma0"))
	}
	if !strings.Contains(fh.read("loader.conf"), "dev.mce.0.conf.qos.trust_state=\"2\"\n") {
		t.Errorf("loader.conf:\n%s", fh.read("loader.conf"))
	}
}

// TestRenamedInterfaceProof: a run stops on rdma0 when ifconfig -D says
// it is another unit, or prints no driver name and rc.conf does not
// rename mce0 to rdma0; with the rename in rc.conf it goes on.
func TestRenamedInterfaceProof(t *testing.T) {
	tests := []struct {
		name  string
		setup func(fh *fakeHost)
		diff  string // --check's line; "" when rdma0 is shown to be mce0
		stop  string
	}{
		{"ifconfig -D names another unit", func(fh *fakeHost) { fh.write("drv.rdma0", "mce2\n") },
			"DIFF rdma0 driver interface: intended mce0; actual mce2\n",
			"fabricc: error: rdma0: rdma0 is the driver's mce2 (ifconfig -D), not mce0 as the nic's driver_interface says, so the steps would set mce0's sysctls for another port: write driver_interface = \"mce2\" in the fabric\n"},
		{"no ifconfig -D, no rename in rc.conf", func(fh *fakeHost) { fh.write("no-D", "") },
			"DIFF rdma0 driver interface: intended mce0; actual unknown (no ifconfig -D; ifconfig_mce0_name unset)\n",
			"fabricc: error: rdma0: ifconfig -D rdma0 names no driver interface (FreeBSD 12 and earlier) and rc.conf does not rename mce0 to rdma0 (ifconfig_mce0_name is unset)"},
		{"no ifconfig -D, rc.conf renames mce0 to rdma0", func(fh *fakeHost) {
			fh.write("no-D", "")
			fh.write("rc.ifconfig_mce0_name", "rdma0\n")
		}, "", ""},
	}
	s := renamedScript(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fh := renamedHost(t)
			tc.setup(fh)
			out, _, _ := fh.run(s, "--check")
			if tc.diff != "" && !strings.Contains(out, tc.diff) || tc.diff == "" && strings.Contains(out, "driver interface") {
				t.Errorf("--check, want %q:\n%s", tc.diff, out)
			}
			out, errs, code := fh.run(s)
			if tc.stop == "" {
				if code != 0 || !strings.Contains(out, "set rdma0 dev.mce.0.conf.qos.trust_state: 0 -> 2\n") {
					t.Errorf("exit %d:\n%s%s", code, out, errs)
				}
				return
			}
			if code != 1 || !strings.Contains(errs, tc.stop) || !strings.Contains(errs, "): rdma0\n") {
				t.Errorf("exit %d, stderr lacks %q:\n%s", code, tc.stop, errs)
			}
			if strings.Contains(fh.read("log"), "rdma0") || strings.Contains(fh.read("loader.conf"), "dev.mce.0.") {
				t.Errorf("rdma0 changed:\n%s", fh.read("log"))
			}
			if !strings.Contains(out, "set mce1 dev.mce.1.conf.qos.trust_state: 0 -> 2\n") {
				t.Errorf("mce1 not set:\n%s", out)
			}
		})
	}
}
