package openconfig

import (
	"bytes"
	"strings"
	"testing"

	"github.com/openconfig/ygot/ygot"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets/openconfig/oc"
)

// render renders the named fixture switch and returns its files by name.
func render(t *testing.T, f *model.Fabric, name string) map[string][]byte {
	t.Helper()
	for i := range f.Switches {
		if f.Switches[i].Name != name {
			continue
		}
		files, err := Render(f, &f.Switches[i])
		if err != nil {
			t.Fatalf("Render(%s): %v", name, err)
		}
		out := map[string][]byte{}
		for _, fl := range files {
			if fl.Target != Target || fl.Mode != 0o644 {
				t.Errorf("%s: target %q mode %o, want %q 644", fl.Name, fl.Target, fl.Mode, Target)
			}
			out[fl.Name] = fl.Data
		}
		return out
	}
	t.Fatalf("no switch %q in the fixture", name)
	return nil
}

// TestRoundTrip checks that every switch's JSON validates and unmarshals
// back into a tree with no difference from the one rendered.
func TestRoundTrip(t *testing.T) {
	f := testFabric()
	for i := range f.Switches {
		sw := &f.Switches[i]
		t.Run(sw.Name, func(t *testing.T) {
			files := render(t, f, sw.Name)
			if len(files) != 3 || files[sw.Name+".openconfig.md"] == nil || files[sw.Name+".openconfig-set.json"] == nil {
				t.Fatalf("files %v, want %s.openconfig.json, .md and -set.json", keys(files), sw.Name)
			}
			data := files[sw.Name+".openconfig.json"]
			got := &oc.Device{}
			if err := oc.Unmarshal(data, got); err != nil {
				t.Fatalf("Unmarshal: %v", err)
			}
			if err := got.Validate(); err != nil {
				t.Fatalf("Validate of the unmarshalled tree: %v", err)
			}
			want, err := Build(f, sw)
			if err != nil {
				t.Fatal(err)
			}
			n, err := ygot.Diff(want, got)
			if err != nil {
				t.Fatal(err)
			}
			if len(n.GetUpdate()) != 0 || len(n.GetDelete()) != 0 {
				t.Errorf("round trip differs: %d updates, %d deletes: %v", len(n.GetUpdate()), len(n.GetDelete()), n)
			}
			if len(got.Interface) != len(sw.Ports) || len(got.GetQos().Interface) != len(sw.Ports) {
				t.Errorf("%d interfaces, %d qos interfaces; want %d each", len(got.Interface), len(got.GetQos().Interface), len(sw.Ports))
			}
		})
	}
}

// keys lists a file map's names.
func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// lines joins JSON lines indented by base levels of two spaces.
func lines(base int, ls ...string) string {
	pad := strings.Repeat("  ", base)
	return pad + strings.Join(ls, "\n"+pad) + "\n"
}

// dscpLines writes a dscp-set leaf-list at the given indent.
func dscpLines(base int, vals ...int) string {
	ls := []string{`"dscp-set": [`}
	for i, v := range vals {
		s := "  " + itoa(v)
		if i < len(vals)-1 {
			s += ","
		}
		ls = append(ls, s)
	}
	return lines(base, append(ls, "]")...)
}

// itoa formats an int without strconv in the test table.
func itoa(v int) string { return ints([]int{v}) }

