package windows

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// render renders h in a fabric holding it and returns the script text.
func render(t *testing.T, h model.Host) string {
	t.Helper()
	f := fixture(h)
	files, err := Render(f, &f.Hosts[0])
	if err != nil {
		t.Fatalf("Render(%s): %v", h.Name, err)
	}
	if len(files) != 1 {
		t.Fatalf("Render(%s) returned %d files, want 1", h.Name, len(files))
	}
	if want := h.Name + ".windows.ps1"; files[0].Name != want || files[0].Target != "windows" || files[0].Mode != 0o755 {
		t.Fatalf("file = %q target %q mode %o, want %q windows 755", files[0].Name, files[0].Target, files[0].Mode, want)
	}
	return string(files[0].Data)
}

// lines returns the script's lines with indentation removed.
func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		out = append(out, strings.TrimSpace(l))
	}
	return out
}

// assertLines fails unless every wanted line appears in s, in order.
func assertLines(t *testing.T, s string, want []string) {
	t.Helper()
	got := lines(s)
	i := 0
	for _, w := range want {
		for i < len(got) && got[i] != w {
			i++
		}
		if i == len(got) {
			t.Errorf("missing line (or out of order):\n  %s", w)
			return
		}
	}
}

// assertAbsent fails when any line of s contains one of the fragments.
func assertAbsent(t *testing.T, s string, fragments []string) {
	t.Helper()
	for _, f := range fragments {
		if strings.Contains(s, f) {
			t.Errorf("script contains %q, which it must not", f)
		}
	}
}

// withPriority moves the RoCE class and every NIC of h to priority p.
func withPriority(h model.Host, p int) (*model.Fabric, *model.Host) {
	f := fixture(h)
	f.QoS.Classes[1].Priority, f.QoS.Classes[1].Priorities = p, []int{p}
	f.QoS.Classes[0].Priorities = others([]int{p, 6})
	for i := range f.Hosts[0].NICs {
		n := &f.Hosts[0].NICs[i]
		n.RoCE.Priority, n.RoCE.PFCPriorities, n.RoCE.ECNPriorities = p, []int{p}, []int{p}
		for j := range n.Applications {
			n.Applications[j].Priority = p
		}
	}
	return f, &f.Hosts[0]
}

// TestDemartekPolicySet checks the SMB Direct procedure of the Demartek
// RoCE Deployment Guide ("Windows: Deploying SMB Direct over RoCE with
// Storage Spaces") for the demartek-lab file-controller node: the
// SMB, DEFAULT, TCP and UDP policies, PFC only on the RoCE priority,
// DCBX not willing, QoS on both adapters; and that the priorities are the
// model's, not the guide's literal 3.
func TestDemartekPolicySet(t *testing.T) {
	tests := []struct {
		name     string
		priority int
		want     []string
	}{
		{"Demartek priority 3", 3, []string{
			"Set-NetQosDcbxSetting -Willing $false -Confirm:$false",
			"$ours = @('SMB', 'DEFAULT', 'TCP', 'UDP')",
			"New-NetQosPolicy -Name 'SMB' -NetDirectPortMatchCondition 445 -PriorityValue8021Action 3 | Out-Null",
			"New-NetQosPolicy -Name 'DEFAULT' -Default -PriorityValue8021Action 3 | Out-Null",
			"New-NetQosPolicy -Name 'TCP' -IPProtocolMatchCondition TCP -PriorityValue8021Action 0 -DSCPAction 0 | Out-Null",
			"New-NetQosPolicy -Name 'UDP' -IPProtocolMatchCondition UDP -PriorityValue8021Action 0 -DSCPAction 0 | Out-Null",
			"Enable-NetQosFlowControl -Priority 3",
			"Disable-NetQosFlowControl -Priority 0,1,2,4,5,6,7",
			"New-NetQosTrafficClass -Name 'roce' -Priority 3 -Algorithm ETS -BandwidthPercentage 50 | Out-Null",
			"New-NetQosTrafficClass -Name 'cnp' -Priority 6 -Algorithm Strict | Out-Null",
			"Enable-NetAdapterQos -Name 'SLOT 4 Port 1' -NoRestart",
			"Enable-NetAdapterRdma -Name 'SLOT 4 Port 1' -NoRestart",
			"Enable-NetAdapterQos -Name 'SLOT 4 Port 2' -NoRestart",
			"Enable-NetAdapterRdma -Name 'SLOT 4 Port 2' -NoRestart",
		}},
		{"model priority 5", 5, []string{
			"New-NetQosPolicy -Name 'SMB' -NetDirectPortMatchCondition 445 -PriorityValue8021Action 5 | Out-Null",
			"New-NetQosPolicy -Name 'DEFAULT' -Default -PriorityValue8021Action 5 | Out-Null",
			"New-NetQosPolicy -Name 'TCP' -IPProtocolMatchCondition TCP -PriorityValue8021Action 0 -DSCPAction 0 | Out-Null",
			"Enable-NetQosFlowControl -Priority 5",
			"Disable-NetQosFlowControl -Priority 0,1,2,3,4,6,7",
			"New-NetQosTrafficClass -Name 'roce' -Priority 5 -Algorithm ETS -BandwidthPercentage 50 | Out-Null",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, h := withPriority(fcNode1(), tt.priority)
			files, err := Render(f, h)
			if err != nil {
				t.Fatal(err)
			}
			assertLines(t, string(files[0].Data), tt.want)
		})
	}
}

