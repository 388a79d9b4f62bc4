package devsem

import (
	"slices"
	"testing"
)

// TestOnyxVLANRules pins the Onyx list rules the readers apply.
func TestOnyxVLANRules(t *testing.T) {
	tests := []struct {
		name   string
		config string
		all    bool
		tagged []int
		untag  int
	}{
		{"a new trunk allows every VLAN", "interface ethernet 1/1 switchport mode trunk", true, nil, 0},
		{"a bare list replaces", "interface ethernet 1/1 switchport mode trunk\ninterface ethernet 1/1 switchport trunk allowed-vlan 10\ninterface ethernet 1/1 switchport trunk allowed-vlan 20", false, []int{20}, 0},
		{"none then add", "interface ethernet 1/1 switchport mode trunk\ninterface ethernet 1/1 switchport trunk allowed-vlan none\ninterface ethernet 1/1 switchport trunk allowed-vlan add 10\ninterface ethernet 1/1 switchport trunk allowed-vlan add 20-21", false, []int{10, 20, 21}, 0},
		{"remove", "interface ethernet 1/1 switchport mode trunk\ninterface ethernet 1/1 switchport trunk allowed-vlan 10,20\ninterface ethernet 1/1 switchport trunk allowed-vlan remove 10", false, []int{20}, 0},
		{"hybrid: access VLAN untagged", "interface ethernet 1/1 switchport mode hybrid\ninterface ethernet 1/1 switchport access vlan 5\ninterface ethernet 1/1 switchport hybrid allowed-vlan add 10", false, []int{10}, 5},
		{"a range of ports", "interface ethernet 1/1-1/2 switchport mode trunk\ninterface ethernet 1/1-1/2 switchport trunk allowed-vlan none", false, []int{}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sw, err := ReadOnyx(tt.config)
			if err != nil {
				t.Fatal(err)
			}
			p := sw.Ports["1/1"]
			if p.AllVLANs != tt.all || !slices.Equal(p.Tagged, tt.tagged) || p.Untagged != tt.untag {
				t.Errorf("all %v tagged %v untagged %d; want %v %v %d", p.AllVLANs, p.Tagged, p.Untagged, tt.all, tt.tagged, tt.untag)
			}
		})
	}
	if _, err := ReadOnyx("interface ethernet 1/1 switchport mode trunk\ninterface ethernet 1/1 switchport trunk allowed-vlan add 10"); err == nil {
		t.Error("add on a trunk that allows every VLAN read without error")
	}
}

// TestPauseRoom pins each platform's threshold meaning on one example:
// the room after PAUSE is the buffer minus the xoff threshold.
func TestPauseRoom(t *testing.T) {
	onyx := "interface ethernet 1/1 dcb priority-flow-control mode on force\n" +
		// Demartek RoCE Deployment Guide, step 9.
		"interface ethernet 1/1 ingress-buffer iPort.pg3 map pool iPool0 type lossless reserved 90000 xoff 17000 xon 17000 shared alpha 2\n"
	nvue := `- set:
    qos:
      pfc:
        default-global:
          switch-priority:
            "3": {}
          port-buffer: 25000
          xoff-threshold: 10000
          xon-threshold: 2000
    interface:
      swp1:
        link:
          mtu: 9216
`
	eos := "interface Ethernet1\n   priority-flow-control on\n   priority-flow-control priority 3 no-drop\n!\n" +
		"platform trident mmu queue profile p\n    ingress headroom bytes 64000\n!\nplatform trident mmu queue profile p apply\n"
	for _, tt := range []struct {
		name, port string
		read       func(string) (*Switch, error)
		config     string
		pg         int
		room       int64
	}{
		{"onyx advanced", "1/1", ReadOnyx, onyx, 3, 73000},
		{"nvue default-global", "swp1", ReadNVUE, nvue, -1, 15000},
		{"eos trident profile", "Ethernet1", ReadEOS, eos, -1, 64000},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sw, err := tt.read(tt.config)
			if err != nil {
				t.Fatal(err)
			}
			g, ok := sw.Ports[tt.port].Lossless[tt.pg]
			if !ok || g.RoomAfterPause() != tt.room || sw.DeviceHeadroom {
				t.Errorf("PG %+v (found %v, device headroom %v): room %d, want %d", g, ok, sw.DeviceHeadroom, g.RoomAfterPause(), tt.room)
			}
		})
	}
}

// TestDeviceHeadroom: where the config leaves headroom to the switch, the
// reader says so.
func TestDeviceHeadroom(t *testing.T) {
	onyx, err := ReadOnyx("traffic pool roce type lossless\ninterface ethernet 1/1 dcb priority-flow-control mode on force")
	if err != nil || !onyx.DeviceHeadroom {
		t.Errorf("Onyx traffic pools: device headroom %v, %v", onyx != nil && onyx.DeviceHeadroom, err)
	}
	eos, err := ReadEOS("interface Ethernet1\n   priority-flow-control on\n")
	if err != nil || !eos.DeviceHeadroom {
		t.Errorf("EOS without an MMU profile: device headroom %v, %v", eos != nil && eos.DeviceHeadroom, err)
	}
}

// TestUnits: Onyx ECN in KB of 1024 B; EOS ECN only in bytes.
func TestUnits(t *testing.T) {
	sw, err := ReadOnyx("interface ethernet 1/1 traffic-class 3 congestion-control ecn minimum-absolute 147 maximum-absolute 1465")
	if err != nil || sw.Ports["1/1"].ECN[3] != (ECN{MinBytes: 150528, MaxBytes: 1500160}) {
		t.Errorf("Onyx ECN = %+v, %v", sw.Ports["1/1"].ECN, err)
	}
	if _, err := ReadEOS("interface Ethernet1\n   tx-queue 3\n      random-detect ecn minimum-threshold 150 kbytes maximum-threshold 1500 kbytes\n"); err == nil {
		t.Error("EOS kbytes read without error")
	}
}

// TestLinuxCNPWrites: the sysfs and debugfs files set the CNP marking; a
// field not written keeps the firmware default.
func TestLinuxCNPWrites(t *testing.T) {
	got, err := ReadLinuxCNP("would run: echo 46 > /sys/class/net/ens1/ecn/roce_np/cnp_dscp\n" +
		"would run: echo 5 > /sys/kernel/debug/mlx5/0000:3b:00.0/cc_params/np_cnp_prio\n")
	if err != nil {
		t.Fatal(err)
	}
	for dev, want := range map[string]CNP{"ens1": {46, 6}, "0000:3b:00.0": {48, 5}, "ens9": DefaultCNP} {
		if got.Of(dev) != want {
			t.Errorf("%s: %+v, want %+v", dev, got.Of(dev), want)
		}
	}
}
