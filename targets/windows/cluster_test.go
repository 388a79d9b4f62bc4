package windows

import (
	"strings"
	"testing"
)

// TestHyperVStops checks that a model adapter that is a Hyper-V host vNIC
// or a member of a Hyper-V switch (SET) stops the script, -Check too,
// before any change, with what to do instead; and that Set-Keyword never
// creates a standardized keyword or VlanID an adapter lacks (a vNIC's
// VlanID would be ignored while -Check read it back as a match).
func TestHyperVStops(t *testing.T) {
	s := render(t, fcNode1())
	assertLines(t, s, []string{
		"$hyperV = @()",
		"$teamed = @()",
		"if (Get-Command -Name Get-VMSwitch -ErrorAction SilentlyContinue) {",
		"foreach ($vmSwitch in @(Get-VMSwitch -ErrorAction SilentlyContinue)) {",
		"$teamed += @($vmSwitch.NetAdapterInterfaceDescriptions) + @($vmSwitch.NetAdapterInterfaceDescription) | Where-Object { $_ }",
		"foreach ($name in @('SLOT 4 Port 1', 'SLOT 4 Port 2')) {",
		"if ($Present[$name]) {",
		"$description = \"$((Get-NetAdapter -Name $name).InterfaceDescription)\"",
		"if ($description -like 'Hyper-V Virtual Ethernet Adapter*') {",
		"$hyperV += (\"adapter '{0}' is a Hyper-V host vNIC ({1})\" -f $name, $description)",
		"if ($teamed -contains $description) {",
		"$hyperV += (\"adapter '{0}' ({1}) is bound to a Hyper-V switch\" -f $name, $description)",
		"if ($hyperV.Count -gt 0) {",
		"throw (\"fabricc: {0}. fabricc does not configure Hyper-V (SET) hosts: their RDMA vNICs, VLANs (Set-VMNetworkAdapterIsolation) and team mapping (Set-VMNetworkAdapterTeamMapping) are Hyper-V's, see Microsoft's 'Remote Direct Memory Access (RDMA) and Switch Embedded Teaming (SET)'. Configure this host that way (or with Network ATC), or describe RDMA adapters that no Hyper-V switch uses.\" -f ($hyperV -join '; '))",
		// Before the first change.
		"# ---- Data Center Bridging feature ----",
	})
	assertLines(t, s, []string{
		"function Set-Keyword {",
		"if ((Get-Keyword $Adapter $Keyword) -eq 'absent') {",
		"if ($Keyword -like '[*]*' -or $Keyword -eq 'VlanID') {",
		"throw (\"fabricc: adapter '{0}' has no {1} advanced property, which a physical Ethernet adapter's driver has; it is another kind of adapter (a Hyper-V or team adapter?). Describe the physical RDMA adapter in the fabric.\" -f $Adapter, $Keyword)",
		"New-NetAdapterAdvancedProperty -Name $Adapter -RegistryKeyword $Keyword -RegistryValue $Value -RegistryDataType REG_SZ -NoRestart | Out-Null",
	})
	// A team member has no IP interface: reading its DHCP state is a
	// difference, not an exception.
	assertLines(t, s, []string{
		"if ((Compare-State 'SLOT 4 Port 1' 'IPv4 DHCP' 'Disabled' (Format-Value (Get-NetIPInterface -InterfaceAlias 'SLOT 4 Port 1' -AddressFamily IPv4 -ErrorAction SilentlyContinue).Dhcp)) -and -not $Check) {",
	})
}

// TestLBFOStops checks that a model adapter that is an LBFO team member
// (Get-NetLbfoTeamMember's Name) or team interface (Get-NetLbfoTeamNic's
// Name) stops the script, -Check too, before any change, naming the team
// and saying that LBFO teams carry no RDMA (Microsoft, "Remote Direct
// Memory Access (RDMA) and Switch Embedded Teaming (SET)").
func TestLBFOStops(t *testing.T) {
	s := render(t, fcNode1())
	assertLines(t, s, []string{
		"$lbfo = @()",
		"if (Get-Command -Name Get-NetLbfoTeamMember -ErrorAction SilentlyContinue) {",
		"$lbfoMembers = @(Get-NetLbfoTeamMember -ErrorAction SilentlyContinue)",
		"$lbfoNics = @(Get-NetLbfoTeamNic -ErrorAction SilentlyContinue)",
		"foreach ($name in @('SLOT 4 Port 1', 'SLOT 4 Port 2')) {",
		"foreach ($member in @($lbfoMembers | Where-Object { $_.Name -eq $name })) {",
		"$lbfo += (\"adapter '{0}' is a member of LBFO team '{1}'\" -f $name, $member.Team)",
		"foreach ($teamNic in @($lbfoNics | Where-Object { $_.Name -eq $name })) {",
		"$lbfo += (\"adapter '{0}' is the team interface of LBFO team '{1}'\" -f $name, $teamNic.Team)",
		"if ($lbfo.Count -gt 0) {",
		"throw (\"fabricc: {0}. LBFO teams do not carry RDMA: it cannot be configured on adapters bound to a NIC team (Microsoft, 'Remote Direct Memory Access (RDMA) and Switch Embedded Teaming (SET)'), and fabricc does not configure teams. Describe RDMA adapters that no team uses, or use SET with RDMA vNICs (which fabricc does not configure).\" -f ($lbfo -join '; '))",
		// Before the first change.
		"# ---- Data Center Bridging feature ----",
		"Enable-NetAdapterRdma -Name 'SLOT 4 Port 1' -NoRestart",
	})
}

