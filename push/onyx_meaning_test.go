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

// TestOnyxTrunkVLANs: a trunk's allowed-vlan lines are sent as a whole
// when the set they build differs from the switch's, whatever form the
// running config prints it in, and not at all when it matches.
func TestOnyxTrunkVLANs(t *testing.T) {
	want := []string{
		"interface ethernet 1/7 switchport mode trunk",
		"interface ethernet 1/7 switchport trunk allowed-vlan none",
		"interface ethernet 1/7 switchport trunk allowed-vlan add 101",
		"interface ethernet 1/7 switchport trunk allowed-vlan add 102",
	}
	all := want[1:]
	for _, tc := range []struct {
		name    string
		running []string
		send    []string
	}{
		{"one list, same set", []string{want[0], "interface ethernet 1/7 switchport trunk allowed-vlan 101,102"}, nil},
		{"none and add lines, same set", want, nil},
		{"a range, same set", []string{want[0], "interface ethernet 1/7 switchport trunk allowed-vlan 101-102"}, nil},
		{"the device's layout, same set", onyxLines("   interface ethernet 1/6-1/7 switchport mode trunk\n   interface ethernet 1/7 switchport trunk allowed-vlan none\n" +
			"   interface ethernet 1/7 switchport trunk allowed-vlan add 101\n   interface ethernet 1/7 switchport trunk allowed-vlan add 102\n"), nil},
		// Sending only "add 102" would leave 103 allowed: every line goes.
		{"none and add lines, another set", []string{want[0], want[1], want[2], "interface ethernet 1/7 switchport trunk allowed-vlan add 103"}, all},
		{"one list, a VLAN short", []string{want[0], "interface ethernet 1/7 switchport trunk allowed-vlan 101"}, all},
		{"a trunk allowing every VLAN", []string{want[0]}, all},
		{"an access port becoming the trunk", nil, want},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := onyxMissing(want, tc.running); !reflect.DeepEqual(got, tc.send) {
				t.Errorf("send %q\nwant %q", got, tc.send)
			}
		})
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