// TestPolicyCheckProperties checks what -Check compares for each policy,
// in the form Get-NetQosPolicy gives it back: TemplateMatchCondition and
// IPProtocolMatchCondition are enums of Windows' NetQos module whose names
// print ("Default" = 1 of NetQosPolicy.Template, "TCP" = 1 of
// NetQosPolicy.Protocol: MSFT_NetQosPolicy.cdxml, <Enums>), not the
// numbers CIM stores.
func TestPolicyCheckProperties(t *testing.T) {
	s := render(t, fcNode1())
	assertLines(t, s, []string{
		"if ((Compare-Policy 'QoS policy SMB' $policy ([ordered]@{ NetDirectPortMatchCondition = '445'; PriorityValue8021Action = '3' })) -and -not $Check) {",
		"if ((Compare-Policy 'QoS policy DEFAULT' $policy ([ordered]@{ TemplateMatchCondition = 'Default'; PriorityValue8021Action = '3' })) -and -not $Check) {",
		"if ((Compare-Policy 'QoS policy TCP' $policy ([ordered]@{ IPProtocolMatchCondition = 'TCP'; PriorityValue8021Action = '0'; DSCPAction = '0' })) -and -not $Check) {",
		"if ((Compare-State 'PFC' 'enabled priorities' '3' $enabled) -and -not $Check) {",
		"Compare-Properties 'traffic class [Default]' $class ([ordered]@{ Algorithm = 'ETS'; BandwidthPercentage = '50'; Priority = '0,1,2,4,5,7' }) | Out-Null",
	})
}

// TestPCPTrustDropsDSCPAction checks that TCP/UDP get no DSCP mark when
// the fabric trusts PCP, since the switches then ignore DSCP.
func TestPCPTrustDropsDSCPAction(t *testing.T) {
	h := fcNode1()
	for i := range h.NICs {
		h.NICs[i].RoCE.Trust = model.TrustPCP
	}
	s := render(t, h)
	assertLines(t, s, []string{"New-NetQosPolicy -Name 'TCP' -IPProtocolMatchCondition TCP -PriorityValue8021Action 0 | Out-Null"})
	assertAbsent(t, s, []string{"-DSCPAction"})
}

// TestApplications checks the NetworkDirect policy of each application
// kind and that MPI (no port) relies on DEFAULT.
func TestApplications(t *testing.T) {
	h := fcNode1()
	h.NICs = h.NICs[:1]
	h.NICs[0].Applications = []model.Application{
		{Kind: "iser", Port: 3260, Priority: 3}, {Kind: "mpi", Priority: 3},
		{Kind: "nfs-rdma", Port: 20049, Priority: 3}, {Kind: "nvme-of", Port: 4420, Priority: 3},
	}
	s := render(t, h)
	assertLines(t, s, []string{
		"$ours = @('iSER', 'NFS-RDMA', 'NVMe-oF', 'DEFAULT', 'TCP', 'UDP')",
		"New-NetQosPolicy -Name 'iSER' -NetDirectPortMatchCondition 3260 -PriorityValue8021Action 3 | Out-Null",
		"New-NetQosPolicy -Name 'NFS-RDMA' -NetDirectPortMatchCondition 20049 -PriorityValue8021Action 3 | Out-Null",
		"New-NetQosPolicy -Name 'NVMe-oF' -NetDirectPortMatchCondition 4420 -PriorityValue8021Action 3 | Out-Null",
	})
	assertAbsent(t, s, []string{"'MPI'", "IPDstPortMatchCondition"})
}

// TestJumboPacket checks that *JumboPacket is the MTU plus the 14-byte
// Ethernet header (Microsoft, "Keywords That Can Be Edited"; WinOF User
// Manual 5.50 §10, Rev. 4.40), that the comment says which sources support
// the value and which Mellanox note reads the other way, and that MTUs
// outside the drivers' 614-9614 frame range are refused.
func TestJumboPacket(t *testing.T) {
	tests := []struct {
		mtu     int
		want    string
		wantErr string
	}{
		{mtu: 1500, want: "$frame = Select-JumboPacket 'Ethernet 3' 'IPv4' '1500' '1514'"},
		{mtu: 9000, want: "$frame = Select-JumboPacket 'Ethernet 3' 'IPv4' '9000' '9014'"},
		{mtu: 600, want: "$frame = Select-JumboPacket 'Ethernet 3' 'IPv4' '600' '614'"},
		{mtu: 9600, want: "$frame = Select-JumboPacket 'Ethernet 3' 'IPv4' '9600' '9614'"},
		{mtu: 599, wantErr: "MTU 599"},
		{mtu: 9601, wantErr: "*JumboPacket 614-9614"},
	}
	for _, tt := range tests {
		h := workstation()
		h.NICs[0].MTU = tt.mtu
		f := fixture(h)
		files, err := Render(f, &f.Hosts[0])
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("MTU %d: error %v, want one containing %q", tt.mtu, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("MTU %d: %v", tt.mtu, err)
		}
		assertLines(t, string(files[0].Data), []string{tt.want})
	}
	assertLines(t, render(t, workstation()), []string{
		"# MTU 9000: *JumboPacket is the frame size with the 14-byte Ethernet header, 9000 + 14 = 9014",
		"# (\"an Ethernet frame that is greater than 1514 bytes\", default and minimum 1514, Microsoft",
		"# \"Keywords That Can Be Edited\"; \"Added to the MTU size the IP header size (1500->1514,",
		"# 9600->9614)\", WinOF User Manual 5.50 §10, Rev. 4.40).",
		"# The *JumboPacket note of WinOF User Manual 5.50 §4.6.3 reads the other way (\"Mellanox adapters",
		"# do not include Ethernet header information in the frame size\", range 600-9600), perhaps WinOF before 4.40;",
		"# the host tells which: -Check compares the IP MTU Windows runs (NlMtu) with 9000, and a run that",
		"# applies sets *JumboPacket to 9000 after the restart if NlMtu shows 9014 (see the end).",
		"$frame = Select-JumboPacket 'Ethernet 3' 'IPv4' '9000' '9014'",
		"if ((Compare-State 'Ethernet 3' '*JumboPacket' $frame (Get-Keyword 'Ethernet 3' '*JumboPacket')) -and -not $Check) {",
		"Set-Keyword 'Ethernet 3' '*JumboPacket' $frame",
	})
	assertAbsent(t, render(t, workstation()), []string{"*JumboPacket to 1500, the actual frame size is 1514\")."})
}

