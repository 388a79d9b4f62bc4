package windows

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// TestPlanLimits checks each limit of the Windows plan with its exact
// diagnostic: 802.1p priorities are 0-7, ports 1-65535, an ETS traffic
// class takes 1-99 % (the rest stays with [Default]), and traffic class 0
// is Windows' lossy [Default] class.
func TestPlanLimits(t *testing.T) {
	tests := []struct {
		name string
		edit func(f *model.Fabric, h *model.Host)
		want string // "" means accepted
	}{
		{"priority 8", func(_ *model.Fabric, h *model.Host) {
			for i := range h.NICs {
				h.NICs[i].RoCE.CNPPriority = 8
			}
		}, `nic "port1" (interface "SLOT 4 Port 1") uses priority 8; 802.1p priorities are 0-7`},
		{"priority 7", func(_ *model.Fabric, h *model.Host) {
			for i := range h.NICs {
				h.NICs[i].RoCE.CNPPriority = 7
			}
		}, ""},
		{"port 65536", func(_ *model.Fabric, h *model.Host) {
			for i := range h.NICs {
				h.NICs[i].Applications[0].Port = 65536
			}
		}, `application "smb-direct" has port 65536; ports are 1-65535`},
		{"port 65535", func(_ *model.Fabric, h *model.Host) {
			for i := range h.NICs {
				h.NICs[i].Applications[0].Port = 65535
			}
		}, ""},
		{"ets class 100", func(f *model.Fabric, _ *model.Host) {
			f.QoS.Classes[1].ETS.BandwidthPercent = 100
		}, `class "roce" has ETS bandwidth 100%; a Windows ETS traffic class takes 1-99% (the rest stays with [Default])`},
		{"lossless traffic class 0", func(f *model.Fabric, _ *model.Host) {
			f.QoS.Classes[0].Lossless = true
		}, `class "default" (traffic class 0) is lossless; the Windows target maps traffic class 0 to the lossy [Default] class, so put the lossless class on another traffic class`},
		{"NIC PFC differs", func(_ *model.Fabric, h *model.Host) {
			h.NICs[1].RoCE.PFCPriorities = []int{3, 4}
		}, `nic "port2" (interface "SLOT 4 Port 2") has RoCE priority 3 with PFC on 3,4, but another NIC of the host has priority 3 with PFC on 3`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fixture(fcNode1())
			tt.edit(f, &f.Hosts[0])
			_, err := Render(f, &f.Hosts[0])
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("error = %v, want none", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("error = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// TestBothTrustMarksDSCP checks that with trust both the switches
// classify IP traffic by DSCP, so TCP and UDP get the default class's
// DSCP mark as with DSCP trust.
func TestBothTrustMarksDSCP(t *testing.T) {
	h := fcNode1()
	for i := range h.NICs {
		h.NICs[i].RoCE.Trust = model.TrustBoth
	}
	s := render(t, h)
	assertLines(t, s, []string{
		"New-NetQosPolicy -Name 'TCP' -IPProtocolMatchCondition TCP -PriorityValue8021Action 0 -DSCPAction 0 | Out-Null",
		"New-NetQosPolicy -Name 'UDP' -IPProtocolMatchCondition UDP -PriorityValue8021Action 0 -DSCPAction 0 | Out-Null",
	})
}

// TestPeerNamed checks that the comments and warnings about who
// classifies the host's RoCE name the NIC's actual link peer: the peer NIC
// on the homelab's back-to-back link (no switch anywhere), the switch port
// on a switched one, and that no wording claims switches on a switchless
// link.
func TestPeerNamed(t *testing.T) {
	s := render(t, workstation())
	assertLines(t, s, []string{
		"# no 802.1Q tag at all, so peer NIC nas:mlxen0 classifies RoCE by its DSCP.",
		"# RDMA on priority 3 leaves with DSCP 26, the DSCP peer NIC nas:mlxen0 classifies as RoCE. The NIC",
	})
	if !strings.Contains(s, "Peer NIC nas:mlxen0 trusts DSCP, so it is also marked DSCP 0, the class's mark.") {
		t.Error("the TCP/UDP policy comment does not name the peer NIC that trusts DSCP")
	}
	for _, l := range lines(s) {
		if strings.HasPrefix(l, "#") && strings.Contains(strings.ToLower(l), "switch") && !strings.Contains(l, "Data-Center-Bridging") && !strings.Contains(l, "\"this prio should be lossless all the way in the switches\"") {
			t.Errorf("a comment of the switchless workstation speaks of a switch:\n  %s", l)
		}
	}

	tagged := workstation()
	tagged.NICs[0].VLAN = 2
	tagged.NICs[0].Peer = &model.Peer{Kind: "switch", Device: "leaf1", Port: "swp7"}
	s = render(t, tagged)
	assertLines(t, s, []string{
		"# VLAN 2 tags RDMA traffic and carries its priority; switch port leaf1:swp7 must carry it too.",
		"# RDMA on priority 3 leaves with DSCP 26, the DSCP switch port leaf1:swp7 classifies as RoCE. The NIC",
	})

	// A peer name is the fabric's text: it reaches comments through
	// quote.Comment and warnings through q, on one line (quote.Visible).
	hostile := fcNode1()
	for i := range hostile.NICs {
		hostile.NICs[i].Peer = &model.Peer{Kind: "host", Device: "b2b'; $(Remove-Item C:\\) #’\nx", Port: "p0"}
	}
	s = render(t, hostile)
	want := "RoCE leaves with the driver''s own DSCP. Peer NIC b2b''; $(Remove-Item C:\\) #’’\\nx:p0 classifies this host''s RoCE by DSCP, so it may not land in the lossless class.'"
	if !strings.Contains(s, want) {
		t.Errorf("the hostile peer name is not single-quoted in the warning; want %q in the script", want)
	}
	if got := checkScript(s); len(got) > 0 {
		t.Errorf("script with a hostile peer name: %v", got)
	}
}
