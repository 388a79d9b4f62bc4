package windows

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// withCluster returns a fabric holding h with a lossy "cluster" class on
// priority 7 (its own traffic class, ETS 2 %, DSCP 56-63, mark 56) taken
// from the default class, as Microsoft's S2D guidance has it, and h
// naming it as its failover cluster's class.
func withCluster(h model.Host) (*model.Fabric, *model.Host) {
	f := fixture(h)
	def := &f.QoS.Classes[0]
	def.Priorities, def.ETS.BandwidthPercent = []int{0, 1, 2, 4, 5}, 48
	def.DSCP = slicesWithout(def.DSCP, 56, 63)
	f.QoS.Classes = append(f.QoS.Classes, model.Class{Name: "cluster", Priority: 7, Priorities: []int{7}, TrafficClass: 7,
		DSCP: []int{56, 57, 58, 59, 60, 61, 62, 63}, MarkDSCP: 56, ETS: model.ETS{Mode: model.ETSWRR, BandwidthPercent: 2}})
	f.QoS.PriorityToTC[7] = 7
	hh := &f.Hosts[0]
	for i := range hh.NICs {
		ets := append([]model.ETS(nil), hh.NICs[i].RoCE.ETS...)
		ets[0].BandwidthPercent, ets[7].BandwidthPercent = 48, 2
		hh.NICs[i].RoCE.ETS = ets
	}
	hh.Cluster = &model.ClusterTraffic{Class: "cluster", Priority: 7, MarkDSCP: 56}
	return f, hh
}

// slicesWithout returns xs without the values lo..hi.
func slicesWithout(xs []int, lo, hi int) []int {
	var out []int
	for _, x := range xs {
		if x < lo || x > hi {
			out = append(out, x)
		}
	}
	return out
}

// renderFabric renders host h of f and returns the script text.
func renderFabric(t *testing.T, f *model.Fabric, h *model.Host) string {
	t.Helper()
	files, err := Render(f, h)
	if err != nil {
		t.Fatalf("Render(%s): %v", h.Name, err)
	}
	return string(files[0].Data)
}

// withTrust sets the trust of every NIC of h.
func withTrust(h model.Host, trust model.Trust) model.Host {
	for i := range h.NICs {
		h.NICs[i].RoCE.Trust = trust
	}
	return h
}

// TestClusterPolicy checks the Cluster policy of a host that names its
// failover cluster's class: New-NetQosPolicy -Cluster on the class's
// priority, with the class's DSCP mark where the switch ports trust DSCP
// (and not where they trust PCP), compared by -Check property by
// property, and the class's own ETS traffic class beside it.
func TestClusterPolicy(t *testing.T) {
	for _, tc := range []struct {
		name  string
		trust model.Trust
		want  []string
	}{
		{"DSCP trust", model.TrustDSCP, []string{
			"$ours = @('SMB', 'Cluster', 'DEFAULT', 'TCP', 'UDP')",
			"# the failover cluster's own traffic (-Cluster: its heartbeats, port 3343) goes to the lossy class \"cluster\", priority 7, whose ETS share keeps heartbeats from being starved by storage traffic and which PFC never pauses (Microsoft, \"Host network requirements for Azure Stack HCI\", Cluster traffic class: PFC enabled No, priority 7, 1-2 % of the bandwidth). Switch port sn2410:1/1 and switch port sn2410:1/2 trust DSCP, so it is also marked DSCP 56, the class's mark.",
			"$policy = Get-NetQosPolicy -Name 'Cluster' -ErrorAction SilentlyContinue",
			"if ((Compare-Policy 'QoS policy Cluster' $policy ([ordered]@{ TemplateMatchCondition = 'Cluster'; PriorityValue8021Action = '7'; DSCPAction = '56' })) -and -not $Check) {",
			"if ($PSCmdlet.ShouldProcess('QoS policy Cluster', 'New-NetQosPolicy -Cluster -PriorityValue8021Action 7 -DSCPAction 56')) {",
			"if ($policy) { Remove-NetQosPolicy -Name 'Cluster' -Confirm:$false }",
			"New-NetQosPolicy -Name 'Cluster' -Cluster -PriorityValue8021Action 7 -DSCPAction 56 | Out-Null",
			"Enable-NetQosFlowControl -Priority 3",
			"Disable-NetQosFlowControl -Priority 0,1,2,4,5,6,7",
			"$ours = @('[Default]', 'roce', 'cnp', 'cluster')",
			"New-NetQosTrafficClass -Name 'cluster' -Priority 7 -Algorithm ETS -BandwidthPercentage 2 | Out-Null",
			"Compare-Properties 'traffic class [Default]' $class ([ordered]@{ Algorithm = 'ETS'; BandwidthPercentage = '48'; Priority = '0,1,2,4,5' }) | Out-Null",
		}},
		{"PCP trust", model.TrustPCP, []string{
			"$ours = @('SMB', 'Cluster', 'DEFAULT', 'TCP', 'UDP')",
			"# the failover cluster's own traffic (-Cluster: its heartbeats, port 3343) goes to the lossy class \"cluster\", priority 7, whose ETS share keeps heartbeats from being starved by storage traffic and which PFC never pauses (Microsoft, \"Host network requirements for Azure Stack HCI\", Cluster traffic class: PFC enabled No, priority 7, 1-2 % of the bandwidth).",
			"if ((Compare-Policy 'QoS policy Cluster' $policy ([ordered]@{ TemplateMatchCondition = 'Cluster'; PriorityValue8021Action = '7' })) -and -not $Check) {",
			"New-NetQosPolicy -Name 'Cluster' -Cluster -PriorityValue8021Action 7 | Out-Null",
			"New-NetQosTrafficClass -Name 'cluster' -Priority 7 -Algorithm ETS -BandwidthPercentage 2 | Out-Null",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, h := withCluster(withTrust(fcNode1(), tc.trust))
			s := renderFabric(t, f, h)
			assertLines(t, s, tc.want)
			if tc.trust == model.TrustPCP {
				assertAbsent(t, s, []string{"-DSCPAction"})
			}
			for _, p := range checkScript(s) {
				t.Error(p)
			}
		})
	}
}