// TestRoCEModePerDriver checks the RoCE mode lines of each driver
// generation: WinOF registry roce_mode 2 / IP-based 5 and roce_udp_dport
// (WinOF User Manual 5.50 §4.6.9.2), WinOF-2 roce_mode 2 / MAC-based 0
// (WinOF-2 User Manual 1.21 Table 6), QLogic's per-adapter "RoCE Mode"
// property (Demartek RoCE Deployment Guide, QLogic).
func TestRoCEModePerDriver(t *testing.T) {
	winof := `'HKLM:\SYSTEM\CurrentControlSet\Services\mlx4_bus\Parameters\Roce'`
	winof2 := `'HKLM:\SYSTEM\CurrentControlSet\Services\mlx5\Parameters\Roce'`
	tests := []struct {
		name   string
		host   func() model.Host
		mode   string
		port   int
		want   []string
		absent []string
	}{
		{"winof v2", workstation, "v2", 4791, []string{
			"Set-RegistryDword " + winof + " 'roce_mode' 2",
			"$script:Restart += @('Ethernet 3')",
			"Set-RegistryDword " + winof + " 'roce_udp_dport' 4791",
		}, []string{"mlx5"}},
		{"winof v1 is IP based", workstation, "v1", 0, []string{
			"Set-RegistryDword " + winof + " 'roce_mode' 5",
		}, []string{"roce_udp_dport", "PriorityToDscpMappingTable", "RroceDscpMarkPriorityFlowControl"}},
		{"winof old port", workstation, "v2", 1021, []string{
			"Set-RegistryDword " + winof + " 'roce_udp_dport' 1021",
		}, nil},
		{"winof2 v2", fcNode1, "v2", 4791, []string{
			"Set-RegistryDword " + winof2 + " 'roce_mode' 2",
			"$script:Restart += @('SLOT 4 Port 1', 'SLOT 4 Port 2')",
		}, []string{"mlx4_bus", "roce_udp_dport"}},
		{"winof2 v1 is MAC based", fcNode1, "v1", 0, []string{
			"Set-RegistryDword " + winof2 + " 'roce_mode' 0",
		}, nil},
		{"winof2 other port warns", fcNode1, "v2", 1021, []string{
			"Write-Warning 'fabricc: the model asks RoCEv2 UDP port 1021, but WinOF-2 documents no setting for it; the driver''s port (IANA 4791) applies.'",
		}, nil},
		{"qlogic v2", qlogicHost, "v2", 4791, []string{
			"Set-NetAdapterAdvancedProperty -Name 'NIC in Slot 4 Port 1' -DisplayName 'RoCE Mode' -DisplayValue 'RoCE v2' -NoRestart",
			"$script:Restart += @('NIC in Slot 4 Port 1')",
		}, []string{"roce_mode"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := tt.host()
			for i := range h.NICs {
				h.NICs[i].RoCE.Mode, h.NICs[i].RoCE.UDPPort = tt.mode, tt.port
			}
			s := render(t, h)
			assertLines(t, s, tt.want)
			assertAbsent(t, s, tt.absent)
		})
	}
}

// TestWinOFDSCP checks the RDMA DSCP mapping of ConnectX-3 and, for an
// untagged DSCP-trusting NIC, the DSCP-based PFC keys (WinOF User Manual 5.50
// §4.1.11.7); WinOF-2 gets a warning instead of an undocumented key.
func TestWinOFDSCP(t *testing.T) {
	s := render(t, workstation())
	assertLines(t, s, []string{
		"Set-Keyword 'Ethernet 3' 'VlanID' '0'",
		"$frame = Select-JumboPacket 'Ethernet 3' 'IPv4' '9000' '9014'",
		"Set-Keyword 'Ethernet 3' '*JumboPacket' $frame",
		"Set-Keyword 'Ethernet 3' '*PriorityVLANTag' '3'",
		"Set-Keyword 'Ethernet 3' 'RroceDscpMarkPriorityFlowControl_3' '26'",
		"Set-Keyword 'Ethernet 3' 'PriorityToDscpMappingTable_3' '26'",
		"Set-Keyword 'Ethernet 3' 'TxUntagPriorityTag' '1'",
		"Set-Keyword 'Ethernet 3' 'RxUntaggedMapToLossless' '1'",
	})
	tagged := workstation()
	tagged.NICs[0].VLAN = 2
	s = render(t, tagged)
	// Tagged: both DSCP-based PFC keys back at their default 0 (WinOF
	// User Manual 5.50 §4.1.11.7.1), undoing an earlier untagged fabric.
	assertLines(t, s, []string{"Set-Keyword 'Ethernet 3' 'VlanID' '2'", "Set-Keyword 'Ethernet 3' 'RroceDscpMarkPriorityFlowControl_3' '26'", "Set-Keyword 'Ethernet 3' 'PriorityToDscpMappingTable_3' '26'",
		"Set-Keyword 'Ethernet 3' 'TxUntagPriorityTag' '0'", "Set-Keyword 'Ethernet 3' 'RxUntaggedMapToLossless' '0'"})
	assertAbsent(t, s, []string{"Set-Keyword 'Ethernet 3' 'TxUntagPriorityTag' '1'", "Set-Keyword 'Ethernet 3' 'RxUntaggedMapToLossless' '1'"})

	s = render(t, fcNode1())
	assertAbsent(t, s, []string{"Set-Keyword 'SLOT 4 Port 1' 'PriorityToDscpMappingTable", "RroceDscpMarkPriorityFlowControl"})
	assertLines(t, s, []string{"Write-Warning 'fabricc: the RoCE DSCP 26 of the WinOF-2 adapter(s) ''SLOT 4 Port 1'', ''SLOT 4 Port 2'' is not set by this script (the WinOF-2 User Manual Rev 1.21 this script follows documents no key; a later one may): RoCE leaves with the driver''s own DSCP. Switch port sn2410:1/1 and switch port sn2410:1/2 classify this host''s RoCE by DSCP, so it may not land in the lossless class.'"})
	assertAbsent(t, s, []string{"before relying on DSCP trust"})

	// Toward a port trusting PCP the note says the DSCP does not
	// classify the host's RoCE there, and does not claim it is set.
	pcp := fcNode1()
	for i := range pcp.NICs {
		pcp.NICs[i].RoCE.Trust = model.TrustPCP
	}
	assertLines(t, render(t, pcp), []string{"Write-Warning 'fabricc: the RoCE DSCP 26 of the WinOF-2 adapter(s) ''SLOT 4 Port 1'', ''SLOT 4 Port 2'' is not set by this script (the WinOF-2 User Manual Rev 1.21 this script follows documents no key; a later one may): RoCE leaves with the driver''s own DSCP. Switch port sn2410:1/1 and switch port sn2410:1/2 trust PCP, the 802.1p priority 3 this script sets, so the DSCP does not classify this host''s RoCE there.'"})
}

