package compiler

import (
	"reflect"
	"testing"
)

// TestNCCLApplication: "nccl" is an application a Linux RoCE NIC may
// list; it is refused on a host that is not Linux, and on two NICs of one
// host that mark two ToS (NCCL takes one NCCL_IB_TC).
func TestNCCLApplication(t *testing.T) {
	second := "addresses = [\"192.168.100.11/24\"]\n  }\n  nic \"roce1\" {\n    model     = \"ConnectX-6 Dx\"\n    interface = \"ens1f1\"\n    vlan      = 100\n    dscp      = 24\n    applications = [\"nccl\"]\n    addresses = [\"192.168.101.11/24\"]\n  }\n"
	link2 := "link {\n  a      = \"gpu01:roce1\"\n  b      = \"leaf1:swp3\"\n  length = 3\n}\n"
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"linux", edit("", "vlan      = 100\n", "vlan      = 100\n    applications = [\"nccl\"]\n"), nil},
		{"windows", edit("", "os = \"linux\"", "os = \"windows\"\n  os_version = \"2022\"", "vlan      = 100\n", "vlan      = 100\n    applications = [\"nccl\"]\n"), []string{
			"24:20: NCCL application on a host that is not Linux: nic \"roce0\" of host \"gpu01\" lists application \"nccl\", which has the Linux host script write NCCL_IB_TC into /etc/nccl.conf; host \"gpu01\" runs windows, whose script writes no NCCL settings. Remove \"nccl\" from applications, and give the jobs NCCL_IB_TC=106 (the RoCE ToS) in their environment.",
		}},
		{"two ToS", edit(link2, "vlan      = 100\n", "vlan      = 100\n    applications = [\"nccl\"]\n", "addresses = [\"192.168.100.11/24\"]\n  }\n", second), []string{
			"31:20: NCCL NICs of one host with two ToS: nic \"roce1\" (ToS 98) and nic \"roce0\" (ToS 106) of host \"gpu01\" both list application \"nccl\", but NCCL takes one NCCL_IB_TC per process and /etc/nccl.conf holds one for the host (NVIDIA NCCL User Guide, Environment Variables). Give these NICs one class (or one dscp), or list \"nccl\" on the NICs of one class only.",
			"  note 23:20: nic \"roce0\" lists nccl with ToS 106",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, got := lowerSrc(t, tc.src)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", joinLines(got), joinLines(tc.want))
			}
		})
	}
}

// TestLustreApplication: "lustre" is an application a Linux NIC may
// list; a host that is not Linux is refused, since LNet runs on Linux
// only.
func TestLustreApplication(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"linux", edit("", "vlan      = 100\n", "vlan      = 100\n    applications = [\"lustre\", \"mpi\"]\n"), nil},
		{"windows", edit("", "os = \"linux\"", "os = \"windows\"\n  os_version = \"2022\"", "vlan      = 100\n", "vlan      = 100\n    applications = [\"lustre\"]\n"), []string{
			"24:20: Lustre application on a host that is not Linux: nic \"roce0\" of host \"gpu01\" lists application \"lustre\", but host \"gpu01\" runs windows and Lustre's LNet o2ib driver runs on Linux only. Remove \"lustre\" from applications.",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, got := lowerSrc(t, tc.src)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", joinLines(got), joinLines(tc.want))
			}
		})
	}
}
