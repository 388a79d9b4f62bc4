package push

import (
	"testing"

	"github.com/fabricc/fabricc/push/verify"
)

// mlagTail is the refusal's words on ports that are part of an MLAG:
// no command that takes the port out (an outage of a host's leg or of
// the peer link), the port left out of the fabric.
const mlagTail = "; taking such a port out of its bundle cuts a dual-homed host's link or the MLAG peer link, " +
	"and fabricc does not configure MLAG, so leave the port out of the fabric, and push again; nothing was changed"

// TestNVUEMLAGMembersRefusedWithoutRemoval: a member of an MLAG bond
// (`bond mlag id`, NVUE 5.14 `enable on` or 5.15 `state enabled`) or of
// the peer link (NVUE's `interface peerlink`, `type: peerlink`) is named
// as part of an MLAG with no removal command; a plain bond member keeps
// its `nv unset` way out, and a bond whose MLAG is `state disabled` is a
// plain bond.
func TestNVUEMLAGMembersRefusedWithoutRemoval(t *testing.T) {
	conf, err := verify.ParseNVUEConfig([]byte(`[{"set": {"interface": {
	  "bond1": {"type": "bond", "bond": {"member": {"swp1": {}}, "mlag": {"enable": "on", "id": 1}}},
	  "bond2": {"type": "bond", "bond": {"member": {"swp2": {}}}},
	  "bond3": {"type": "bond", "bond": {"member": {"swp3": {}}, "mlag": {"state": "enabled", "id": 3}}},
	  "bond4": {"type": "bond", "bond": {"member": {"swp4": {}}, "mlag": {"state": "disabled", "id": 4}}},
	  "peerlink": {"type": "peerlink", "bond": {"member": {"swp49-50": {}}}}}}}]`))
	if err != nil {
		t.Fatal(err)
	}
	plainWhy := "; a member takes its bridge domain, MTU and QoS from its bond, which fabricc does not manage, so fabricc cannot configure the port: " +
		"take it out of the bond (then nv config apply -y) or leave the port out of the fabric"
	for _, tc := range []struct {
		ports []string
		want  string
	}{
		{[]string{"swp1", "swp3", "swp49", "swp50"}, "fabric ports are part of an MLAG on the switch: " +
			"swp1 is a member of MLAG bond bond1 (bond mlag id 1); swp3 is a member of MLAG bond bond3 (bond mlag id 3); " +
			"swp49 is a member of the MLAG peer link peerlink; swp50 is a member of the MLAG peer link peerlink" + mlagTail},
		{[]string{"swp1", "swp2", "swp4"}, "fabric ports are bond members on the switch: " +
			"swp2 is a member of bond bond2 (`nv unset interface bond2 bond member swp2` takes it out); " +
			"swp4 is a member of bond bond4 (`nv unset interface bond4 bond member swp4` takes it out)" + plainWhy + "; " +
			"fabric ports are part of an MLAG on the switch: swp1 is a member of MLAG bond bond1 (bond mlag id 1)" + mlagTail},
	} {
		err := refuseBondMembers(conf, tc.ports, nil)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%v: %v\nwant %s", tc.ports, err, tc.want)
		}
	}
}

// TestOnyxMLAGMembersRefusedWithoutRemoval: an mlag-channel-group member
// and a member of the port-channel that is the IPL (`interface
// port-channel 100 ipl 1`, as in a real Onyx 3.9.3210 MLAG running
// configuration) are named as part of an MLAG with no removal command;
// a plain port-channel member keeps `no channel-group`.
func TestOnyxMLAGMembersRefusedWithoutRemoval(t *testing.T) {
	running := []string{
		"interface port-channel 1", "interface port-channel 100", "interface mlag-port-channel 2",
		"interface ethernet 1/5 channel-group 1 mode active",
		"interface ethernet 1/6 mlag-channel-group 2 mode active",
		"interface ethernet 1/13 channel-group 100 mode active",
		"interface port-channel 100 ipl 1",
	}
	ours := map[string]bool{"1/5": true, "1/6": true, "1/13": true}
	want := "fabric ports are LAG members on the switch: 1/5 is a member of port-channel 1 (`interface ethernet 1/5 no channel-group` takes it out); " +
		"a member takes its switchport mode and VLANs from its port-channel, which fabricc does not manage, so fabricc cannot configure the port: " +
		"take it out of the bundle or leave the port out of the fabric; " +
		"fabric ports are part of an MLAG on the switch: 1/6 is a member of mlag-port-channel 2; " +
		"1/13 is a member of port-channel 100, the MLAG IPL (peer link)" + mlagTail
	if err := onyxLAGMembers(ours, running); err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// TestEOSMLAGMembersRefusedWithoutRemoval: a member of a Port-Channel with
// `mlag 10` and of the Port-Channel `mlag configuration` names as its
// `peer-link` are named as part of an MLAG with no removal command; a
// plain Port-Channel member keeps `no channel-group`.
func TestEOSMLAGMembersRefusedWithoutRemoval(t *testing.T) {
	running := "interface Port-Channel10\n   switchport mode trunk\n   mlag 10\n!\n" +
		"interface Port-Channel20\n   switchport mode trunk\n!\n" +
		"interface Port-Channel1000\n   switchport mode trunk\n!\n" +
		"interface Ethernet1/1\n   channel-group 10 mode active\n!\n" +
		"interface Ethernet2/1\n   channel-group 20 mode active\n!\n" +
		"interface Ethernet3/1\n   channel-group 1000 mode active\n!\n" +
		"mlag configuration\n   domain-id pod1\n   local-interface Vlan4094\n   peer-address 10.255.255.2\n   peer-link Port-Channel1000\n!\n"
	ours := map[string]bool{"Ethernet1/1": true, "Ethernet2/1": true, "Ethernet3/1": true}
	want := "fabric ports are Port-Channel members on the switch: Ethernet2/1 is a member of Port-Channel20 (`interface Ethernet2/1` then `no channel-group` takes it out); " +
		"a member takes its switchport mode, VLANs and MTU from its Port-Channel, which fabricc does not manage, so fabricc cannot configure the port: " +
		"take it out of the Port-Channel or leave the port out of the fabric; " +
		"fabric ports are part of an MLAG on the switch: Ethernet1/1 is a member of Port-Channel10 (mlag 10); " +
		"Ethernet3/1 is a member of Port-Channel1000, the MLAG peer link" + mlagTail
	if err := eosLAGMembers(ours, running); err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}