// TestWinOFRoCEDSCPKeys checks that a ConnectX-3 adapter gets the RoCE
// DSCP in RroceDscpMarkPriorityFlowControl_<priority>, the key WinOF User
// Manual 5.50 §4.1.11.2 says the NIC marks RDMA from, as well as in
// PriorityToDscpMappingTable_<priority> of the manual's defaults table,
// each compared under -Check and queued for the restart, for the model's
// priority (not the manuals' 3), with the emitted comment citing both
// sections.
func TestWinOFRoCEDSCPKeys(t *testing.T) {
	f, h := withPriority(workstation(), 4)
	files, err := Render(f, h)
	if err != nil {
		t.Fatal(err)
	}
	s := string(files[0].Data)
	for _, key := range []string{"RroceDscpMarkPriorityFlowControl_4", "PriorityToDscpMappingTable_4"} {
		assertLines(t, s, []string{
			"if ((Compare-State 'Ethernet 3' '" + key + "' '26' (Get-Keyword 'Ethernet 3' '" + key + "')) -and -not $Check) {",
			"if ($PSCmdlet.ShouldProcess('Ethernet 3', 'set " + key + " to 26')) {",
			"Set-Keyword 'Ethernet 3' '" + key + "' '26'",
			"$script:Restart += @('Ethernet 3')",
		})
	}
	assertAbsent(t, s, []string{"_3'"})
	assertLines(t, s, []string{
		"# RroceDscpMarkPriorityFlowControl[0-7] Registry keys\" (WinOF User Manual 5.50 §4.1.11.2), which mark RoCE",
		"# \"when priority flow control is enabled\", by default with the priority itself (DSCP 4); the manual",
		"# writes that default as PriorityToDscpMappingTable_4 and lists that key in its defaults table",
		"# (WinOF User Manual 5.50 §4.1.11.7, §4.1.11.7.1), so both keys are set.",
	})
}

// TestDCQCNNote checks that the DCQCN warning names the settings NVIDIA
// documents for a WinOF/WinOF-2 host (the DcQcnEnablePrio0..7 registry
// keys and their restart, the firmware's CNP_DSCP_P1/CNP_802P_PRIO_P1 with
// the fabric's values) and never says that no setting exists; names the
// fabric's choice (every priority) in words and a narrower one by its
// priorities; and sends a QLogic host, and a WinOF (ConnectX-3) host the
// keys do not cover, to the vendor's tools, not to those keys.
func TestDCQCNNote(t *testing.T) {
	const rest = " are not set or checked by this script. Set them by hand: DCQCN per priority with the adapter registry keys DcQcnEnablePrio0 to DcQcnEnablePrio7, 1 on and 0 off (NVIDIA \"DCQCN CC Parameters\", General table, WinOF column), under the adapter''s key as the WinOF-2 User Manual, \"Configuring the Driver Registry Keys\", describes, then Restart-NetAdapter; the CNP marking with mlxconfig -d DEV set CNP_DSCP_P1=%d CNP_802P_PRIO_P1=%d and a reboot (NVIDIA Firmware Tools (MFT) User Manual, mlxconfig). The adapter firmware runs DCQCN on the priorities of its ROCE_CC_PRIO_MASK (all by default) and marks CNPs as its own settings say.'"
	s := render(t, fcNode1())
	assertLines(t, s, []string{"Write-Warning 'fabricc: DCQCN on every priority and CNP priority 6 / DSCP 48" + fmt.Sprintf(rest, 48, 6)})
	assertAbsent(t, s, []string{"DCQCN on priorities 3 ", "name no setting", "no documented PowerShell cmdlet or registry key"})
	two := fcNode1()
	for i := range two.NICs {
		two.NICs[i].RoCE.ECNPriorities = []int{3, 4}
		two.NICs[i].RoCE.CNPDSCP, two.NICs[i].RoCE.CNPPriority = 46, 5
	}
	assertLines(t, render(t, two), []string{"Write-Warning 'fabricc: DCQCN on priorities 3,4 and CNP priority 5 / DSCP 46" + fmt.Sprintf(rest, 46, 5)})
	for _, h := range []model.Host{qlogicHost(), workstation()} {
		s := render(t, h)
		assertAbsent(t, s, []string{"DcQcnEnablePrio", "CNP_DSCP_P1", "name no setting"})
		if !strings.Contains(s, " are not set or checked by this script; set them with the adapter vendor''s tools. The adapter firmware runs DCQCN") {
			t.Errorf("%s: want the DCQCN note that sends the user to the vendor's tools", h.Name)
		}
	}
}

