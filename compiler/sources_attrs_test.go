package compiler

import (
	"reflect"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/dsl"
)

// everyAttributeFabric writes every attribute whose range the language
// keeps (a `*Range` field tagged attr_value_range), on a host (a Windows
// one, for cluster_class), a NIC, a
// port, an override, a switch, a link, the fabric, a class, its ECN
// block and both pfc_watchdog blocks.
const everyAttributeFabric = `
fabric "lab" {
  description = "every attribute"
}

qos {
  profile = "nvidia-roce"
  class "roce" {
    priority      = 3
    priorities    = [3]
    traffic_class = 3
    dscp          = [26]
    bandwidth     = 50
    ecn {
      min         = "150KB"
      max         = "1500KB"
      probability = 100
    }
  }
  pfc_watchdog {
    action = "drop"
  }
}

vlan "rdma" {
  id = 100
}

switch "leaf1" {
  platform   = "cumulus"
  model      = "SN2700"
  os_version = "5.9.2"
  pfc_watchdog {
    action = "drop"
  }
  port "swp1-2" {
    speed       = "100G"
    mtu         = 9216
    mode        = "trunk"
    vlans       = [100]
    native_vlan = 100
    trust       = "dscp"
    pfc         = true
    lanes       = 4
    description = "hosts"
  }
  port "swp3" {
    speed = "100G"
  }
  override "swp3" {
    description = "spare"
  }
}

host "gpu01" {
  os         = "linux"
  os_version = "rhel9"
  nic "roce0" {
    model          = "ConnectX-6 Dx"
    driver         = "mlnx_ofed"
    interface      = "ens1f0"
    speed          = "100G"
    mtu            = 9000
    vlan           = 100
    vlan_interface = "vl100"
    addresses      = ["192.168.100.11/24"]
    roce_mode      = "v2"
    transport      = "roce"
    class          = "roce"
    priority       = 3
    dscp           = 26
    cnp_priority   = 6
    cnp_dscp       = 48
    pfc_priorities = [3]
    trust          = "dscp"
    applications   = ["nvme-of"]
    gateway        = "192.168.100.1"
  }
}

host "hci1" {
  os            = "windows"
  os_version    = "2022"
  cluster_class = "default"
}

link {
  a        = "gpu01:roce0"
  b        = "leaf1:swp2"
  length   = 3
  cable    = "dac"
  override = true
}

# Replaced by the link above (override).
link {
  a      = "gpu01:roce0"
  b      = "leaf1:swp2"
  length = 1
}
`

// TestEveryWrittenAttributeIsRecorded requires that every attribute the
// language keeps a range for is recorded in Sources at the attribute
// itself, not only at its block: explain says "not written there" for
// an attribute whose range was left out (a NIC's interface was).
func TestEveryWrittenAttributeIsRecorded(t *testing.T) {
	_, src, diags := lowerSrc(t, everyAttributeFabric)
	if len(diags) > 0 {
		t.Fatalf("unexpected diagnostics:\n%s", joinLines(diags))
	}
	for _, tc := range []struct {
		block any
		path  []string
	}{
		{dsl.Fabric{}, []string{"fabric"}},
		{dsl.Class{}, []string{"qos", "class", "roce"}},
		{dsl.ECN{}, []string{"qos", "class", "roce", "ecn"}},
		{dsl.Watchdog{}, []string{"qos", "pfc_watchdog"}},
		{dsl.Watchdog{}, []string{"switch", "leaf1", "pfc_watchdog"}},
		{dsl.Switch{}, []string{"switch", "leaf1"}},
		{dsl.Port{}, []string{"switch", "leaf1", "port", "swp1"}},
		{dsl.Host{}, []string{"host", "hci1"}},
		{dsl.NIC{}, []string{"host", "gpu01", "nic", "roce0"}},
		{dsl.Link{}, []string{"link", "0"}},
	} {
		typ := reflect.TypeOf(tc.block)
		for i := 0; i < typ.NumField(); i++ {
			name, kind, _ := strings.Cut(typ.Field(i).Tag.Get("hcl"), ",")
			// driver_interface is FreeBSD's alone, an error on gpu01's
			// Linux NIC: TestDriverInterface checks its record.
			if kind != "attr_value_range" || name == "driver_interface" {
				continue
			}
			if !src.Has(append(tc.path, name)...) {
				t.Errorf("%s: %s is written but not recorded at %s", typ.Name(), name, Key(append(tc.path, name)...))
			}
		}
	}
	// An override's attribute is recorded at the override.
	if r := src.At("switch", "leaf1", "port", "swp3", "description"); r == nil || r.Start.Line != 51 {
		t.Errorf("swp3 description recorded at %v, want the override's line 51", r)
	}
}