// TestJSONFragments asserts the exact JSON a gNMI server receives for
// each feature.
func TestJSONFragments(t *testing.T) {
	tests := []struct {
		name, sw, want string
	}{
		// No mtu on EOS: featureprofiles deviation omit_l2_mtu (ocMTU).
		{"trunk port: speed, description, VLANs, no mtu on EOS", "leaf1", lines(4,
			`"config": {`,
			`  "description": "host01-roce0",`,
			`  "enabled": true,`,
			`  "name": "Ethernet1/1",`,
			`  "type": "iana-if-type:ethernetCsmacd"`,
			`},`,
			`"name": "Ethernet1/1",`,
			`"openconfig-if-ethernet:ethernet": {`,
			`  "config": {`,
			`    "enable-flow-control": false,`,
			`    "port-speed": "openconfig-if-ethernet:SPEED_100GB"`,
			`  },`,
			`  "openconfig-vlan:switched-vlan": {`,
			`    "config": {`,
			`      "interface-mode": "TRUNK",`,
			`      "native-vlan": 100,`,
			`      "trunk-vlans": [`,
			`        100,`,
			`        101,`,
			`        200`,
			`      ]`,
		)},
		// Routed: subinterface 0 with IPv4 on, the EOS IP MTU there
		// (addRouted), no switched-vlan.
		{"routed port: no switched-vlan, subinterface 0 with IPv4 and the EOS IP MTU", "leaf1", lines(4,
			`"name": "Ethernet31/1",`,
			`"openconfig-if-ethernet:ethernet": {`,
			`  "config": {`,
			`    "enable-flow-control": false,`,
			`    "port-speed": "openconfig-if-ethernet:SPEED_100GB"`,
			`  }`,
			`},`,
			`"subinterfaces": {`,
			`  "subinterface": [`,
			`    {`,
			`      "config": {`,
			`        "index": 0`,
			`      },`,
			`      "index": 0,`,
			`      "openconfig-if-ip:ipv4": {`,
			`        "config": {`,
			`          "enabled": true,`,
			`          "mtu": 9214`,
			`        }`,
			`      }`,
			`    }`,
			`  ]`,
			`}`,
		)},
		{"routed port on Cumulus: IPv4 on, the frame mtu stays on the interface", "spine1", lines(7,
			`"openconfig-if-ip:ipv4": {`,
			`  "config": {`,
			`    "enabled": true`,
			`  }`,
			`}`,
		)},
		{"shut access port with link pause", "leaf1", lines(4,
			`"config": {`,
			`  "enabled": false,`,
			`  "name": "Ethernet32/1",`,
			`  "type": "iana-if-type:ethernetCsmacd"`,
			`},`,
			`"name": "Ethernet32/1",`,
			`"openconfig-if-ethernet:ethernet": {`,
			`  "config": {`,
			`    "enable-flow-control": true,`,
			`    "port-speed": "openconfig-if-ethernet:SPEED_25GB"`,
			`  },`,
			`  "openconfig-vlan:switched-vlan": {`,
			`    "config": {`,
			`      "access-vlan": 200,`,
			`      "interface-mode": "ACCESS"`,
		)},
		{"VLAN in the default network instance", "leaf2", lines(4,
			`"config": {`,
			`  "name": "default",`,
			`  "type": "openconfig-network-instance-types:DEFAULT_INSTANCE"`,
			`},`,
			`"name": "default",`,
			`"vlans": {`,
			`  "vlan": [`,
			`    {`,
			`      "config": {`,
			`        "name": "rdma",`,
			`        "vlan-id": 100`,
			`      },`,
			`      "vlan-id": 100`,
		)},
		{"IPv4 classifier term of the RoCE class", "leaf1",
			lines(8, `    "target-group": "roce"`, `  }`, `},`, `"conditions": {`, `  "ipv4": {`, `    "config": {`) +
				dscpLines(11, 24, 25, 26, 27, 28, 29, 30, 31)},
		{"IPv6 classifier term of the CNP class", "spine1",
			lines(8, `    "target-group": "cnp"`, `  }`, `},`, `"conditions": {`, `  "ipv6": {`, `    "config": {`) +
				dscpLines(11, 48, 49, 50, 51, 52, 53, 54, 55)},
		{"forwarding group to its queue", "leaf1", lines(2,
			`"forwarding-groups": {`,
			`  "forwarding-group": [`,
			`    {`,
			`      "config": {`,
			`        "name": "cnp",`,
			`        "output-queue": "cnp"`,
			`      },`,
		)},
		{"queue named after the class with its traffic class", "leaf1", lines(5,
			`"config": {`,
			`  "name": "roce",`,
			`  "queue-id": 3`,
			`},`,
		)},
		{"ECN profile thresholds", "leaf1", lines(4,
			`{`,
			`  "config": {`,
			`    "name": "roce-ecn"`,
			`  },`,
			`  "name": "roce-ecn",`,
			`  "wred": {`,
			`    "uniform": {`,
			`      "config": {`,
			`        "enable-ecn": true,`,
			`        "max-drop-probability-percent": 100,`,
			`        "max-threshold": "1500000",`,
			`        "min-threshold": "150000"`,
			`      }`,
		)},
		{"strict scheduler", "leaf1", lines(8,
			`"config": {`,
			`  "priority": "STRICT",`,
			`  "sequence": 0`,
			`},`,
			`"inputs": {`,
			`  "input": [`,
			`    {`,
			`      "config": {`,
			`        "id": "cnp",`,
			`        "input-type": "QUEUE",`,
			`        "queue": "cnp",`,
			`        "weight": "6"`,
		)},
		{"WRR weight is the bandwidth percent", "leaf1", lines(11,
			`"config": {`,
			`  "id": "roce",`,
			`  "input-type": "QUEUE",`,
			`  "queue": "roce",`,
			`  "weight": "60"`,
		)},
		{"DSCP port binds both classifiers on input", "spine1", lines(5,
			`"config": {`,
			`  "interface-id": "swp1"`,
			`},`,
			`"input": {`,
			`  "classifiers": {`,
			`    "classifier": [`,
			`      {`,
			`        "config": {`,
			`          "name": "dscp-ipv4",`,
			`          "type": "IPV4"`,
			`        },`,
			`        "type": "IPV4"`,
			`      },`,
			`      {`,
			`        "config": {`,
			`          "name": "dscp-ipv6",`,
			`          "type": "IPV6"`,
		)},
		{"PCP port: no input classifier; ECN and scheduler on output", "leaf2", lines(5,
			`"config": {`,
			`  "interface-id": "1/1"`,
			`},`,
			`"interface-id": "1/1",`,
			`"interface-ref": {`,
			`  "config": {`,
			`    "interface": "1/1"`,
			`  }`,
			`},`,
			`"output": {`,
			`  "queues": {`,
			`    "queue": [`,
			`      {`,
			`        "config": {`,
			`          "name": "default",`,
			`          "queue-management-profile": "default-ecn"`,
			`        },`,
			`        "name": "default"`,
			`      },`,
			`      {`,
			`        "config": {`,
			`          "name": "roce",`,
			`          "queue-management-profile": "roce-ecn"`,
			`        },`,
			`        "name": "roce"`,
			`      }`,
			`    ]`,
			`  },`,
			`  "scheduler-policy": {`,
			`    "config": {`,
			`      "name": "ets"`,
		)},
	}
	f := testFabric()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(render(t, f, tt.sw)[tt.sw+".openconfig.json"])
			if !strings.Contains(got, tt.want) {
				t.Errorf("%s.openconfig.json lacks:\n%s\n--- got:\n%s", tt.sw, tt.want, got)
			}
		})
	}
}

