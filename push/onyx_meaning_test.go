package push

import (
	"reflect"
	"testing"
)

// TestOnyxMissingReadsTheDevicesLayout feeds onyxMissing running
// configurations as Onyx prints them: ranges, three-space indentation,
// defaults left out, quotes only where Onyx puts them. Only a line that
// changes what the switch does may be sent.
func TestOnyxMissingReadsTheDevicesLayout(t *testing.T) {
	for _, tc := range []struct {
		name    string
		running string
		want    []string
		send    []string
	}{
		{"range covers per-port lines",
			"   interface ethernet 1/1-1/3 mtu 9216 force\n",
			[]string{"interface ethernet 1/1 mtu 9216 force", "interface ethernet 1/3 mtu 9216 force", "interface ethernet 1/4 mtu 9216 force"},
			[]string{"interface ethernet 1/4 mtu 9216 force"}},
		{"defaults hold without a line",
			"##\n## Interface Ethernet configuration\n##\n",
			[]string{"interface ethernet 1/1 switchport mode access", "interface ethernet 1/1 no shutdown", "interface ethernet 1/1 qos trust L2",
				"interface ethernet 1/1 flowcontrol send off force", "interface ethernet 1/1 flowcontrol receive off force",
				"interface ethernet 1/1 traffic-class 3 bind switch-priority 3", "interface ethernet 1/1 qos map dscp 48 to switch-priority 6",
				"interface ethernet 1/1 mtu 1500 force", "interface ethernet 1/1 mtu 9216 force"},
			[]string{"interface ethernet 1/1 mtu 9216 force"}},
		{"a DSCP map line holds when the switch prints only its non-default part",
			"   interface ethernet 1/1-1/2 qos map dscp 8 9 10 11 12 13 14 15 to switch-priority 0\n",
			[]string{"interface ethernet 1/1 qos map dscp 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 to switch-priority 0",
				"interface ethernet 1/2 qos map dscp 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 to switch-priority 0",
				"interface ethernet 1/3 qos map dscp 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 to switch-priority 0"},
			[]string{"interface ethernet 1/3 qos map dscp 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 to switch-priority 0"}},
		{"quotes do not matter",
			"   vlan 10 name \"rdma\"\n   interface ethernet 1/1 description to-host\n   interface ethernet 1/2 description \"to host 2\"\n",
			[]string{"vlan 10 name rdma", `interface ethernet 1/1 description "to-host"`, `interface ethernet 1/2 description "to host 2"`, "vlan 10 name storage"},
			[]string{"vlan 10 name storage"}},
		{"a mode change resends the membership",
			"   interface ethernet 1/1 switchport access vlan 10\n",
			[]string{"interface ethernet 1/1 switchport mode hybrid", "interface ethernet 1/1 switchport access vlan 10", "interface ethernet 1/1 switchport hybrid allowed-vlan add 20", "interface ethernet 1/2 switchport access vlan 10"},
			[]string{"interface ethernet 1/1 switchport mode hybrid", "interface ethernet 1/1 switchport access vlan 10", "interface ethernet 1/1 switchport hybrid allowed-vlan add 20", "interface ethernet 1/2 switchport access vlan 10"}},
		{"PFC mode off prints as a no form",
			"   interface ethernet 1/1 no dcb priority-flow-control mode force\n   interface ethernet 1/2 dcb priority-flow-control mode on force\n",
			[]string{"interface ethernet 1/1 no dcb priority-flow-control mode force", "interface ethernet 1/2 dcb priority-flow-control mode on force", "interface ethernet 1/3 dcb priority-flow-control mode auto force"},
			nil},
		{"a pool share is compared as a number",
			"   traffic pool roce type lossless\n   traffic pool roce memory percent 50.00\n   traffic pool roce map switch-priority 3\n",
			[]string{"traffic pool roce type lossless", "traffic pool roce memory percent 50.0", "traffic pool roce map switch-priority 3", "traffic pool roce memory percent 51.80"},
			[]string{"traffic pool roce memory percent 51.80"}},
		{"an unknown line holds only as the same text",
			"   lldp\n",
			[]string{"lldp", "protocol mlag"},
			[]string{"protocol mlag"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := onyxMissing(tc.want, onyxLines(tc.running))
			if !reflect.DeepEqual(got, tc.send) {
				t.Errorf("send %q\nwant %q", got, tc.send)
			}
		})
	}
}

