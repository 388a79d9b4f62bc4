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
		if strings.HasPrefix(l, "#") && strings.Contains(strings.ToLower(l), "switch") && !strings.Contains(l, "Data-Center-Bridging") && !strings.Contains(l, "Hyper-V") && !strings.Contains(l, "(SET)") && !strings.Contains(l, "\"this prio should be lossless all the way in the switches\"") {
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

// TestIpMtuFromHost checks that the script asks the host how its driver
// counts *JumboPacket instead of guessing between Microsoft's frame size
// and the Mellanox manuals' note: -Check compares the IP MTU Windows runs
// (NlMtu) with the model's MTU and names the fix when NlMtu equals
// *JumboPacket; a run that applies, after the restart, sets *JumboPacket
// to the MTU in that case (one more restart), and later runs keep it
// (Select-JumboPacket takes the MTU only when NlMtu shows the MTU).
func TestIpMtuFromHost(t *testing.T) {
	s := render(t, workstation())
	assertLines(t, s, []string{
		// The helpers.
		"function Get-IpMtu {",
		"$interface = @(Get-NetIPInterface -InterfaceAlias $Adapter -AddressFamily $Family -ErrorAction SilentlyContinue)",
		"return Format-Value $interface[0].NlMtu",
		"function Select-JumboPacket {",
		"if ((Get-Keyword $Adapter '*JumboPacket') -eq $Mtu -and (Get-IpMtu $Adapter $Family) -eq $Mtu) {",
		"return $Mtu",
		"return $Frame",
		"function Get-IpMtuAdvice {",
		"$jumbo = Get-Keyword $Adapter '*JumboPacket'",
		"if ($Actual -eq $jumbo) {",
		"return (\"NlMtu {0} equals *JumboPacket {1}: the driver counts the frame without the Ethernet header; set *JumboPacket to {2}, the MTU (a run without -Check does).\" -f $Actual, $jumbo, $Mtu)",
		"function Compare-IpMtu {",
		"if (-not (Compare-State $Adapter ('IP MTU (NlMtu, ' + $Family + ')') $Mtu $Actual)) {",
		"Write-Host ('  fix: ' + (Get-IpMtuAdvice $Adapter $Mtu $Actual))",
		// The adapter's step: the frame size unless the host shows otherwise,
		// then the -Check comparison of NlMtu.
		"$frame = Select-JumboPacket 'Ethernet 3' 'IPv4' '9000' '9014'",
		"Set-Keyword 'Ethernet 3' '*JumboPacket' $frame",
		"if ($Check) {",
		"Compare-IpMtu 'Ethernet 3' 'IPv4' '9000' (Get-IpMtu 'Ethernet 3' 'IPv4') | Out-Null",
		// The repair, after the restarts, never under -Check, -WhatIf or
		// -NoRestart.
		"if (-not (Restart-AdapterAndWait $name)) {",
		"if (-not $Check -and -not $WhatIfPreference -and $restarted) {",
		"if ($Present['Ethernet 3']) {",
		"$ipMtu = Wait-IpMtu 'Ethernet 3' 'IPv4' '9000'",
		"$jumbo = Get-Keyword 'Ethernet 3' '*JumboPacket'",
		"if ($ipMtu -ne '9000' -and $ipMtu -eq $jumbo) {",
		"if ((Compare-State 'Ethernet 3' ('*JumboPacket (NlMtu ' + $ipMtu + ': counted without the Ethernet header)') '9000' $jumbo) -and -not $Check) {",
		"if ($PSCmdlet.ShouldProcess('Ethernet 3', 'set *JumboPacket to 9000 and restart the adapter')) {",
		"Set-Keyword 'Ethernet 3' '*JumboPacket' '9000'",
		"Restart-AdapterAndWait 'Ethernet 3' | Out-Null",
		"$ipMtu = Wait-IpMtu 'Ethernet 3' 'IPv4' '9000'",
		"if ($ipMtu -ne '9000') {",
		"Write-Warning (\"fabricc: adapter {0} runs IP MTU (NlMtu, {1}) {2}, the model asks {3}: {4}\" -f 'Ethernet 3', 'IPv4', $ipMtu, '9000', (Get-IpMtuAdvice 'Ethernet 3' '9000' $ipMtu))",
		"$script:NotInEffect++",
		"if ($Check) {",
		"exit 1",
	})

	// An adapter with IPv6 addresses only reads its IPv6 interface; a
	// hostile adapter name stays one single-quoted string.
	v6 := workstation()
	v6.NICs[0].Interface = "Bob's NIC"
	v6.NICs[0].MTU = 1500
	v6.NICs[0].Addresses = []string{"fd00::10/64"}
	s = render(t, v6)
	assertLines(t, s, []string{
		"$frame = Select-JumboPacket 'Bob''s NIC' 'IPv6' '1500' '1514'",
		"Compare-IpMtu 'Bob''s NIC' 'IPv6' '1500' (Get-IpMtu 'Bob''s NIC' 'IPv6') | Out-Null",
		"$ipMtu = Wait-IpMtu 'Bob''s NIC' 'IPv6' '1500'",
		"Set-Keyword 'Bob''s NIC' '*JumboPacket' '1500'",
		"Restart-AdapterAndWait 'Bob''s NIC' | Out-Null",
	})
	if got := checkScript(s); len(got) > 0 {
		t.Errorf("script structure: %v", got)
	}
}
