package compiler

import (
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// windowsFabric is a fabric with one Windows host of two NICs; NIC1 and
// NIC2 hold the NICs' extra attributes (NIC1 after a newline) and QOS the
// qos block.
const windowsFabric = `
fabric "lab" {}
QOS
vlan "rdma" {
  id = 100
}
switch "leaf1" {
  platform = "cumulus"
  model    = "SN2700"
  port "swp1-4" {
    speed = "100G"
    vlans = [100]
  }
}
host "win1" {
  os = "windows"
  nic "a" {
    model     = "ConnectX-4"
    interface = "Ethernet 1"
    vlan      = 100NIC1
  }
  nic "b" {
    model     = "ConnectX-4"
    interface = "Ethernet 2"
    vlan      = 100
    NIC2
  }
}
link {
  a      = "win1:a"
  b      = "leaf1:swp1"
  length = 3
}
link {
  a      = "win1:b"
  b      = "leaf1:swp2"
  length = 3
}
`

// TestWindowsChecks: each of these fabrics passed validation and failed
// only when the Windows script was rendered, without a location.
func TestWindowsChecks(t *testing.T) {
	profile := "qos {\n  profile = \"nvidia-roce\"\n}"
	for _, tc := range []struct {
		name, qos, nic2 string
		want            []string
	}{
		{"clean", profile, "", nil},
		{"NICs on different priorities", profile, "priority = 5", []string{
			`24:3: NICs of a Windows host disagree: nic "b" of host "win1" rides priority 5 with PFC on 3, but nic "a" rides priority 3 with PFC on 3; Windows QoS policies and PFC are host-wide, so every NIC of a Windows host must use the same priorities.`,
			`  note 19:3: nic "a"`,
			`28:16: RoCE priority not lossless: win1:b sends RoCE on priority 5, but switch port leaf1:swp2 has PFC on priorities 3, so RoCE would be dropped under congestion. Use a lossless priority on the NIC (its class's priority) or enable PFC for priority 5 on the port.`,
			`  note 12:3: leaf1:swp2 PFC priorities 3`,
		}},
		{"NICs on different RoCE modes", profile, "roce_mode = \"v1\"", []string{
			`28:17: NICs of a Windows driver disagree: nic "b" of host "win1" asks RoCE v1, but nic "a" on the same driver winof2 asks RoCE v2; Windows sets the RoCE mode per driver (Mellanox WinOF-2 User Manual, Rev 1.21, section 3.1.3.6), so they must agree.`,
			`  note 19:3: nic "a"`,
		}},
		{"no class on traffic class 0", "qos {\n  profile = \"nvidia-roce\"\n  class \"default\" {\n    traffic_class = 1\n  }\n}", "", []string{
			`3:1: Windows needs a class on traffic class 0: host "win1" runs Windows, whose [Default] traffic class stands for traffic class 0, but no class of the fabric is on traffic class 0; give the default class traffic_class = 0.`,
			`  note 20:1: host "win1" runs Windows`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.NewReplacer("QOS", tc.qos, "NIC1", "", "NIC2", tc.nic2).Replace(windowsFabric)
			f, src2, diags := lowerSrc(t, src)
			if len(diags) > 0 {
				t.Fatalf("lower: %v", diags)
			}
			var got []string
			if d := applyPhysics(f, src2); !d.HasErrors() {
				got = compactDiags(errorsOnly(check(f, src2)))
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", joinLines(got), joinLines(tc.want))
			}
		})
	}
}

// TestWindowsTCPAppDSCP: an application over TCP listed by two NICs of a
// Windows host with different DSCPs passed validation and failed only
// when the script was rendered; its NetQos policy is host-wide.
func TestWindowsTCPAppDSCP(t *testing.T) {
	src := strings.NewReplacer("QOS", "qos {\n  profile = \"nvidia-roce\"\n}",
		"NIC1", "\n    applications = [\"iscsi\"]", "NIC2", "dscp = 24\n    applications = [\"iscsi\"]").Replace(windowsFabric)
	f, src2, diags := lowerSrc(t, src)
	for _, d := range diags { // the iscsi in a lossless class is a warning
		if !strings.Contains(d, "TCP application in a lossless class") {
			t.Fatalf("lower: %v", d)
		}
	}
	if d := applyPhysics(f, src2); d.HasErrors() {
		t.Fatalf("physics: %v", d)
	}
	got := compactDiags(errorsOnly(check(f, src2)))
	want := []string{
		`30:20: NICs of a Windows host mark one application two ways: nic "b" of host "win1" lists "iscsi" with DSCP 24, but nic "a" lists it with DSCP 26; the NetQos policy of an application over TCP matches its port on the whole host, so it marks one DSCP: give the NICs that list "iscsi" the same dscp, or list it on one of them.`,
		`  note 19:3: nic "a"`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", joinLines(got), joinLines(want))
	}
}

// errorsOnly keeps the errors of diags.
func errorsOnly(diags hcl.Diagnostics) hcl.Diagnostics {
	var out hcl.Diagnostics
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			out = append(out, d)
		}
	}
	return out
}
