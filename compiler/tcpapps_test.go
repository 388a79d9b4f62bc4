package compiler

import (
	"reflect"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// TestTCPApplications: "nvme-tcp" (4420) and "iscsi" (3260) are storage
// over TCP, which the host tags with the NIC's class. In the lossless
// RoCE class that is a warning naming the class and priority; on a NIC
// whose priority has no PFC it is not.
func TestTCPApplications(t *testing.T) {
	tests := []struct {
		name string
		src  string
		apps []model.Application
		want []string
	}{
		{"lossless class", edit("", "vlan      = 100\n", "vlan      = 100\n    applications = [\"nvme-tcp\", \"iscsi\", \"nvme-of\"]\n"),
			[]model.Application{{Kind: "iscsi", Port: 3260, Priority: 3}, {Kind: "nvme-of", Port: 4420, Priority: 3}, {Kind: "nvme-tcp", Port: 4420, Priority: 3}},
			[]string{
				"23:20: TCP application in a lossless class: nic \"roce0\" of host \"gpu01\" lists \"iscsi\" and \"nvme-tcp\", storage over TCP, whose port the host tags with the NIC's class \"roce\", priority 3, which is lossless (PFC on priority 3). PFC pauses that TCP instead of dropping it, so TCP never sees the loss it slows down for: its bursts fill the lossless queue and pause the RoCE that shares it. The RoCE vendors direct all TCP to a lossy priority (Mellanox WinOF User Manual 5.50 §7.4). Accept this warning where the fabric is designed with TCP storage in the lossless class (iSCSI over DCB), or remove \"iscsi\" and \"nvme-tcp\" from applications so that its TCP rides the default class.",
			}},
		{"RDMA applications only", edit("", "vlan      = 100\n", "vlan      = 100\n    applications = [\"iser\", \"nvme-of\"]\n"),
			[]model.Application{{Kind: "iser", Port: 3260, Priority: 3}, {Kind: "nvme-of", Port: 4420, Priority: 3}}, nil},
		{"priority without PFC", edit("", "vlan      = 100\n", "vlan      = 100\n    applications = [\"iscsi\"]\n    pfc_priorities = [4]\n"),
			[]model.Application{{Kind: "iscsi", Port: 3260, Priority: 3}}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, _, got := lowerSrc(t, tc.src)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", joinLines(got), joinLines(tc.want))
			}
			if apps := f.Hosts[0].NICs[0].Applications; !reflect.DeepEqual(apps, tc.apps) {
				t.Errorf("applications %+v, want %+v", apps, tc.apps)
			}
		})
	}
}

// TestUnknownApplicationSuggestsTCP: a misspelt TCP application gets the
// kind it means.
func TestUnknownApplicationSuggestsTCP(t *testing.T) {
	_, _, got := lowerSrc(t, edit("", "vlan      = 100\n", "vlan      = 100\n    applications = [\"nvme-tpc\"]\n"))
	want := []string{"23:20: Unknown application: nic \"roce0\" of host \"gpu01\" lists application \"nvme-tpc\"; fabricc knows \"iscsi\", \"iser\", \"lustre\", \"mpi\", \"nccl\", \"nfs-rdma\", \"nvme-of\", \"nvme-tcp\" or \"smb-direct\". Did you mean \"nvme-tcp\"?"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", joinLines(got), joinLines(want))
	}
}