// TestTopLevel checks the module-qualified top-level containers and that
// PFC never appears in the JSON.
func TestTopLevel(t *testing.T) {
	got := string(render(t, testFabric(), "leaf1")["leaf1.openconfig.json"])
	for _, want := range []string{
		"{\n  \"openconfig-interfaces:interfaces\": {\n",
		"\n  \"openconfig-network-instance:network-instances\": {\n",
		"\n  \"openconfig-qos:qos\": {\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("JSON lacks %q", want)
		}
	}
	if strings.Contains(strings.ToLower(got), "pfc") || strings.Contains(got, "priority-flow-control") {
		t.Errorf("JSON mentions PFC, which OpenConfig has no model for")
	}
	if !strings.HasSuffix(got, "}\n") {
		t.Errorf("JSON does not end in a newline")
	}
}

// TestDeterministic renders the same model several times and from a
// fabric whose maps were filled in another order.
func TestDeterministic(t *testing.T) {
	first := render(t, testFabric(), "leaf1")
	for i := 0; i < 5; i++ {
		again := render(t, testFabric(), "leaf1")
		for name, data := range first {
			if !bytes.Equal(data, again[name]) {
				t.Fatalf("render %d of %s differs", i+2, name)
			}
		}
	}
	// Reversed classes and VLANs change the order the tree's maps are
	// filled in, not the JSON.
	f := testFabric()
	c := f.QoS.Classes
	c[0], c[2] = c[2], c[0]
	v := f.VLANs
	v[0], v[2] = v[2], v[0]
	if got := render(t, f, "leaf1")["leaf1.openconfig.json"]; !bytes.Equal(got, first["leaf1.openconfig.json"]) {
		t.Errorf("JSON depends on the order classes and VLANs were added")
	}
}