// TestClusterCheckDifference runs -Check's comparison of the Cluster
// policy (Compare-Policy, read as the script reads Get-NetQosPolicy) on a
// host whose administrator made it on priority 5 without a DSCP mark: the
// priority and the DSCP are reported, the template is not; and a missing
// policy is reported as absent.
func TestClusterCheckDifference(t *testing.T) {
	f, h := withCluster(fcNode1())
	s := renderFabric(t, f, h)
	keys, defaults := policyDefaults(t, s)
	var intended map[string]string
	const prefix = "if ((Compare-Policy 'QoS policy Cluster' $policy ([ordered]@{ "
	for _, l := range lines(s) {
		if strings.HasPrefix(l, prefix) {
			_, intended = orderedPairs(strings.TrimPrefix(l, prefix))
		}
	}
	if intended == nil {
		t.Fatal("no Compare-Policy line for the Cluster policy")
	}
	if d := comparePolicy(keys, defaults, intended, newPolicyState(t, "New-NetQosPolicy -Name 'Cluster' -Cluster -PriorityValue8021Action 7 -DSCPAction 56", defaults)); len(d) != 0 {
		t.Errorf("the policy as the script makes it: DIFF %v, want none", d)
	}
	actual := newPolicyState(t, "New-NetQosPolicy -Name 'Cluster' -Cluster -PriorityValue8021Action 5", defaults)
	got := comparePolicy(keys, defaults, intended, actual)
	want := []string{"PriorityValue8021Action: intended 7, actual 5", "DSCPAction: intended 56, actual none"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("differences:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	assertLines(t, s, []string{
		"function Compare-Policy {",
		"if ($null -eq $Policy) {",
		"return (Compare-State $Target 'presence' 'present' 'absent')",
	})
}

// TestForeignClusterPolicy checks the rule for a -Cluster policy the
// model does not name, both ways: with a cluster class it is foreign like
// any other policy (two Cluster-template policies would both claim the
// heartbeats), so neither store keeps it and no note is printed; without
// one it is kept with the note, as before.
func TestForeignClusterPolicy(t *testing.T) {
	f, h := withCluster(fcNode1())
	with := renderFabric(t, f, h)
	assertLines(t, with, []string{
		"$localNames = @(Get-NetQosPolicy | ForEach-Object { $_.Name })",
		"foreach ($stale in @(Get-NetQosPolicy | Where-Object { $ours -notcontains $_.Name -and \"$($_.Owner)\" -notlike 'Group Policy*' })) {",
		"$stale | Remove-NetQosPolicy -Confirm:$false",
		"foreach ($stale in @(Get-NetQosPolicy -PolicyStore ActiveStore | Where-Object { $ours -notcontains $_.Name })) {",
	})
	assertAbsent(t, with, []string{"Test-KeptClusterPolicy $_", "$lossless = @(", "fabricc: kept QoS policy"})

	without := render(t, fcNode1())
	assertLines(t, without, []string{
		"$lossless = @(3)",
		"foreach ($stale in @(Get-NetQosPolicy | Where-Object { $ours -notcontains $_.Name -and \"$($_.Owner)\" -notlike 'Group Policy*' -and -not (Test-KeptClusterPolicy $_ $lossless) })) {",
		"foreach ($kept in @(Get-NetQosPolicy -PolicyStore ActiveStore | Where-Object { $ours -notcontains $_.Name -and (Test-KeptClusterPolicy $_ $lossless) })) {",
		"foreach ($stale in @(Get-NetQosPolicy -PolicyStore ActiveStore | Where-Object { $ours -notcontains $_.Name -and -not (Test-KeptClusterPolicy $_ $lossless) })) {",
	})
	assertAbsent(t, without, []string{"-Name 'Cluster'", "-Cluster -PriorityValue8021Action"})
}

// TestClusterClassRefused checks that Render refuses a cluster class the
// compiler would have refused, for a model that reaches it without the
// compiler: on the RoCE priority, on a PFC priority, or out of range.
func TestClusterClassRefused(t *testing.T) {
	for _, tc := range []struct {
		name     string
		priority int
		dscp     int
		want     string
	}{
		{"RoCE priority", 3, 56, `cluster class "cluster" is on priority 3, which is the RoCE priority or has PFC on this host; a heartbeat must ride a lossy priority (Microsoft, "Host network requirements for Azure Stack HCI", Cluster traffic class: PFC enabled: No)`},
		{"priority 8", 8, 56, `cluster class "cluster" uses priority 8; 802.1p priorities are 0-7`},
		{"DSCP 64", 7, 64, `cluster class "cluster" marks DSCP 64; DSCP values are 0-63`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, h := withCluster(fcNode1())
			h.Cluster.Priority, h.Cluster.MarkDSCP = tc.priority, tc.dscp
			_, err := Render(f, h)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Render error = %v, want it to hold %q", err, tc.want)
			}
		})
	}
	f, h := withCluster(fcNode1())
	h.Cluster.Priority = 5
	h.NICs[0].RoCE.PFCPriorities = []int{3, 5}
	h.NICs[1].RoCE.PFCPriorities = []int{3, 5}
	if _, err := Render(f, h); err == nil || !strings.Contains(err.Error(), "is on priority 5, which is the RoCE priority or has PFC on this host") {
		t.Errorf("Render error = %v, want the PFC priority refused", err)
	}
}
