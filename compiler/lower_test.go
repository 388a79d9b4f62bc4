package compiler

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
)

func TestNaturalLess(t *testing.T) {
	for _, tc := range []struct{ in, want []string }{
		{[]string{"1/10", "1/2", "1/1/2", "1/1", "1/1/1"}, []string{"1/1", "1/1/1", "1/1/2", "1/2", "1/10"}},
		{[]string{"Ethernet10", "Ethernet2", "Ethernet1/4", "Ethernet1/1"}, []string{"Ethernet1/1", "Ethernet1/4", "Ethernet2", "Ethernet10"}},
		{[]string{"swp10", "swp2", "swp1s1", "swp1s0", "swp1"}, []string{"swp1", "swp1s0", "swp1s1", "swp2", "swp10"}},
	} {
		got := append([]string(nil), tc.in...)
		sort.Slice(got, func(i, j int) bool { return naturalLess(got[i], got[j]) })
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("sorted %v = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestPortsInNaturalOrder(t *testing.T) {
	f, _ := mustLower(t, `
fabric "lab" {}
switch "sn2410" {
  platform = "onyx"
  model    = "SN2410"
  port "1/10,1/2" {
    speed = "25G"
  }
  port "1/1,1/3" {
    speed = "10G"
  }
}
`)
	var names []string
	for _, p := range f.Switches[0].Ports {
		names = append(names, p.Name)
	}
	if want := []string{"1/1", "1/2", "1/3", "1/10"}; !reflect.DeepEqual(names, want) {
		t.Errorf("ports = %v, want %v", names, want)
	}
}

func TestPortDefaultsAndOverrides(t *testing.T) {
	f, src := mustLower(t, `
fabric "lab" {}
vlan "rdma" {
  id = 100
}
vlan "mgmt" {
  id = 10
}
switch "leaf1" {
  platform = "eos"
  model    = "7050SX3-48YC8"
  port "Ethernet1-4" {
    speed = "25G"
    vlans = [100, 10, 100]
  }
  port "Ethernet10" {
    speed = "25G"
    pfc   = false
  }
  override "Ethernet3-4" {
    mtu         = 9000
    mode        = "access"
    vlans       = [10]
    description = "storage"
    trust       = "pcp"
    shutdown    = true
  }
  pfc_watchdog {
    timeout_ms = 400
  }
}
`)
	sw := f.Switches[0]
	if sw.OSVersion != "4.32.2F" || sw.Hardware.Model != "7050SX3-48YC8" {
		t.Errorf("os %q model %q", sw.OSVersion, sw.Hardware.Model)
	}
	if want := (model.PFCWatchdog{Enabled: true, Action: "drop", TimeoutMs: 400, PollingIntervalMs: 100, RestoreMs: 200}); sw.PFCWatchdog != want {
		t.Errorf("watchdog = %+v, want %+v", sw.PFCWatchdog, want)
	}
	want := []model.Port{
		{Name: "Ethernet1", SpeedMbps: 25000, Lanes: 1, MTU: 9214, Mode: model.ModeTrunk, TrunkVLANs: []int{10, 100},
			Trust: model.TrustDSCP, PFCPriorities: []int{3}, PFCWatchdog: true},
		{Name: "Ethernet2", SpeedMbps: 25000, Lanes: 1, MTU: 9214, Mode: model.ModeTrunk, TrunkVLANs: []int{10, 100},
			Trust: model.TrustDSCP, PFCPriorities: []int{3}, PFCWatchdog: true},
		{Name: "Ethernet3", Description: "storage", SpeedMbps: 25000, Lanes: 1, MTU: 9000, Mode: model.ModeAccess, AccessVLAN: 10,
			Trust: model.TrustPCP, PFCPriorities: []int{3}, PFCWatchdog: true, Shutdown: true},
		{Name: "Ethernet4", Description: "storage", SpeedMbps: 25000, Lanes: 1, MTU: 9000, Mode: model.ModeAccess, AccessVLAN: 10,
			Trust: model.TrustPCP, PFCPriorities: []int{3}, PFCWatchdog: true, Shutdown: true},
		{Name: "Ethernet10", SpeedMbps: 25000, Lanes: 1, MTU: 9214, Mode: model.ModeRouted,
			Trust: model.TrustDSCP, PFCPriorities: []int{}, PFCWatchdog: false},
	}
	if !reflect.DeepEqual(sw.Ports, want) {
		t.Errorf("ports =\n%+v\nwant\n%+v", sw.Ports, want)
	}
	for key, line := range map[string]int{
		"switch/leaf1/port/Ethernet3/mtu":   21,
		"switch/leaf1/port/Ethernet3/speed": 13,
		"switch/leaf1/port/Ethernet3":       12,
		"switch/leaf1/port/Ethernet10/pfc":  18,
	} {
		if r, ok := src.Get(key); !ok || r.Range().Start.Line != line {
			t.Errorf("src[%s] = %v, want line %d", key, r.Range(), line)
		}
	}
}

func TestLinksNormalisedAndPeers(t *testing.T) {
	f, src := mustLower(t, `
fabric "lab" {}
switch "spine1" {
  platform = "cumulus"
  model    = "SN3700"
  port "swp1-2" {
    speed = "100G"
  }
}
switch "leaf1" {
  platform = "cumulus"
  model    = "SN2410"
  port "swp10,swp49" {
    speed = "25G"
  }
}
host "gpu01" {
  os = "linux"
  nic "roce0" {
    model     = "ConnectX-6 Dx"
    interface = "ens1f0"
    addresses = ["10.0.0.1/31"] # swp10 is routed (no vlans)
  }
}
link {
  a      = "spine1:swp1"
  b      = "leaf1:swp49"
  length = 20
}
link {
  a      = "gpu01:roce0"
  b      = "leaf1:swp10"
  length = 2
}
`)
	want := []model.Link{
		{A: model.Endpoint{Kind: "switch", Device: "leaf1", Port: "swp10"}, B: model.Endpoint{Kind: "host", Device: "gpu01", Port: "roce0"}, CableMeters: 2, CableKind: "dac"},
		{A: model.Endpoint{Kind: "switch", Device: "leaf1", Port: "swp49"}, B: model.Endpoint{Kind: "switch", Device: "spine1", Port: "swp1"}, CableMeters: 20, CableKind: "aoc"},
	}
	if !reflect.DeepEqual(f.Links, want) {
		t.Errorf("links =\n%+v\nwant\n%+v", f.Links, want)
	}
	leaf := f.Switches[0]
	if p := leaf.Ports[0]; p.Description != "to gpu01:roce0" || *p.Peer != (model.Peer{Kind: "host", Device: "gpu01", Port: "roce0", CableMeters: 2, CableKind: "dac"}) {
		t.Errorf("leaf1 swp10 = %+v peer %+v", p, p.Peer)
	}
	if p := f.Switches[1].Ports[0]; p.Description != "to leaf1:swp49" || p.Peer.Kind != "switch" || p.Peer.Port != "swp49" {
		t.Errorf("spine1 swp1 = %+v peer %+v", p, p.Peer)
	}
	if p := f.Switches[1].Ports[1]; p.Peer != nil || p.Description != "" {
		t.Errorf("spine1 swp2 should be unused: %+v", p)
	}
	nic := f.Hosts[0].NICs[0]
	if nic.SpeedMbps != 25000 || *nic.Peer != (model.Peer{Kind: "switch", Device: "leaf1", Port: "swp10", CableMeters: 2, CableKind: "dac"}) {
		t.Errorf("nic speed %d peer %+v (speed defaults to the switch port's)", nic.SpeedMbps, nic.Peer)
	}
	for key, line := range map[string]int{
		"link/0": 25, "link/1": 30, "link/1/a": 31,
		"switch/leaf1/port/swp10/link": 30, "host/gpu01/nic/roce0/link": 30, "switch/spine1/port/swp1/link": 25,
	} {
		if r, ok := src.Get(key); !ok || r.Range().Start.Line != line {
			t.Errorf("src[%s] = %v, want line %d", key, r.Range(), line)
		}
	}
}

func TestNICDriverDefaults(t *testing.T) {
	for _, tc := range []struct {
		os, model, driver, vendor string
	}{
		{"linux", "ConnectX-4 Lx", "mlnx_ofed", "mellanox"},
		{"linux", "QL45212", "qede", "qlogic"},
		{"linux", "QLogic FastLinQ QL45212", "qede", "qlogic"},
		{"windows", "ConnectX-3 Pro", "winof", "mellanox"},
		{"windows", "ConnectX-4", "winof2", "mellanox"},
		{"windows", "ConnectX-7", "winof2", "mellanox"},
		{"windows", "QL45212", "qlogic", "qlogic"},
		{"freebsd", "ConnectX-3 Pro", "mlx4en", "mellanox"},
		{"freebsd", "ConnectX-5", "mlx5en", "mellanox"},
	} {
		t.Run(tc.os+"/"+tc.model, func(t *testing.T) {
			ifc := map[string]string{"mlx4en": "mlxen0", "mlx5en": "mce0"}[tc.driver]
			if ifc == "" {
				ifc = "eth0"
			}
			f, _ := mustLower(t, `
fabric "lab" {}
host "h1" {
  os = "`+tc.os+`"
  nic "n0" {
    model     = "`+tc.model+`"
    interface = "`+ifc+`"
    speed     = "10G"
  }
}
`)
			n := f.Hosts[0].NICs[0]
			if n.Driver != tc.driver || n.Vendor != tc.vendor || n.MTU != 9000 || n.Transport != model.TransportRoCE || n.SpeedMbps != 10000 {
				t.Errorf("nic = %+v, want driver %s vendor %s", n, tc.driver, tc.vendor)
			}
		})
	}
}

func TestNICRoCEv1AndPortTrust(t *testing.T) {
	f, _ := mustLower(t, `
fabric "lab" {}
vlan "rdma" {
  id = 2
}
switch "sn2410" {
  platform = "onyx"
  model    = "SN2410"
  port "1/1-1/2" {
    speed = "10G"
    vlans = [2]
  }
}
host "old" {
  os = "windows"
  nic "port1" {
    model        = "ConnectX-3 Pro"
    interface    = "Ethernet 4"
    roce_mode    = "v1"
    vlan         = 2
    applications = ["smb-direct", "smb-direct"]
  }
}
host "new" {
  os = "linux"
  nic "roce0" {
    model        = "QL45212"
    interface    = "p4p1"
    transport    = "iwarp"
    priority     = 5
    applications = ["nvme-of", "iser"]
  }
}
link {
  a      = "old:port1"
  b      = "sn2410:1/1"
  length = 1
}
link {
  a      = "new:roce0"
  b      = "sn2410:1/2"
  length = 1
}
`)
	ports := f.Switches[0].Ports
	if ports[0].Trust != model.TrustPCP || ports[1].Trust != model.TrustDSCP {
		t.Errorf("trust = %s, %s; want pcp toward the RoCEv1 NIC, dscp toward v2", ports[0].Trust, ports[1].Trust)
	}
	old := f.Hosts[1].NICs[0]
	wantOld := model.RoCE{Mode: "v1", UDPPort: 0, Priority: 3, DSCP: 26, TOS: 104, CNPPriority: 6, CNPDSCP: 48,
		PFCPriorities: []int{3}, Trust: model.TrustPCP, ECNPriorities: []int{0, 1, 2, 3, 4, 5, 6, 7}, ETS: old.RoCE.ETS}
	if !reflect.DeepEqual(old.RoCE, wantOld) || old.VLAN != 2 || old.SpeedMbps != 10000 {
		t.Errorf("old nic = %+v", old)
	}
	if want := []model.Application{{Kind: "smb-direct", Port: 445, Priority: 3}}; !reflect.DeepEqual(old.Applications, want) {
		t.Errorf("apps = %+v", old.Applications)
	}
	nw := f.Hosts[0].NICs[0]
	if nw.Transport != model.TransportIWARP || nw.RoCE.Priority != 5 || nw.RoCE.UDPPort != 4791 {
		t.Errorf("new nic = %+v", nw)
	}
	want := []model.Application{{Kind: "iser", Port: 3260, Priority: 5}, {Kind: "nvme-of", Port: 4420, Priority: 5}}
	if !reflect.DeepEqual(nw.Applications, want) {
		t.Errorf("apps = %+v, want %+v", nw.Applications, want)
	}
	ets := []model.ETS{{Mode: "wrr", BandwidthPercent: 50}, {Mode: "wrr"}, {Mode: "wrr"}, {Mode: "wrr", BandwidthPercent: 50},
		{Mode: "wrr"}, {Mode: "wrr"}, {Mode: "strict"}, {Mode: "wrr"}}
	if !reflect.DeepEqual(nw.RoCE.ETS, ets) {
		t.Errorf("ets = %+v", nw.RoCE.ETS)
	}
}

func TestLowerDeterministic(t *testing.T) {
	var first []byte
	for i := 0; i < 5; i++ {
		f, _ := mustLower(t, minimalFabric)
		b, err := model.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 && !bytes.Equal(b, first) {
			t.Fatalf("run %d differs from run 0", i)
		}
		first = b
	}
}

func TestLowerNilConfig(t *testing.T) {
	_, _, diags := lower(nil)
	if got := compactDiags(diags); !reflect.DeepEqual(got, []string{"-: Empty fabric: There is nothing to compile; declare a fabric block."}) {
		t.Errorf("diags = %v", got)
	}
}

// TestSourcesDisjoint compiles the example fabrics (demartek-lab has
// override blocks) and the benchmark fabric, and requires that no key is
// recorded two ways (on its own, as a block, as an attribute of its
// block): Sources.Get looks in that order, so such a key would shadow
// the later record.
func TestSourcesDisjoint(t *testing.T) {
	paths, _ := filepath.Glob("../examples/*")
	paths = append(paths, "../bench/fabric")
	checked := 0
	for _, path := range paths {
		if st, err := os.Stat(path); err != nil || !st.IsDir() || filepath.Base(path) == "bad" {
			continue
		}
		cfg, _, diags := dsl.Load(path, dsl.Options{})
		if diags.HasErrors() {
			t.Fatalf("%s: %s", path, diags.Error())
		}
		_, src, _ := CompileSources(cfg)
		blockKeys := 0
		for key, b := range src.blocks {
			if _, dup := src.spans[key]; dup && b.own {
				t.Errorf("%s: %s is recorded on its own and as a block", path, key)
			}
			for _, a := range b.attrs {
				blockKeys++
				attr := key + "/" + a.name
				if _, dup := src.spans[attr]; dup {
					t.Errorf("%s: %s is recorded on its own and in its block", path, attr)
				}
				if src.blocks[attr].own {
					t.Errorf("%s: %s is recorded as a block and in its block", path, attr)
				}
			}
		}
		if blockKeys == 0 || len(src.spans) == 0 {
			t.Errorf("%s: %d keys on their own, %d in blocks", path, len(src.spans), blockKeys)
		}
		checked++
	}
	if checked < 4 {
		t.Fatalf("checked only %d fabrics", checked)
	}
}