// TestOnyxTrunkVLANs: a trunk's allowed-vlan lines are compared as the
// set they build, whatever form the running config prints it in; a port
// that stays a trunk gets only the VLANs to add, then those to remove
// (review rsw #3: `allowed-vlan none` on a live trunk stops every VLAN
// until the last `add`), and a port becoming a trunk every line.
func TestOnyxTrunkVLANs(t *testing.T) {
	const port = "interface ethernet 1/7 switchport trunk allowed-vlan "
	want := []string{
		"interface ethernet 1/7 switchport mode trunk",
		port + "none",
		port + "add 101",
		port + "add 102",
	}
	for _, tc := range []struct {
		name    string
		running []string
		send    []string
	}{
		{"one list, same set", []string{want[0], port + "101,102"}, nil},
		{"none and add lines, same set", want, nil},
		{"a range, same set", []string{want[0], port + "101-102"}, nil},
		{"the device's layout, same set", onyxLines("   interface ethernet 1/6-1/7 switchport mode trunk\n   interface ethernet 1/7 switchport trunk allowed-vlan none\n" +
			"   interface ethernet 1/7 switchport trunk allowed-vlan add 101\n   interface ethernet 1/7 switchport trunk allowed-vlan add 102\n"), nil},
		{"none and add lines, another set", []string{want[0], want[1], want[2], port + "add 103"}, []string{port + "add 102", port + "remove 103"}},
		{"one list, a VLAN short", []string{want[0], port + "101"}, []string{port + "add 102"}},
		{"one list, a VLAN too many", []string{want[0], port + "101-103"}, []string{port + "remove 103"}},
		{"another list altogether: additions first", []string{want[0], "vlan 200", "vlan 201", port + "200,201"},
			[]string{port + "add 101", port + "add 102", port + "remove 200", port + "remove 201"}},
		// Removing from "all" leaves every other VLAN the switch has.
		{"a trunk allowing every VLAN", []string{"vlan 101", "vlan 102", "vlan 200", want[0]}, []string{port + "remove 1", port + "remove 200"}},
		{"an access port becoming the trunk", nil, want},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := onyxMissing(want, tc.running); !reflect.DeepEqual(got, tc.send) {
				t.Errorf("send %q\nwant %q", got, tc.send)
			}
		})
	}
}

// TestOnyxHybridVLANs: a hybrid port that stays hybrid gets the delta
// too, in the form of NVIDIA's own onyx_l2_interface unit test
// test_trunk_vlan_change (VLAN 10 -> 11), additions first.
func TestOnyxHybridVLANs(t *testing.T) {
	want := []string{"vlan 11", "interface ethernet 1/10 switchport mode hybrid", "interface ethernet 1/10 switchport hybrid allowed-vlan add 11"}
	running := onyxLines("vlan 10\nvlan 11\n   interface ethernet 1/10 switchport mode hybrid\n   interface ethernet 1/10 switchport hybrid allowed-vlan add 10\n")
	got := onyxMissing(want, running)
	send := []string{"interface ethernet 1/10 switchport hybrid allowed-vlan add 11", "interface ethernet 1/10 switchport hybrid allowed-vlan remove 10"}
	if !reflect.DeepEqual(got, send) {
		t.Errorf("send %q\nwant %q", got, send)
	}
	diff := "+ interface ethernet 1/10 switchport hybrid allowed-vlan add 11\n" +
		"- interface ethernet 1/10 switchport hybrid allowed-vlan add 10\n+ interface ethernet 1/10 switchport hybrid allowed-vlan remove 10\n"
	if d := onyxDiff(running, got); d != diff {
		t.Errorf("diff:\n%s\nwant\n%s", d, diff)
	}
	// Rollback takes one VLAN off the way it went on.
	if n := onyxNegate(send[0]); n != send[1][:len(send[1])-len("remove 10")]+"remove 11" {
		t.Errorf("undo of %q: %q", send[0], n)
	}
}

func TestOnyxDiffShowsReplacedLines(t *testing.T) {
	running := onyxLines("   interface ethernet 1/1-1/2 mtu 9000 force\n   interface ethernet 1/1 traffic-class 3 congestion-control ecn minimum-absolute 100 maximum-absolute 1000\n")
	got := onyxDiff(running, []string{"interface ethernet 1/1 mtu 9216 force", "interface ethernet 1/1 traffic-class 3 congestion-control ecn minimum-absolute 150 maximum-absolute 1500"})
	want := "- interface ethernet 1/1 mtu 9000 force\n+ interface ethernet 1/1 mtu 9216 force\n" +
		"- interface ethernet 1/1 traffic-class 3 congestion-control ecn minimum-absolute 100 maximum-absolute 1000\n" +
		"+ interface ethernet 1/1 traffic-class 3 congestion-control ecn minimum-absolute 150 maximum-absolute 1500\n"
	if got != want {
		t.Errorf("diff:\n%s\nwant\n%s", got, want)
	}
}