// TestNetworkATCRefused checks that an apply run on a node whose adapters
// a Network ATC intent manages stops before any change unless
// -IgnoreNetworkATC, naming ATC's override with the model's SMB priority
// and its class's bandwidth; -Check only warns.
func TestNetworkATCRefused(t *testing.T) {
	s := render(t, fcNode1())
	assertLines(t, s, []string{
		"[switch]$IgnoreNetworkATC",
		"$intents = @()",
		"if (Get-Command -Name Get-NetIntent -ErrorAction SilentlyContinue) {",
		"$found = @()",
		"try {",
		"$found += @(Get-NetIntent -ErrorAction SilentlyContinue)",
		"catch {",
		"try {",
		"$found += @(Get-NetIntent -ClusterName 'localhost' -ErrorAction SilentlyContinue)",
		"catch {",
		"foreach ($intent in $found) {",
		"if (@($intent.NetAdapterNamesAsList | Where-Object { @('SLOT 4 Port 1', 'SLOT 4 Port 2') -contains $_ }).Count -gt 0) {",
		"$intents += \"$($intent.IntentName)\"",
		"if ($intents.Count -gt 0) {",
		"$atc = (\"fabricc: Network ATC intent(s) {0} manage these adapters and put their own QoS back. Change ATC's values with its overrides instead: Set-NetIntent -Name <intent> -QosPolicyOverride (New-NetIntentQoSPolicyOverrides -PriorityValue8021Action_SMB 3 -BandwidthPercentage_SMB 50)\" -f ($intents -join ', '))",
		"if ($Check -or $IgnoreNetworkATC) {",
		"Write-Warning $atc",
		"} else {",
		"throw ($atc + ' (or run with -IgnoreNetworkATC to apply the model anyway).')",
		"# ---- Data Center Bridging feature ----",
	})

	// The override follows the model: RoCE class 70 %, [Default] 30 %.
	f := fixture(fcNode1())
	f.QoS.Classes[0].ETS.BandwidthPercent = 30
	f.QoS.Classes[1].ETS.BandwidthPercent = 70
	for i := range f.Hosts[0].NICs {
		f.Hosts[0].NICs[i].RoCE.ETS = nil
	}
	files, err := Render(f, &f.Hosts[0])
	if err != nil {
		t.Fatal(err)
	}
	s = string(files[0].Data)
	if !strings.Contains(s, "(New-NetIntentQoSPolicyOverrides -PriorityValue8021Action_SMB 3 -BandwidthPercentage_SMB 70)") {
		t.Error("the ATC override does not carry the RoCE class's 70 %")
	}
	assertLines(t, s, []string{"Compare-AdapterQos 'SLOT 4 Port 1' '3' ([ordered]@{ '0' = '30'; '3' = '70' }) | Out-Null"})
}

