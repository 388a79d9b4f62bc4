package freebsd

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestShadowedBootFiles: a file FreeBSD reads at boot after the one the
// script edits (loader.conf(5): /boot/loader.conf.d/*.conf, then
// /boot/loader.conf.local; rc.conf(5): /etc/rc.conf.d/<service> and
// /usr/local/etc/rc.conf.d/<service>, a file or a directory) and that
// sets one of the NIC's variables to another value wins at boot:
// --check reports it naming the file and line, and a run changes nothing
// on that NIC, naming it too. Before, --check read only /boot/loader.conf
// and rc.conf and said the host matched.
func TestShadowedBootFiles(t *testing.T) {
	tests := []struct {
		name       string
		file, text string // under the fake root
		diff       string // --check's line, with DIR for the fake root
		stop       string // the run's error, likewise
	}{
		{"loader.conf.d", "loader.conf.d/site.conf", "# site\ndev.mce.0.rx_priority_flow_control=\"0,0,0,0,0,0,0,0\"\n",
			"DIFF mce0 dev.mce.0.rx_priority_flow_control at boot (DIR/loader.conf.d/site.conf:2): intended 0,0,0,1,0,0,0,0; actual 0,0,0,0,0,0,0,0\n",
			"fabricc: error: mce0: DIR/loader.conf.d/site.conf:2 sets dev.mce.0.rx_priority_flow_control=\"0,0,0,0,0,0,0,0\", which boot reads after DIR/loader.conf and so wins over the fabric's \"0,0,0,1,0,0,0,0\": make it the fabric's value there or remove it, then run again\n"},
		{"loader.conf.local, last setting of the file", "loader.conf.local", "dev.mce.0.conf.qos.trust_state=\"2\"\ndev.mce.0.conf.qos.trust_state = \"1\"  # pcp\n",
			"DIFF mce0 dev.mce.0.conf.qos.trust_state at boot (DIR/loader.conf.local:2): intended 2; actual 1\n",
			"DIR/loader.conf.local:2 sets dev.mce.0.conf.qos.trust_state=\"1\", which boot reads after DIR/loader.conf"},
		{"rc.conf.d/netif file", "rc.conf.d/netif", "ifconfig_mce0=\"DHCP\"\n",
			"DIFF mce0 ifconfig_mce0 at boot (DIR/rc.conf.d/netif:1): intended inet 10.0.7.17/24 mtu 9000; actual DHCP\n",
			"DIR/rc.conf.d/netif:1 sets ifconfig_mce0=\"DHCP\", which boot reads after /etc/rc.conf"},
		{"rc.conf.d/network empties it", "rc.conf.d/network", "ifconfig_mce0=\"\"\n",
			"DIFF mce0 ifconfig_mce0 at boot (DIR/rc.conf.d/network:1): intended inet 10.0.7.17/24 mtu 9000; actual \n",
			"DIR/rc.conf.d/network:1 sets ifconfig_mce0=\"\", which boot reads after /etc/rc.conf and so wins over the fabric's \"inet 10.0.7.17/24 mtu 9000\""},
		{"local rc.conf.d/netif directory", "local.rc.conf.d/netif/mce", "export ifconfig_mce0='inet 10.0.7.17/24 mtu 1500 -lro'\n",
			"DIFF mce0 ifconfig_mce0 at boot (DIR/local.rc.conf.d/netif/mce:1): intended inet 10.0.7.17/24 mtu 9000; actual inet 10.0.7.17/24 mtu 1500 -lro\n",
			"DIR/local.rc.conf.d/netif/mce:1 sets ifconfig_mce0=\"inet 10.0.7.17/24 mtu 1500 -lro\""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, h := twoNICs()
			s := hostScript(t, f, h)
			fh := newFakeHost(t, "mce0", "mce1")
			fh.mlx5OIDs("0")
			fh.mlx5OIDs("1")
			if err := os.MkdirAll(filepath.Dir(filepath.Join(fh.dir, tc.file)), 0o755); err != nil {
				t.Fatal(err)
			}
			fh.write(tc.file, tc.text)
			dir := func(s string) string { return strings.ReplaceAll(s, "DIR", fh.dir) }

			out, _, code := fh.run(s, "--check")
			if code != 3 || !strings.Contains(out, dir(tc.diff)) {
				t.Errorf("--check exit %d, want 3 and %q:\n%s", code, dir(tc.diff), out)
			}
			for _, l := range strings.Split(out, "\n") {
				if strings.HasPrefix(l, "DIFF mce1 ") && strings.Contains(l, " at boot (") {
					t.Errorf("--check blames mce1: %s", l)
				}
			}

			out, errs, code := fh.run(s)
			if code != 1 || !strings.Contains(errs, dir(tc.stop)) || !strings.Contains(errs, "): mce0\n") {
				t.Errorf("exit %d, stderr lacks %q:\n%s", code, dir(tc.stop), errs)
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

// TestShadowedAgreeing: files read later that set the fabric's value, or
// hold its words among others, are no difference and stop nothing.
func TestShadowedAgreeing(t *testing.T) {
	f, h := twoNICs()
	s := hostScript(t, f, h)
	fh := newFakeHost(t, "mce0", "mce1")
	fh.mlx5OIDs("0")
	fh.mlx5OIDs("1")
	for _, d := range []string{"loader.conf.d", "rc.conf.d"} {
		if err := os.Mkdir(filepath.Join(fh.dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	fh.write("loader.conf.d/mlx.conf", "mlx5en_load=\"YES\"\n")
	fh.write("rc.conf.d/netif", "ifconfig_mce0=\"inet 10.0.7.17/24 -lro mtu 9000\"\n")
	out, errs, code := fh.run(s)
	if code != 0 || strings.Contains(errs, "at boot") || !strings.Contains(out, "set mce0 dev.mce.0.conf.qos.trust_state: 0 -> 2\n") {
		t.Errorf("exit %d:\n%s%s", code, out, errs)
	}
	out, _, _ = fh.run(s, "--check")
	if strings.Contains(out, " at boot (") {
		t.Errorf("--check:\n%s", out)
	}
}

// TestShadowedSysctlConfLocal: rc.d/sysctl reads /etc/sysctl.conf.local
// after /etc/sysctl.conf (sysctl.conf(5)), so a ConnectX-3's PFC mask set
// there to another value wins at boot: --check names the file and line.
func TestShadowedSysctlConfLocal(t *testing.T) {
	f := fixture()
	h := &f.Hosts[0]
	h.NICs[0].VLAN = 20
	s := hostScript(t, f, h)
	fh := newFakeHost(t, "mlxen0", "mlxen0.20")
	fh.write("sysctl.hw.mlxen0.conf.rx_ppp", "8\n")
	fh.write("sysctl.hw.mlxen0.conf.tx_ppp", "8\n")
	fh.write("sysctl.conf.local", "# PFC\nhw.mlxen0.conf.tx_ppp=0\n")
	out, _, code := fh.run(s, "--check")
	want := "DIFF mlxen0 hw.mlxen0.conf.tx_ppp at boot (" + filepath.Join(fh.dir, "sysctl.conf.local") + ":2): intended 8; actual 0\n"
	if code != 3 || !strings.Contains(out, want) || strings.Contains(out, "rx_ppp at boot") {
		t.Errorf("--check exit %d, want 3 and %q:\n%s", code, want, out)
	}
}

// TestShadowedOrder: with several of the NIC's variables set in several
// boot files, --check reports each (variable, file) whose last setting
// there differs, variable by variable in the order of the NIC's steps and
// file by file in boot's order, naming the line; a setting that agrees,
// one of another variable whose name starts with the NIC's (dscp, _2),
// a comment and a file of another service are none; a run names them
// all in one error, in the same order.
func TestShadowedOrder(t *testing.T) {
	f := fixture()
	h := &f.Hosts[1] // mce0, VLAN 2, IPv4 and IPv6
	s := hostScript(t, f, h)
	fh := newFakeHost(t, "mce0", "mce0.2")
	fh.mlx5OIDs("0")
	for _, d := range []string{"loader.conf.d", "rc.conf.d", "local.rc.conf.d/network"} {
		if err := os.MkdirAll(filepath.Join(fh.dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	fh.write("loader.conf.d/a.conf", "dev.mce.0.conf.qos.trust_state=\"1\"\n"+
		"dev.mce.0.conf.qos.trust_state_x=\"1\"\n"+
		"# dev.mce.0.conf.qos.cable_length=\"9\"\n"+
		"dev.mce.0.conf.qos.cable_length = 7\n")
	fh.write("loader.conf.d/b.conf", "dev.mce.0.conf.qos.trust_state=\"2\"\nmlx5en_load=\"NO\"\n")
	fh.write("loader.conf.local", "dev.mce.0.conf.qos.trust_state='0'\n\ndev.mce.0.conf.qos.trust_state=\"3\" # last\n")
	fh.write("rc.conf.d/netif", "vlans_mce0=\"3 4\"\nifconfig_mce0_2_ipv6=\"inet6 2001:db8::9/64\"\nifconfig_mce0_2=\"inet 10.30.0.1/24 mtu 9000\"\n")
	fh.write("rc.conf.d/sshd", "ifconfig_mce0=\"down\"\n")
	fh.write("local.rc.conf.d/network/x", "export ifconfig_mce0=\"up\"\nvlans_mce0=\"2 5\"\n")
	dir := func(s string) string { return strings.ReplaceAll(s, "DIR", fh.dir) }

	out, _, code := fh.run(s, "--check")
	var got []string
	for _, l := range strings.SplitAfter(out, "\n") {
		if strings.Contains(l, " at boot (") {
			got = append(got, l)
		}
	}
	want := []string{
		"DIFF mce0 mlx5en_load at boot (DIR/loader.conf.d/b.conf:2): intended YES; actual NO\n",
		"DIFF mce0 dev.mce.0.conf.qos.trust_state at boot (DIR/loader.conf.d/a.conf:1): intended 2; actual 1\n",
		"DIFF mce0 dev.mce.0.conf.qos.trust_state at boot (DIR/loader.conf.local:3): intended 2; actual 3\n",
		"DIFF mce0 dev.mce.0.conf.qos.cable_length at boot (DIR/loader.conf.d/a.conf:4): intended 50; actual 7\n",
		"DIFF mce0 vlans_mce0 at boot (DIR/rc.conf.d/netif:1): intended 2; actual 3 4\n",
		"DIFF mce0 ifconfig_mce0 at boot (DIR/local.rc.conf.d/network/x:1): intended up mtu 9000; actual up\n",
		"DIFF mce0 ifconfig_mce0_2_ipv6 at boot (DIR/rc.conf.d/netif:2): intended inet6 2001:db8::1/64; actual inet6 2001:db8::9/64\n",
	}
	if code != 3 || strings.Join(got, "") != dir(strings.Join(want, "")) {
		t.Errorf("--check exit %d; at-boot lines:\n%s\nwant:\n%s", code, strings.Join(got, ""), dir(strings.Join(want, "")))
	}

	_, errs, code := fh.run(s)
	stop := "fabricc: error: mce0: DIR/loader.conf.d/b.conf:2 sets mlx5en_load=\"NO\", which boot reads after DIR/loader.conf and so wins over the fabric's \"YES\"; " +
		"DIR/loader.conf.d/a.conf:1 sets dev.mce.0.conf.qos.trust_state=\"1\", which boot reads after DIR/loader.conf and so wins over the fabric's \"2\"; " +
		"DIR/loader.conf.local:3 sets dev.mce.0.conf.qos.trust_state=\"3\", which boot reads after DIR/loader.conf and so wins over the fabric's \"2\"; " +
		"DIR/loader.conf.d/a.conf:4 sets dev.mce.0.conf.qos.cable_length=\"7\", which boot reads after DIR/loader.conf and so wins over the fabric's \"50\"; " +
		"DIR/rc.conf.d/netif:1 sets vlans_mce0=\"3 4\", which boot reads after /etc/rc.conf and so wins over the fabric's \"2\"; " +
		"DIR/local.rc.conf.d/network/x:1 sets ifconfig_mce0=\"up\", which boot reads after /etc/rc.conf and so wins over the fabric's \"up mtu 9000\"; " +
		"DIR/rc.conf.d/netif:2 sets ifconfig_mce0_2_ipv6=\"inet6 2001:db8::9/64\", which boot reads after /etc/rc.conf and so wins over the fabric's \"inet6 2001:db8::1/64\": " +
		"make it the fabric's value there or remove it, then run again\n"
	if code != 1 || !strings.HasPrefix(errs, dir(stop)) {
		t.Errorf("exit %d; stderr:\n%s\nwant it to start with:\n%s", code, errs, dir(stop))
	}
}

// TestShadowedOnePass: shadowed reads the boot files in one awk for all
// of the NIC's variables, whatever their number and the files', and
// rc_merge once for each words setting found (shadow_ok), not one awk
// per (variable, file): an mlx5en NIC has about 20 variables and the
// boot files are several, read before each NIC's first change.
func TestShadowedOnePass(t *testing.T) {
	awk, err := exec.LookPath("awk")
	if err != nil {
		t.Skip("no awk")
	}
	fh := newFakeHost(t)
	for _, d := range []string{"loader.conf.d", "rc.conf.d"} {
		if err := os.MkdirAll(filepath.Join(fh.dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	fh.write("loader.conf.d/a.conf", "a_load=\"YES\"\nb.x=\"1\"\n")
	fh.write("loader.conf.d/b.conf", "c.y=\"2\"\n")
	fh.write("loader.conf.local", "b.x=\"2\"\nb.xy=\"3\"\n")
	fh.write("rc.conf.d/netif", "ifconfig_mce0=\"-lro up mtu 9000\"\nvlans_mce0=\"5\"\n")
	fh.write("sysctl.conf.local", "hw.q=1\n")
	fh.write("awk", "#!/bin/sh\necho awk >>\"$FAKES/awk.log\"\nexec "+awk+" \"$@\"\n")
	if err := os.Chmod(filepath.Join(fh.dir, "awk"), 0o755); err != nil {
		t.Fatal(err)
	}
	body := "HOST_NAME='nas5'\n" + prelude + "shadowed mce0 " +
		"/boot/loader.conf a_load whole 'YES' /boot/loader.conf b.x whole '1' /boot/loader.conf c.y whole '2' /boot/loader.conf d.z whole '4' " +
		"/etc/rc.conf vlans_mce0 member '2' /etc/rc.conf ifconfig_mce0 words 'up mtu 9000' '' " +
		"/etc/sysctl.conf hw.q whole '0'\n"
	out, errs, code := fh.run(body, "--check")
	want := "DIFF mce0 b.x at boot (DIR/loader.conf.local:1): intended 1; actual 2\n" +
		"DIFF mce0 vlans_mce0 at boot (DIR/rc.conf.d/netif:2): intended 2; actual 5\n" +
		"DIFF mce0 hw.q at boot (DIR/sysctl.conf.local:1): intended 0; actual 1\n"
	if code != 0 || out != strings.ReplaceAll(want, "DIR", fh.dir) || errs != "" {
		t.Errorf("exit %d; stdout:\n%s\nwant:\n%s\nstderr:\n%s", code, out, strings.ReplaceAll(want, "DIR", fh.dir), errs)
	}
	if n := strings.Count(fh.read("awk.log"), "awk\n"); n != 2 {
		t.Errorf("awk ran %d times, want 2: the boot files once, rc_merge for ifconfig_mce0 once", n)
	}
}