// TestWhatIfSummary checks the closing lines: -Check reports differences
// and exits before the summary; -WhatIf, which changes nothing, says it
// would change N and exits; only a real run says "done".
func TestWhatIfSummary(t *testing.T) {
	s := render(t, fcNode1())
	end := s[strings.Index(s, "# ---- end ----"):]
	// The IP MTU repair between the restart and the summary has its own
	// test (TestIpMtuFromHost).
	from, to := strings.Index(end, "# The IP MTU Windows runs (NlMtu)"), strings.Index(end, "\nif ($Check) {")
	if from < 0 || to < from {
		t.Fatalf("end of script lacks the IP MTU repair before the -Check summary:\n%s", end)
	}
	end = end[:from] + end[to+1:]
	want := `# ---- end ----
$names = @($script:Restart | Sort-Object -Unique)
$restarted = $true
if ($names.Count -gt 0 -and -not $Check -and $NoRestart) {
    Write-Warning ("fabricc: -NoRestart: the changes take effect when these adapters restart; restart them one at a time, each back Up before the next: {0}" -f ($names -join ', '))
    $script:NotInEffect += $names.Count
    $restarted = $false
}
# One at a time, each back Up with RDMA before the next (Restart-AdapterAndWait).
if ($names.Count -gt 0 -and -not $Check -and -not $NoRestart) {
    foreach ($name in $names) {
        if ($PSCmdlet.ShouldProcess($name, 'Restart-NetAdapter (advanced properties and driver registry keys take effect on restart)')) {
            if (-not (Restart-AdapterAndWait $name)) {
                $script:NotInEffect++
                $restarted = $false
                break
            }
        }
    }
}
if ($Check) {
    if ($script:Differences -gt 0) {
        Write-Host ("fabricc: {0} difference(s) from the model" -f $script:Differences)
        exit 1
    }
    Write-Host 'fabricc: host matches the model'
    exit 0
}
if ($WhatIfPreference) {
    Write-Host ("fabricc: would change {0}" -f $script:Differences)
    exit 0
}
if ($script:NotInEffect -gt 0) {
    Write-Host ("fabricc: done, {0} change(s), {1} not in effect" -f $script:Differences, $script:NotInEffect)
    exit 3
}
Write-Host ("fabricc: done, {0} change(s)" -f $script:Differences)
exit 0
`
	if end != want {
		t.Errorf("end of script:\n%s\nwant:\n%s", end, want)
	}
}

// TestQLogicPath checks that a QLogic NIC gets what Windows controls and
// the UEFI HII steps for its RoCE priority (Demartek RoCE Deployment
// Guide, QLogic), not a pretend
// setting.
func TestQLogicPath(t *testing.T) {
	s := render(t, qlogicHost())
	assertLines(t, s, []string{
		"# QLogic FastLinQ: \"the DCBX and priority number are selected in the UEFI HII interface\"",
		"Write-Warning 'fabricc: adapter ''NIC in Slot 4 Port 1'' (QL45212) takes its RoCE priority from UEFI, not Windows: reboot into System Setup (F2 on Dell) > Device Settings > this port > Device Level Configuration, set DCBX protocol to Dynamic and RoCE Priority to 3 (Demartek RoCE Deployment Guide, QLogic).'",
		"New-NetQosPolicy -Name 'SMB' -NetDirectPortMatchCondition 445 -PriorityValue8021Action 3 | Out-Null",
		"Set-Keyword 'NIC in Slot 4 Port 1' 'VlanID' '2'",
		"$frame = Select-JumboPacket 'NIC in Slot 4 Port 1' 'IPv4' '1500' '1514'",
		"Set-NetAdapterAdvancedProperty -Name 'NIC in Slot 4 Port 1' -DisplayName 'RoCE Mode' -DisplayValue 'RoCE v2' -NoRestart",
		"$script:Restart += @('NIC in Slot 4 Port 1')",
		"Enable-NetAdapterRdma -Name 'NIC in Slot 4 Port 1' -NoRestart",
		"New-NetIPAddress -InterfaceAlias 'NIC in Slot 4 Port 1' -IPAddress '192.168.2.61' -PrefixLength 24 | Out-Null",
	})
	assertAbsent(t, s, []string{"roce_mode", "PriorityToDscpMappingTable"})
}

// TestCheckAndWhatIf checks the machinery: the byte-order mark and
// #Requires first, the CmdletBinding/param block before any statement,
// every change guarded by "-not $Check" and ShouldProcess, and -Check
// ending in exit 1 on differences.
func TestCheckAndWhatIf(t *testing.T) {
	s, ok := strings.CutPrefix(render(t, fcNode1()), "\ufeff")
	if !ok {
		t.Errorf("the script does not start with a UTF-8 byte-order mark")
	}
	ls := lines(s)
	if ls[0] != "#Requires -RunAsAdministrator" {
		t.Errorf("first line = %q", ls[0])
	}
	var code []string
	for _, l := range ls {
		if l != "" && !strings.HasPrefix(l, "#") {
			code = append(code, l)
		}
	}
	wantStart := []string{"[CmdletBinding(SupportsShouldProcess)]", "param(", "[switch]$Check,", "[switch]$NoRestart,", "[switch]$IgnoreNetworkATC", ")", "$ErrorActionPreference = 'Stop'"}
	for i, w := range wantStart {
		if code[i] != w {
			t.Errorf("statement %d = %q, want %q", i, code[i], w)
		}
	}
	n := 0
	for i, l := range ls {
		if !strings.Contains(l, "$PSCmdlet.ShouldProcess(") {
			continue
		}
		n++
		if !strings.HasPrefix(l, "if ($PSCmdlet.ShouldProcess(") || !strings.HasSuffix(l, ")) {") {
			t.Errorf("line %d: ShouldProcess not in an if: %q", i+1, l)
		}
		if i+1 >= len(ls) || ls[i+1] == "}" || ls[i+1] == "" {
			t.Errorf("line %d: ShouldProcess block has no body", i+1)
		}
		prev := ls[i-1]
		if prev == "foreach ($name in $names) {" {
			prev = ls[i-2] // the restarts: the loop is inside the guard
		}
		if !strings.HasSuffix(prev, "-and -not $Check) {") && !strings.HasSuffix(prev, "-not $Check) {") && !strings.HasSuffix(prev, "-not $Check -and -not $NoRestart) {") {
			t.Errorf("line %d: change not guarded by -not $Check: %q", i, prev)
		}
	}
	if n < 20 {
		t.Errorf("found %d ShouldProcess guards, want one per change (>= 20)", n)
	}
	assertLines(t, s, []string{
		"Write-Host ('{0} {1}: {2}: intended {3}, actual {4}' -f $verb, $Target, $What, $Intended, $Actual)",
		"if ($Check) {",
		"if ($script:Differences -gt 0) {",
		"exit 1",
		"Write-Host 'fabricc: host matches the model'",
		"exit 0",
	})
}