// TestEffectivePolicies checks that the policies -Check compares include
// the effective ones (ActiveStore): one only there is removed from there,
// by its name with wildcards escaped; one Group Policy sets is a difference
// with its fix, never removed, and leaves an apply run not in effect.
func TestEffectivePolicies(t *testing.T) {
	s := render(t, fcNode1())
	assertLines(t, s, []string{
		"$localNames = @(Get-NetQosPolicy | ForEach-Object { $_.Name })",
		"$lossless = @(3)",
		"foreach ($stale in @(Get-NetQosPolicy | Where-Object { $ours -notcontains $_.Name -and \"$($_.Owner)\" -notlike 'Group Policy*' -and -not (Test-KeptClusterPolicy $_ $lossless) })) {",
		"$stale | Remove-NetQosPolicy -Confirm:$false",
		"foreach ($stale in @(Get-NetQosPolicy -PolicyStore ActiveStore | Where-Object { $ours -notcontains $_.Name -and -not (Test-KeptClusterPolicy $_ $lossless) })) {",
		"$label = 'QoS policy ' + $stale.Name",
		"if (\"$($stale.Owner)\" -like 'Group Policy*') {",
		"Compare-State $label ('presence (owner ' + $stale.Owner + ')') 'absent' 'present' | Out-Null",
		"Write-Host '  fix: Group Policy sets it; remove it from the Group Policy object (policy-based QoS), or it comes back.'",
		"if (-not $Check) {",
		"$script:NotInEffect++",
		"} else {",
		"if ($localNames -notcontains $stale.Name) {",
		"if ((Compare-State $label 'presence (ActiveStore)' 'absent' 'present') -and -not $Check) {",
		"if ($PSCmdlet.ShouldProcess($label, 'Remove-NetQosPolicy -PolicyStore ActiveStore (not in the model)')) {",
		"Remove-NetQosPolicy -Name ([Management.Automation.WildcardPattern]::Escape($stale.Name)) -PolicyStore ActiveStore -Confirm:$false",
		// Our own policies come after.
		"$policy = Get-NetQosPolicy -Name 'SMB' -ErrorAction SilentlyContinue",
	})
}

// TestOperationalQos checks that -Check compares what each adapter runs
// (Get-NetAdapterQos OperationalSettings), not only the host's settings:
// PFC per priority and the bandwidth of each priority's traffic class.
func TestOperationalQos(t *testing.T) {
	s := render(t, fcNode1())
	assertLines(t, s, []string{
		"function Compare-AdapterQos {",
		"$qos = Get-NetAdapterQos -Name $Adapter -ErrorAction SilentlyContinue",
		"$ops = $qos.OperationalSettings",
		"if ($ops.PriorityFlowControlEnableArray[$p]) {",
		"$differs = Compare-State $Adapter 'operational PFC priorities (Get-NetAdapterQos)' $Pfc $actual",
		"$tc = $ops.PriorityAssignmentTable[[int]$p]",
		"$bw = Format-Value $ops.BandwidthAssignmentTable[[int]$tc]",
		"if (Compare-State $Adapter ('operational bandwidth of priority ' + $p + ' (Get-NetAdapterQos)') $Bandwidth[$p] $bw) {",
	})
	for _, name := range []string{"SLOT 4 Port 1", "SLOT 4 Port 2"} {
		assertLines(t, s, []string{
			"Enable-NetAdapterQos -Name '" + name + "' -NoRestart",
			"if ($Check) {",
			"Compare-AdapterQos '" + name + "' '3' ([ordered]@{ '0' = '50'; '3' = '50' }) | Out-Null",
			"Enable-NetAdapterRdma -Name '" + name + "' -NoRestart",
		})
	}
	noPFC := workstation()
	noPFC.NICs[0].RoCE.PFCPriorities = nil
	assertLines(t, render(t, noPFC), []string{"Compare-AdapterQos 'Ethernet 3' 'none' ([ordered]@{ '0' = '50'; '3' = '50' }) | Out-Null"})
}

// TestExitStatus checks the exit codes the header documents: a trap turns
// any terminating error into exit 2, an apply run with a change not in
// effect (an IP MTU not reached, -NoRestart) exits 3.
func TestExitStatus(t *testing.T) {
	s := render(t, workstation())
	assertLines(t, s, []string{
		"# apply anyway). Exit status: 0 done or matching, 1 -Check found differences,",
		"# 2 stopped on an error or refused the host, 3 applied with a change not in effect.",
		"[switch]$NoRestart,",
		"$ErrorActionPreference = 'Stop'",
		"$script:NotInEffect = 0",
		"trap {",
		"Write-Host ('fabricc: error: {0}' -f $_)",
		"exit 2",
		"# ---- end ----",
		"$script:NotInEffect++",
		"exit 1",
		"if ($script:NotInEffect -gt 0) {",
		"Write-Host (\"fabricc: done, {0} change(s), {1} not in effect\" -f $script:Differences, $script:NotInEffect)",
		"exit 3",
		"Write-Host (\"fabricc: done, {0} change(s)\" -f $script:Differences)",
		"exit 0",
	})
}

