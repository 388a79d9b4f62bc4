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