// TestHeaderAndDeterminism checks the header names fabric, host and OS
// and that rendering twice gives the same bytes.
func TestHeaderAndDeterminism(t *testing.T) {
	f := fixture(fcNode1())
	a, err := Render(f, &f.Hosts[0])
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Render(f, &f.Hosts[0])
	if !bytes.Equal(a[0].Data, b[0].Data) {
		t.Error("two renders of the same model differ")
	}
	assertLines(t, string(a[0].Data), []string{
		"# fabric demartek-lab, host fc-node1, OS windows 2012r2",
		"# generated by fabricc; do not edit",
	})
}

// TestErrors checks that models Windows cannot express are refused with
// a message naming the value.
func TestErrors(t *testing.T) {
	tests := []struct {
		name string
		edit func(f *model.Fabric, h *model.Host)
		want string
	}{
		{"linux host", func(_ *model.Fabric, h *model.Host) { h.OS = model.OSLinux }, `has os "linux"`},
		{"no nics", func(_ *model.Fabric, h *model.Host) { h.NICs = nil }, "host has no NICs"},
		{"unknown driver", func(_ *model.Fabric, h *model.Host) { h.NICs[0].Driver = "mlnx_ofed" }, `driver "mlnx_ofed"`},
		{"vlan range", func(_ *model.Fabric, h *model.Host) { h.NICs[0].VLAN = 4096 }, "VLAN 4096"},
		{"bad address", func(_ *model.Fabric, h *model.Host) { h.NICs[0].Addresses = []string{"192.168.2.11"} }, `address "192.168.2.11"`},
		{"priorities differ", func(_ *model.Fabric, h *model.Host) { h.NICs[1].RoCE.Priority = 5 }, "host-wide"},
		{"ets sum", func(f *model.Fabric, _ *model.Host) { f.QoS.Classes[1].ETS.BandwidthPercent = 40 }, "[Default]) has ETS bandwidth 50%"},
		{"strict default", func(f *model.Fabric, _ *model.Host) { f.QoS.Classes[0].ETS = model.ETS{Mode: model.ETSStrict} }, "is strict"},
		{"nic ets differs", func(_ *model.Fabric, h *model.Host) { h.NICs[0].RoCE.ETS[3].BandwidthPercent = 40 }, "must follow the classes"},
		{"roce mode", func(_ *model.Fabric, h *model.Host) { h.NICs[0].RoCE.Mode = "v3" }, `RoCE mode "v3"`},
		{"app conflict", func(_ *model.Fabric, h *model.Host) { h.NICs[1].Applications[0].Port = 446 }, `application "smb-direct" has port 445`},
		{"no interface", func(_ *model.Fabric, h *model.Host) { h.NICs[0].Interface = "" }, "no interface name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fixture(fcNode1())
			tt.edit(f, &f.Hosts[0])
			_, err := Render(f, &f.Hosts[0])
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want one containing %q", err, tt.want)
			}
		})
	}
	if _, err := Render(nil, nil); err == nil {
		t.Error("Render(nil, nil) gave no error")
	}
}

// TestQuoting checks that adapter names with a single quote stay one
// PowerShell string.
func TestQuoting(t *testing.T) {
	h := workstation()
	h.NICs[0].Interface = "Bob's NIC"
	s := render(t, h)
	assertLines(t, s, []string{"Enable-NetAdapterRdma -Name 'Bob''s NIC' -NoRestart"})
}

// TestTuning checks the power plan step appears only with tuning on.
func TestTuning(t *testing.T) {
	h := fcNode1()
	assertAbsent(t, render(t, h), []string{"powercfg"})
	h.Tuning = true
	assertLines(t, render(t, h), []string{"powercfg /setactive 8c5e7fda-e8bf-4a96-9a85-a6e23a8c635c"})
}

// TestGlobalPauseOffBeforePFC checks that each adapter with PFC priorities
// gets *FlowControl 0 (global pause off, WinOF-2 User Manual 1.21
// §3.1.5.1 and §3.4.5.1), compared under -Check and set before
// Enable-NetQosFlowControl, and that a host without PFC keeps its pause.
func TestGlobalPauseOffBeforePFC(t *testing.T) {
	s := render(t, fcNode1())
	assertLines(t, s, []string{
		"# ---- priority flow control ----",
		"if ($Present['SLOT 4 Port 1']) {",
		"if ((Compare-State 'SLOT 4 Port 1' '*FlowControl' '0' (Get-Keyword 'SLOT 4 Port 1' '*FlowControl')) -and -not $Check) {",
		"if ($PSCmdlet.ShouldProcess('SLOT 4 Port 1', 'set *FlowControl to 0')) {",
		"Set-Keyword 'SLOT 4 Port 1' '*FlowControl' '0'",
		"if ($Present['SLOT 4 Port 2']) {",
		"Set-Keyword 'SLOT 4 Port 2' '*FlowControl' '0'",
		"Enable-NetQosFlowControl -Priority 3",
	})

	h := workstation()
	h.NICs[0].Interface = "Bob's NIC"
	assertLines(t, render(t, h), []string{
		"if ($Present['Bob''s NIC']) {",
		"Set-Keyword 'Bob''s NIC' '*FlowControl' '0'",
		"Enable-NetQosFlowControl -Priority 3",
	})

	noPFC := workstation()
	noPFC.NICs[0].RoCE.PFCPriorities = nil
	s = render(t, noPFC)
	assertAbsent(t, s, []string{"*FlowControl"})
	assertLines(t, s, []string{"Disable-NetQosFlowControl -Priority 0,1,2,3,4,5,6,7"})
}