// TestErrors checks that values OpenConfig cannot hold are errors naming
// the switch, the object and the value.
func TestErrors(t *testing.T) {
	tests := []struct {
		name   string
		edit   func(f *model.Fabric)
		substr string
	}{
		{"unknown speed", func(f *model.Fabric) { f.Switches[0].Ports[0].SpeedMbps = 30000 },
			`openconfig: switch "leaf1": port "Ethernet1/1": speed 30000 Mb/s has no OpenConfig ETHERNET_SPEED identity`},
		{"MTU above uint16 (Onyx; EOS writes none)", func(f *model.Fabric) {
			f.Switches[0], f.Switches[1] = f.Switches[1], f.Switches[0]
			f.Switches[0].Ports[0].MTU = 70000
		}, `port "1/1": MTU 70000 is outside the OpenConfig range 0-65535`},
		{"duplicate port", func(f *model.Fabric) { f.Switches[0].Ports[1].Name = "Ethernet1/1" },
			`port "Ethernet1/1": port is listed twice`},
		{"unnamed port", func(f *model.Fabric) { f.Switches[0].Ports[1].Name = "" },
			`port has no name`},
		{"bad trunk VLAN", func(f *model.Fabric) { f.Switches[0].Ports[0].TrunkVLANs = []int{100, 4095} },
			`port "Ethernet1/1": trunk VLAN: VLAN 4095 is outside 1-4094`},
		{"bad mode", func(f *model.Fabric) { f.Switches[0].Ports[0].Mode = "hybrid" },
			`mode "hybrid" is not access, trunk or routed`},
		{"bad fabric VLAN", func(f *model.Fabric) { f.VLANs[0].ID = 0 },
			`fabric VLAN "rdma": VLAN 0 is outside 1-4094`},
		{"duplicate fabric VLAN", func(f *model.Fabric) { f.VLANs[1].ID = 100 },
			`fabric VLAN 100 is declared twice`},
		{"DSCP above 63", func(f *model.Fabric) { f.QoS.Classes[1].DSCP = []int{26, 64} },
			`class "roce": DSCP 64 is outside 0-63`},
		{"traffic class above 7", func(f *model.Fabric) { f.QoS.Classes[2].TrafficClass = 8 },
			`class "cnp": traffic class 8 is outside 0-7`},
		{"duplicate class", func(f *model.Fabric) { f.QoS.Classes[2].Name = "roce" },
			`class "roce": class name is used twice`},
		{"WRR bandwidth 0", func(f *model.Fabric) { f.QoS.Classes[0].ETS.BandwidthPercent = 0 },
			`class "default": WRR bandwidth 0% is outside 1-100`},
		{"bad ETS mode", func(f *model.Fabric) { f.QoS.Classes[0].ETS.Mode = "dwrr" },
			`ETS mode "dwrr" is not strict or wrr`},
		{"ECN min not below max", func(f *model.Fabric) { f.QoS.Classes[1].ECN.MinBytes = 1500000 },
			`class "roce": ECN thresholds 1500000..1500000 bytes: need 0 <= minimum < maximum`},
		{"ECN probability above 100", func(f *model.Fabric) { f.QoS.Classes[1].ECN.MarkProbabilityPercent = 101 },
			`ECN mark probability 101% is outside 0-100`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := testFabric()
			tt.edit(f)
			_, err := Render(f, &f.Switches[0])
			if err == nil || !strings.Contains(err.Error(), tt.substr) {
				t.Errorf("error %v, want one containing %q", err, tt.substr)
			}
		})
	}
	if _, err := Render(nil, nil); err == nil {
		t.Errorf("Render(nil, nil) returned no error")
	}
}

// TestEmitValidates checks that a tree breaking a leafref is refused
// rather than written.
func TestEmitValidates(t *testing.T) {
	d := &oc.Device{}
	out := d.GetOrCreateQos().GetOrCreateInterface("Ethernet1").GetOrCreateOutput()
	out.GetOrCreateQueue("roce").QueueManagementProfile = ygot.String("missing-ecn")
	if _, err := Emit(d); err == nil || !strings.Contains(err.Error(), "queue-management-profile") {
		t.Errorf("Emit of a dangling leafref: error %v, want one naming queue-management-profile", err)
	}
}

// TestEmptyFabric checks that a switch with no ports, VLANs or classes
// gives an empty but valid document.
func TestEmptyFabric(t *testing.T) {
	f := &model.Fabric{Name: "empty", Switches: []model.Switch{{Name: "sw", Platform: model.PlatformEOS}}}
	files, err := Render(f, &f.Switches[0])
	if err != nil {
		t.Fatal(err)
	}
	if got := string(files[0].Data); got != "{}\n" {
		t.Errorf("JSON %q, want {}", got)
	}
}
