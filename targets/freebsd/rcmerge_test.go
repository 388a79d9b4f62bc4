package freebsd

import (
	"strings"
	"testing"
)

// TestRcMerge: the fabric's words go into an ifconfig_<if> value that
// has others; the operator's words stay where they are.
func TestRcMerge(t *testing.T) {
	const owns = addressWords
	tests := []struct {
		name, cur, want, owns, out string
	}{
		{"unset", "", "inet 10.20.0.1/24 mtu 9000 media autoselect", owns, "inet 10.20.0.1/24 mtu 9000 media autoselect"},
		{"VLAN parent keeps its address and options", "inet 192.168.1.5/24 -lro -tso", "up mtu 9000 media autoselect", "",
			"inet 192.168.1.5/24 -lro -tso up mtu 9000 media autoselect"},
		{"mtu replaced in place", "inet 192.168.1.5/24 mtu 1500 -lro", "up mtu 9000", "", "inet 192.168.1.5/24 mtu 9000 -lro up"},
		{"DHCP parent", "DHCP", "up mtu 9000", "", "DHCP up mtu 9000"},
		{"address replaced, options kept", "inet 10.20.0.9 netmask 255.255.255.0 -lro -tso", "inet 10.20.0.1/24 mtu 9000", owns,
			"inet 10.20.0.1/24 -lro -tso mtu 9000"},
		{"address first, before options", "-lro description storage", "inet 10.20.0.1/24 mtu 9000", owns,
			"inet 10.20.0.1/24 -lro description storage mtu 9000"},
		{"DHCP gives way to the address", "SYNCDHCP -tso", "inet 10.20.0.1/24 mtu 9000", owns, "inet 10.20.0.1/24 -tso mtu 9000"},
		{"already merged", "inet 10.20.0.1/24 -lro -tso mtu 9000", "inet 10.20.0.1/24 mtu 9000", owns, "inet 10.20.0.1/24 -lro -tso mtu 9000"},
		{"IPv6 on the old line moves out", "inet6 2001:db8::1/64 mtu 9000", "up mtu 9000", owns, "mtu 9000 up"},
		// ConnectX-3: the fabric needs the media set without pause, not
		// autoselect over a media the operator forces.
		{"forced media stays", "inet 10.20.0.9/24 media 40Gbase-CR4 -lro", "inet 10.20.0.1/24 mtu 9000 media autoselect", owns,
			"inet 10.20.0.1/24 media 40Gbase-CR4 -lro mtu 9000"},
		{"forced media on a VLAN parent stays", "up media 10Gbase-SR", "up mtu 9000 media autoselect", "", "up media 10Gbase-SR mtu 9000"},
		{"pause options go, the others stay", "media 40Gbase-CR4 mediaopt full-duplex,rxpause,txpause", "up mtu 9000 media autoselect", "",
			"media 40Gbase-CR4 mediaopt full-duplex up mtu 9000"},
		{"pause-only mediaopt goes", "up mediaopt rxpause,txpause mtu 1500", "up mtu 9000 media autoselect", "", "up mtu 9000 media autoselect"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := readValue(t, nil, "rc_merge '"+tc.cur+"' '"+tc.want+"' '"+tc.owns+"'")
			if got != tc.out {
				t.Errorf("rc_merge = %q, want %q", got, tc.out)
			}
			again := readValue(t, nil, "rc_merge '"+got+"' '"+tc.want+"' '"+tc.owns+"'")
			if again != got {
				t.Errorf("second merge %q, want %q unchanged", again, got)
			}
		})
	}
}