// TestRestartsOneAtATime checks that no advanced-property cmdlet restarts
// the adapter on its own (-NoRestart, Set-/New-NetAdapterAdvancedProperty,
// Enable-NetAdapterQos and Enable-NetAdapterRdma documentation), that every step that sets one queues its adapter
// inside its ShouldProcess block (so -Check and -WhatIf queue nothing),
// and that the script restarts the queued adapters at the end one at a
// time, each waited for Up with RDMA before the next, stopping at one that
// does not come back, never under -Check, and not at all under -NoRestart.
// The one other restart is the IP MTU repair's after that
// (writeIpMtuRepair): *JumboPacket set to the MTU when NlMtu shows the
// driver counted the frame without the header, which must take effect
// before NlMtu is read again.
func TestRestartsOneAtATime(t *testing.T) {
	for _, h := range []model.Host{fcNode1(), workstation(), qlogicHost()} {
		t.Run(h.Name, func(t *testing.T) {
			s := render(t, h)
			ls := lines(s)
			restarts, repairs, end := 0, 0, slices.Index(ls, "# ---- end ----")
			for i, l := range ls {
				if strings.HasPrefix(l, "#") {
					continue
				}
				restarting := strings.Contains(l, "NetAdapterAdvancedProperty -Name") && (strings.HasPrefix(l, "Set-") || strings.HasPrefix(l, "New-")) ||
					strings.HasPrefix(l, "Enable-NetAdapterQos ") || strings.HasPrefix(l, "Enable-NetAdapterRdma ")
				if restarting && !strings.Contains(l, " -NoRestart") {
					t.Errorf("line %d restarts the adapter on its own: %q", i+1, l)
				}
				repair := end > 0 && i > end && strings.HasPrefix(l, "Set-Keyword '") && strings.Contains(l, "' '*JumboPacket' '")
				if repair {
					adapter := l[len("Set-Keyword "):strings.Index(l, " '*JumboPacket'")]
					if next := ls[i+1]; next != "Restart-AdapterAndWait "+adapter+" | Out-Null" {
						t.Errorf("line %d: the IP MTU repair sets *JumboPacket without restarting %s: %q", i+1, adapter, next)
					}
					repairs++
					continue
				}
				if strings.HasPrefix(l, "Set-Keyword '") || strings.HasPrefix(l, "Set-NetAdapterAdvancedProperty -Name '") ||
					strings.HasPrefix(l, "Enable-NetAdapterQos -Name '") || strings.HasPrefix(l, "Enable-NetAdapterRdma -Name '") {
					if next := ls[i+1]; !strings.HasPrefix(next, "$script:Restart += @(") {
						t.Errorf("line %d sets a property without queueing the restart: %q, then %q", i+1, l, next)
					}
				}
				if strings.HasPrefix(l, "$script:Restart += ") && !strings.HasPrefix(ls[i-2], "if ($PSCmdlet.ShouldProcess(") {
					t.Errorf("line %d queues a restart outside a change: %q", i+1, l)
				}
				if strings.Contains(l, "Restart-NetAdapter -Name") {
					restarts++
				}
			}
			if restarts != 1 || repairs != len(h.NICs) {
				t.Errorf("script has %d Restart-NetAdapter commands and %d IP MTU repairs, want 1 (in Restart-AdapterAndWait) and one repair per adapter (%d)", restarts, repairs, len(h.NICs))
			}
			assertLines(t, s, []string{
				"New-NetAdapterAdvancedProperty -Name $Adapter -RegistryKeyword $Keyword -RegistryValue $Value -RegistryDataType REG_SZ -NoRestart | Out-Null",
				"Set-NetAdapterAdvancedProperty -Name $Adapter -RegistryKeyword $Keyword -RegistryValue $Value -AllProperties -NoRestart",
				"# ---- end ----",
				"$names = @($script:Restart | Sort-Object -Unique)",
				"$restarted = $true",
				"if ($names.Count -gt 0 -and -not $Check -and $NoRestart) {",
				"Write-Warning (\"fabricc: -NoRestart: the changes take effect when these adapters restart; restart them one at a time, each back Up before the next: {0}\" -f ($names -join ', '))",
				"$script:NotInEffect += $names.Count",
				"$restarted = $false",
				"if ($names.Count -gt 0 -and -not $Check -and -not $NoRestart) {",
				"foreach ($name in $names) {",
				"if ($PSCmdlet.ShouldProcess($name, 'Restart-NetAdapter (advanced properties and driver registry keys take effect on restart)')) {",
				"if (-not (Restart-AdapterAndWait $name)) {",
				"$script:NotInEffect++",
				"$restarted = $false",
				"break",
				"if (-not $Check -and -not $WhatIfPreference -and $restarted) {",
			})
			// The one restart: the adapter, then its wait for Up and RDMA.
			assertLines(t, s, []string{
				"function Restart-AdapterAndWait {",
				"Restart-NetAdapter -Name $Adapter",
				"for ($i = 0; $i -lt 60; $i++) {",
				"$state = Get-NetAdapter -Name $Adapter -ErrorAction SilentlyContinue",
				"if ($state -and \"$($state.Status)\" -eq 'Up') {",
				"$rdma = @(Get-SmbClientNetworkInterface -ErrorAction SilentlyContinue | Where-Object { $_.InterfaceIndex -eq $state.ifIndex -and $_.RdmaCapable })",
				"if ($rdma.Count -gt 0) {",
				"return $true",
				"Start-Sleep -Seconds 1",
				"return $false",
			})
		})
	}
	assertLines(t, render(t, workstation()), []string{
		"Set-Keyword 'Ethernet 3' '*FlowControl' '0'",
		"$script:Restart += @('Ethernet 3')",
		"Set-Keyword 'Ethernet 3' 'VlanID' '0'",
		"$script:Restart += @('Ethernet 3')",
		"Set-Keyword 'Ethernet 3' '*JumboPacket' $frame",
		"$script:Restart += @('Ethernet 3')",
	})
}

