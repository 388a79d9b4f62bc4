package linux

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// railHost is the fixture's stor1 with one inbox NIC per address, on
// fab0, fab1, ... (VLAN vlan), without tuning.
func railHost(vlan int, addrs ...string) *model.Fabric {
	f := fixture()
	var nics []model.NIC
	for i, a := range addrs {
		ifc := "fab" + string(rune('0'+i))
		nics = append(nics, fixtureNIC("roce"+string(rune('0'+i)), ifc, "ConnectX-5", "mellanox", "inbox", vlan, a))
	}
	f.Hosts[2].NICs = nics
	f.Hosts[2].Tuning = false
	return f
}

// TestRailScript: a host with two or more NICs with IPv4 addresses has
// each of those NICs call rail_sysctls on the interface carrying its
// addresses (the VLAN's when tagged); a host with one such NIC, or with
// IPv6-only NICs (ARP is IPv4's), has neither the step nor the helper.
func TestRailScript(t *testing.T) {
	const comment = "\t# One of 2 NICs with IPv4 addresses: ARP answered for its own addresses only,\n" +
		"\t# loose reverse-path filtering (Linux kernel ip-sysctl.rst; rail_sysctls).\n"
	tests := []struct {
		name  string
		f     *model.Fabric
		steps []string // the rail_sysctls lines, in order; nil: no step, no helper
	}{
		{"two, one subnet", railHost(0, "192.0.2.1/24", "192.0.2.2/24"),
			[]string{comment + "\trail_sysctls \"$ifc\"\n", comment + "\trail_sysctls \"$ifc\"\n"}},
		{"two /31 on a VLAN", railHost(2, "10.1.1.1/31", "10.1.1.3/31"),
			[]string{comment + "\trail_sysctls fab0.2\n", comment + "\trail_sysctls fab1.2\n"}},
		{"one IPv4 and one IPv6-only", railHost(0, "192.0.2.1/24", "fd00::2/64"), nil},
		{"one", railHost(0, "192.0.2.1/24"), nil},
		{"IPv6 only", railHost(0, "fd00::1/64", "fd00::2/64"), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := render(t, tc.f, 2)
			if tc.steps == nil {
				if strings.Contains(s, "rail_sysctls") {
					t.Errorf("script has rail_sysctls")
				}
				return
			}
			if !strings.Contains(s, "\nrail_sysctls() {\n") {
				t.Errorf("script lacks the rail_sysctls helper")
			}
			if got := strings.Count(s, "\trail_sysctls "); got != len(tc.steps) {
				t.Errorf("%d rail_sysctls steps, want %d", got, len(tc.steps))
			}
			for i, w := range tc.steps {
				fn := s[strings.Index(s, "\nnic_"+string(rune('1'+i))+"() {\n"):]
				fn = fn[:strings.Index(fn, "\n}\n")]
				if !strings.Contains(fn, "\n"+w) {
					t.Errorf("nic_%d lacks\n%s\nin\n%s", i+1, w, fn)
				}
			}
		})
	}
}

// TestNetnsRails runs rail_sysctls for real on a veth pair, both ends in
// one namespace with an address in one subnet (the namespace's own
// /proc/sys/net/ipv4/conf): --check reports the three values of each
// interface, --dry-run shows the writes, a run sets them, --check then
// passes and a second run changes nothing.
func TestNetnsRails(t *testing.T) {
	ns := newNetns(t)
	s := render(t, railHost(0, "192.0.2.1/24", "192.0.2.2/24"), 2)
	out, _ := runScript(t, s, ns, "--check")
	var check, dry, set []string
	for _, ifc := range []string{"fab0", "fab1"} {
		for _, kv := range [][2]string{{"arp_ignore", "1"}, {"arp_announce", "2"}, {"rp_filter", "2"}} {
			check = append(check, "DIFF "+ifc+" "+kv[0]+": intended "+kv[1]+"; actual 0\n")
			dry = append(dry, "would run: echo "+kv[1]+" > /proc/sys/net/ipv4/conf/"+ifc+"/"+kv[0]+"\n")
			set = append(set, "set "+ifc+" "+kv[0]+": 0 -> "+kv[1]+"\n")
		}
	}
	mustHave(t, "--check", out, check...)
	out, _ = runScript(t, s, ns, "--dry-run")
	mustHave(t, "--dry-run", out, dry...)
	out, err := runScript(t, s, ns)
	if err != nil {
		t.Fatalf("apply: %v\n%s", err, out)
	}
	mustHave(t, "apply", out, set...)
	for _, ifc := range []string{"fab0", "fab1"} {
		got, err := exec.Command("ip", "netns", "exec", ns, "cat",
			"/proc/sys/net/ipv4/conf/"+ifc+"/arp_ignore", "/proc/sys/net/ipv4/conf/"+ifc+"/arp_announce", "/proc/sys/net/ipv4/conf/"+ifc+"/rp_filter").CombinedOutput()
		if err != nil || string(got) != "1\n2\n2\n" {
			t.Errorf("%s after apply: %v %q, want 1 2 2", ifc, err, got)
		}
	}
	if out, err = runScript(t, s, ns, "--check"); err != nil || strings.Contains(out, "DIFF") {
		t.Errorf("--check after apply: %v\n%s", err, out)
	}
	if out, err = runScript(t, s, ns); err != nil || strings.Contains(out, "\nset ") {
		t.Errorf("second run changed something: %v\n%s", err, out)
	}
}