// TestRcKeepsOperatorWords: a NAS whose rc.conf has VLAN 10 on the
// parent and the parent's own address and options (the review's
// reproduction): the run adds VLAN 20 to vlans_mlxen0 and mtu and media
// to the parent's line, keeping VLAN 10, the address, -lro and -tso.
// Before, vlans_mlxen0 became "20" and the parent's line lost its
// address, so the next boot dropped VLAN 10 and the host's address.
func TestRcKeepsOperatorWords(t *testing.T) {
	f := fixture()
	h := &f.Hosts[0]
	h.NICs[0].VLAN = 20
	s := hostScript(t, f, h)
	fh := newFakeHost(t, "mlxen0", "mlxen0.20")
	fh.write("sysctl.hw.mlxen0.conf.rx_ppp", "0\n")
	fh.write("sysctl.hw.mlxen0.conf.tx_ppp", "0\n")
	fh.write("rc.vlans_mlxen0", "10\n")
	fh.write("rc.ifconfig_mlxen0", "inet 192.168.1.5/24 -lro -tso\n")
	fh.write("rc.ifconfig_mlxen0_10", "inet 10.10.0.1/24\n")

	out, _, code := fh.run(s, "--dry-run")
	for _, w := range []string{"would run: sysrc vlans_mlxen0+=20\n",
		"would run: sysrc 'ifconfig_mlxen0=inet 192.168.1.5/24 -lro -tso up mtu 9000 media autoselect'\n",
		"would run: sysrc 'ifconfig_mlxen0_20=inet 10.20.0.1/24 mtu 9000'\n"} {
		if code != 0 || !strings.Contains(out, w) {
			t.Errorf("dry run (exit %d) lacks %q:\n%s", code, w, out)
		}
	}
	out, errs, code := fh.run(s)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	for name, want := range map[string]string{
		"rc.vlans_mlxen0":       "10 20\n",
		"rc.ifconfig_mlxen0":    "inet 192.168.1.5/24 -lro -tso up mtu 9000 media autoselect\n",
		"rc.ifconfig_mlxen0_10": "inet 10.10.0.1/24\n",
		"rc.ifconfig_mlxen0_20": "inet 10.20.0.1/24 mtu 9000\n",
	} {
		if got := fh.read(name); got != want {
			t.Errorf("%s = %q, want %q", strings.TrimPrefix(name, "rc."), got, want)
		}
	}
	out, _, _ = fh.run(s, "--check")
	if strings.Contains(out, "DIFF rc.conf") {
		t.Errorf("--check after the run:\n%s", out)
	}
}

// TestRcFragmentNotes: the fragment says which lines are merged.
func TestRcFragmentNotes(t *testing.T) {
	rc := files(t, fixture(), 1)["nas5.rc.conf"]
	for _, w := range []string{
		"# A list: add 2 to it (sysrc vlans_mce0+=2), keep the words already there.\nvlans_mce0=\"2\"\n",
		"# Merge: the fabric sets the words up, mtu; keep the interface's other words.\nifconfig_mce0=\"up mtu 9000\"\n",
		"# Merge: the fabric sets the address and the words mtu; keep the interface's other words.\nifconfig_mce0_2=\"inet 10.30.0.1/24 mtu 9000\"\n",
	} {
		if !strings.Contains(rc, w) {
			t.Errorf("rc.conf fragment lacks %q:\n%s", w, rc)
		}
	}
}

// TestFragmentHeaders: each fragment says where its lines go and that
// merged lines are merged.
func TestFragmentHeaders(t *testing.T) {
	m := files(t, fixture(), 1)
	if !strings.Contains(m["nas5.rc.conf"], "\n# Lines for rc.conf(5), which the script sets with sysrc(8). Merge the lines\n"+
		"# marked \"Merge\" or \"A list\" into the host's own values; do not replace them.\n") {
		t.Errorf("rc.conf header:\n%s", m["nas5.rc.conf"])
	}
	if !strings.Contains(m["nas5.loader.conf"], "\n# Lines for /boot/loader.conf, which the script edits; valid as a loader.conf(5)\n"+
		"# file of its own in /boot/loader.conf.d where the script does not run.\n") {
		t.Errorf("loader.conf header:\n%s", m["nas5.loader.conf"])
	}
}