// TestCitationsByDriver checks that each adapter's comments cite its own
// driver's manual (WinOF User Manual 5.50 for the homelab workstation's
// ConnectX-3 Pro, WinOF-2 User Manual 1.21 for ConnectX-4, Microsoft's
// keyword pages and the Demartek guide for QLogic), that an untagged WinOF
// adapter with TxUntagPriorityTag 1 is not said to send a priority tag,
// that the WinOF RoCE-mode quote is attributed to §4.1.4.4.4, and that the
// prelude quotes no sentence the manuals lack.
func TestCitationsByDriver(t *testing.T) {
	s := render(t, workstation())
	assertLines(t, s, []string{
		"# Set-Keyword sets an advanced property by registry keyword, creating it",
		"# as a string (REG_SZ) value when the driver has not written it: some keys",
		"# exist only once set (the WinOF DSCP keys \"must be set manually and will",
		"# be added to the miniport registry\", WinOF User Manual 5.50 §4.1.11.7).",
		"# Global pause (802.3x) off before PFC, the manual's first QoS item (\"To Disable Flow Control",
		"# Configuration\", WinOF User Manual 5.50 §4.1.9.2.1); *FlowControl 0 is flow control disabled,",
		"# 3 Rx & Tx enabled (Microsoft \"Enumeration Keywords\").",
		"# \"RoCE mode is configured per-driver and is enforced on all the devices in the",
		"# system\" (WinOF User Manual 5.50 §4.1.4.4.4); roce_mode: MAC based 0, IP based 5,",
		"# over UDP (v2) 2, none 4 (WinOF User Manual 5.50 §4.6.9.2). The manual gives no restart rule",
		"# for roce_mode; the adapters restart at the end, as it asks after its DSCP keys (\"For changes",
		"# to take affect, please restart the network adapter\", WinOF User Manual 5.50 §4.1.11.7.1).",
		"# Untagged: VlanID 0 (\"No Vlan Id is passed\", WinOF User Manual 5.50 §4.6.5); TxUntagPriorityTag 1 below sends",
		"# no 802.1Q tag at all, so peer NIC nas:mlxen0 classifies RoCE by its DSCP.",
		"# *PriorityVLANTag 3 (\"Packet Priority & VLAN Enabled\", WinOF User Manual 5.50 §4.6.6);",
		"# TxUntagPriorityTag 1 below keeps the 802.1p tag off the wire.",
		"Set-Keyword 'Ethernet 3' 'TxUntagPriorityTag' '1'",
		"# Enable QoS (PFC and ETS) on the adapter (WinOF User Manual 5.50 §4.1.9.2.4 step 10).",
		"# as the manual does (WinOF User Manual 5.50 §4.1.9.2.4 step 7). Link-local addresses stay.",
	})
	assertAbsent(t, s, []string{"WinOF-2 User Manual 1.21 §3.4", "priority tag", "should be of string type", "restart the network adapter\" (WinOF User Manual 5.50 §4.1.11.7)."})

	pcp := workstation()
	pcp.NICs[0].RoCE.Trust = model.TrustPCP
	assertLines(t, render(t, pcp), []string{
		"# Untagged: VlanID 0 (\"No Vlan Id is passed\", WinOF User Manual 5.50 §4.6.5); the priority rides in a priority tag (802.1Q, VLAN ID 0).",
		"# *PriorityVLANTag 3 (\"Packet Priority & VLAN Enabled\") so frames carry the 802.1p priority",
		"# PFC acts on (WinOF User Manual 5.50 §4.6.6).",
	})

	s = render(t, fcNode1())
	assertLines(t, s, []string{
		"# Configuration\", WinOF-2 User Manual 1.21 §3.1.5.1); *FlowControl 0 is flow control disabled,",
		"# 3 Rx & Tx enabled (WinOF-2 User Manual 1.21 §3.4.5.1).",
		"# The *JumboPacket note of WinOF-2 User Manual 1.21 §3.4.2 reads the other way (\"Mellanox adapters",
		"# PFC acts on (WinOF-2 User Manual 1.21 §3.4.5).",
		"# Enable QoS (PFC and ETS) on the adapter (WinOF-2 User Manual 1.21 §3.1.5.1 step 10).",
	})
	assertAbsent(t, s, []string{"WinOF User Manual 5.50 §4.6."})
	untagged := fcNode1()
	untagged.NICs[0].VLAN = 0
	assertLines(t, render(t, untagged), []string{
		"# Untagged: VlanID 0 (\"No Vlan Id is passed\", WinOF-2 User Manual 1.21 §3.4.4); the priority rides in a priority tag (802.1Q, VLAN ID 0).",
	})

	s = render(t, qlogicHost())
	assertLines(t, s, []string{
		"# 3 Rx & Tx enabled (Microsoft \"Enumeration Keywords\").",
		"# \"Keywords That Can Be Edited\"; \"Jumbo Packet 1514\", Demartek RoCE Deployment Guide, QLogic adapter settings).",
		"# PFC acts on (Microsoft \"Enumeration Keywords\").",
	})
	assertAbsent(t, s, []string{"*JumboPacket note of", "§3.4.", "§4.6."})
}
