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