// TestGIDInfo runs gid_info on a fake /sys/class/infiniband: --check
// names the lowest index whose GID is the address's, of type RoCE v2, on
// the interface with the address, as an info: line (never a DIFF); a GID
// of type RoCE v1 or on another netdev (the parent of a VLAN) does not
// count, and none is "not found"; a run prints nothing.
func TestGIDInfo(t *testing.T) {
	const (
		v4  = "0000:0000:0000:0000:0000:ffff:0a0a:0101"
		ll  = "fe80:0000:0000:0000:0e42:a1ff:fe00:0001"
		dir = "/sys/class/infiniband/mlx5_0/ports/1/"
	)
	gid := func(n, g, typ, ndev string, files map[string]string) {
		files[dir+"gids/"+n] = g
		files[dir+"gid_attrs/types/"+n] = typ
		if ndev != "" {
			files[dir+"gid_attrs/ndevs/"+n] = ndev
		}
	}
	table := map[string]string{}
	gid("0", ll, "IB/RoCE v1", "fab0", table)
	gid("1", ll, "RoCE v2", "fab0", table)
	gid("2", v4, "IB/RoCE v1", "fab0", table)
	gid("3", v4, "RoCE v2", "fab0", table)
	gid("4", "0000:0000:0000:0000:0000:0000:0000:0000", "IB/RoCE v1", "", table)
	gid("10", v4, "RoCE v2", "fab0", table) // after 3 by number, before it by name
	// /sys/class/infiniband exists only with the RDMA core loaded, and sysfs
	// takes no new directory: the tmpfs covers /sys/class.
	fs := fakeSys{mounts: []string{"/sys/class"}, files: table}
	tests := []struct {
		name, body string
		args       []string
		want       string
	}{
		{"found", "gid_info fab0 mlx5_0 1 fab0 10.10.1.1 " + v4 + "\n", []string{"--check"},
			"info: fab0: RoCE v2 GID index 3 (mlx5_0 port 1, 10.10.1.1 on fab0): NCCL_IB_GID_INDEX=3, UCX_IB_GID_INDEX=3\n"},
		{"other netdev", "gid_info fab0 mlx5_0 1 fab0.2 10.10.1.1 " + v4 + "\n", []string{"--check"},
			"info: fab0: RoCE v2 GID index not found: no RoCE v2 GID of mlx5_0 port 1 carries 10.10.1.1 on fab0.2 (check the address and the VLAN)\n"},
		{"other address", "gid_info fab0 mlx5_0 1 fab0 10.10.1.2 0000:0000:0000:0000:0000:ffff:0a0a:0102\n", []string{"--check"},
			"info: fab0: RoCE v2 GID index not found: no RoCE v2 GID of mlx5_0 port 1 carries 10.10.1.2 on fab0 (check the address and the VLAN)\n"},
		{"other port", "gid_info fab0 mlx5_0 2 fab0 10.10.1.1 " + v4 + "\n", []string{"--check"},
			"info: fab0: RoCE v2 GID index not found: no RoCE v2 GID of mlx5_0 port 2 carries 10.10.1.1 on fab0 (check the address and the VLAN)\n"},
		{"run", "gid_info fab0 mlx5_0 1 fab0 10.10.1.1 " + v4 + "\n", nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := fs.run(t, tc.body+"echo \"diffs $DIFFS\"\n", tc.args...)
			if want := tc.want + "diffs 0\n"; err != nil || out != want {
				t.Errorf("%v\n%s\nwant:\n%s", err, out, want)
			}
		})
	}
}

// TestGIDStep: a RoCE v2 NIC's roce_cm step carries the interface with
// its address, the address its GID carries (the first IPv4 one, else the
// first IPv6 one that is not link-local) and that GID as sysfs shows it;
// a RoCE v1 NIC's, or one without an address, carries none.
func TestGIDStep(t *testing.T) {
	tests := []struct {
		name  string
		vlan  int
		addrs []string
		mode  string
		want  string
	}{
		{"IPv4", 0, []string{"fd00::1/64", "10.10.1.1/24"}, "v2",
			"\troce_cm \"$ifc\" 'RoCE v2' 106 mlx5_ib \"$ifc\" 10.10.1.1 0000:0000:0000:0000:0000:ffff:0a0a:0101\n"},
		{"IPv6 on a VLAN", 2, []string{"fe80::1/64", "fd00:0:0:12::1/64"}, "v2",
			"\troce_cm \"$ifc\" 'RoCE v2' 106 mlx5_ib fab0.2 fd00:0:0:12::1 fd00:0000:0000:0012:0000:0000:0000:0001\n"},
		{"RoCE v1", 0, []string{"10.10.1.1/24"}, "v1", "\troce_cm \"$ifc\" 'IB/RoCE v1' 104 mlx5_ib\n"},
		{"no address", 0, nil, "v2", "\troce_cm \"$ifc\" 'RoCE v2' 106 mlx5_ib\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := railHost(tc.vlan, "192.0.2.1/24")
			n := &f.Hosts[2].NICs[0]
			n.Addresses, n.RoCE.Mode = tc.addrs, tc.mode
			if tc.mode == "v1" {
				n.RoCE.TOS = n.RoCE.DSCP << 2 // no IP header, no ECN field: as the compiler resolves it
			}
			if s := render(t, f, 2); !strings.Contains(s, "\n"+tc.want) {
				t.Errorf("script lacks\n%s", tc.want)
			}
		})
	}
}