// TestClusterPolicyKept checks that the failover cluster's policy
// (New-NetQosPolicy -Cluster), which the model cannot express, is kept
// with a note rather than removed, unless its priority is lossless here.
func TestClusterPolicyKept(t *testing.T) {
	s := render(t, fcNode1())
	assertLines(t, s, []string{
		"function Test-KeptClusterPolicy {",
		"param($Policy, [int[]]$Lossless)",
		"if ((Get-PolicyValue $Policy 'TemplateMatchCondition') -ne 'Cluster') {",
		"return $false",
		"$priority = Get-PolicyValue $Policy 'PriorityValue8021Action'",
		"return ($priority -eq 'none' -or $Lossless -notcontains [int]$priority)",
		"$lossless = @(3)",
		"foreach ($stale in @(Get-NetQosPolicy | Where-Object { $ours -notcontains $_.Name -and \"$($_.Owner)\" -notlike 'Group Policy*' -and -not (Test-KeptClusterPolicy $_ $lossless) })) {",
		"foreach ($kept in @(Get-NetQosPolicy -PolicyStore ActiveStore | Where-Object { $ours -notcontains $_.Name -and (Test-KeptClusterPolicy $_ $lossless) })) {",
		"Write-Host (\"fabricc: kept QoS policy '{0}', the failover cluster's (-Cluster), priority {1}: not lossless here, and the model names no cluster class (host cluster_class); a traffic class of its own is removed like any the model lacks, so that priority shares [Default] unless a model class holds it.\" -f $kept.Name, (Get-PolicyValue $kept 'PriorityValue8021Action'))",
		"foreach ($stale in @(Get-NetQosPolicy -PolicyStore ActiveStore | Where-Object { $ours -notcontains $_.Name -and -not (Test-KeptClusterPolicy $_ $lossless) })) {",
	})
	noPFC := workstation()
	noPFC.NICs[0].RoCE.PFCPriorities = nil
	assertLines(t, render(t, noPFC), []string{"$lossless = @()"})
}

// TestSmbRdmaChecked checks that -Check asks the SMB client whether it
// can use RDMA on each SMB Direct adapter, not only whether RDMA is on.
func TestSmbRdmaChecked(t *testing.T) {
	s := render(t, fcNode1())
	for _, name := range []string{"SLOT 4 Port 1", "SLOT 4 Port 2"} {
		assertLines(t, s, []string{
			"Enable-NetAdapterRdma -Name '" + name + "' -NoRestart",
			"if ($Check -and (Get-Command -Name Get-SmbClientNetworkInterface -ErrorAction SilentlyContinue)) {",
			"$index = (Get-NetAdapter -Name '" + name + "').ifIndex",
			"$smbRdma = Format-Value (@(Get-SmbClientNetworkInterface | Where-Object { $_.InterfaceIndex -eq $index }) | ForEach-Object { $_.RdmaCapable })",
			"Compare-State '" + name + "' 'SMB client RDMA capable (Get-SmbClientNetworkInterface)' 'True' $smbRdma | Out-Null",
		})
	}
	noSMB := workstation()
	noSMB.NICs[0].Applications = nil
	assertAbsent(t, render(t, noSMB), []string{"SMB client RDMA capable"})
}

// TestPerAdapterDCBX checks that the host-wide Willing is read from the
// entries that name no interface, and that where the DcbQos cmdlets take
// -InterfaceAlias each model adapter's own Willing is compared and set.
func TestPerAdapterDCBX(t *testing.T) {
	assertLines(t, render(t, fcNode1()), []string{
		"$dcbx = @(Get-NetQosDcbxSetting)",
		"$hostWide = @($dcbx | Where-Object { -not \"$($_.InterfaceAlias)\" })",
		"if ($hostWide.Count -eq 0) {",
		"$hostWide = $dcbx",
		"$willing = Format-Value ($hostWide | ForEach-Object { $_.Willing } | Sort-Object -Unique)",
		"Set-NetQosDcbxSetting -Willing $false -Confirm:$false",
		"if ((Get-Command -Name Set-NetQosDcbxSetting).Parameters.ContainsKey('InterfaceAlias')) {",
		"foreach ($name in @('SLOT 4 Port 1', 'SLOT 4 Port 2')) {",
		"if ($Present[$name]) {",
		"$willing = Format-Value (Get-NetQosDcbxSetting -InterfaceAlias $name -ErrorAction SilentlyContinue | ForEach-Object { $_.Willing } | Sort-Object -Unique)",
		"if ((Compare-State $name 'DCBX Willing (adapter)' 'False' $willing) -and -not $Check) {",
		"if ($PSCmdlet.ShouldProcess($name, 'Set-NetQosDcbxSetting -InterfaceAlias -Willing $false')) {",
		"Set-NetQosDcbxSetting -InterfaceAlias $name -Willing $false -Confirm:$false",
		"# ---- NetQos policies ----",
	})
}
