package windows

import (
	"strconv"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// tcpStorageHost is fc-node1 with one NIC listing iSCSI and NVMe/TCP
// beside SMB Direct, in the NIC's class "roce" (priority 3, DSCP 26).
func tcpStorageHost() model.Host {
	h := fcNode1()
	h.NICs = h.NICs[:1]
	h.NICs[0].Applications = []model.Application{
		{Kind: model.AppISCSI, Port: 3260, Priority: 3}, {Kind: model.AppNVMeTCP, Port: 4420, Priority: 3},
		{Kind: "smb-direct", Port: 445, Priority: 3},
	}
	return h
}

// TestTCPApplicationPolicies checks the policies of the applications over
// TCP: iSCSI by the built-in -iSCSI filter (TCP port 3260) and NVMe/TCP by
// -IPPortMatchCondition 4420 -IPProtocolMatchCondition TCP (New-NetQosPolicy:
// ByISCSI and ByIPWellKnownPort parameter sets), both tagged with the
// NIC's class and marked with its DSCP where the switch ports trust DSCP,
// and what -Check compares: the template alone, or IPProtocol and IPPort,
// as Get-NetQosPolicy shows them (New-NetQosPolicy, Examples 1 and 4).
// NVMe/TCP's discovery controller port, 8009 (IANA nvme-disc, the port
// nvme discover uses by default: libnvme NVME_DISC_IP_PORT), gets a
// policy of its own in the same class.
func TestTCPApplicationPolicies(t *testing.T) {
	s := render(t, tcpStorageHost())
	assertLines(t, s, []string{
		"$ours = @('iSCSI', 'NVMe-TCP', 'NVMe-TCP-Discovery', 'SMB', 'DEFAULT', 'TCP', 'UDP')",
		"# iscsi: TCP on port 3260 goes to the NIC's class \"roce\", priority 3. The policy is more specific than the TCP policy below, and Windows applies the more specific of two policies that match (Microsoft, QoS Policy Frequently Asked Questions). Switch port sn2410:1/1 trusts DSCP, so it is also marked DSCP 26, the class's mark.",
		"if ((Compare-Policy 'QoS policy iSCSI' $policy ([ordered]@{ TemplateMatchCondition = 'iSCSI'; PriorityValue8021Action = '3'; DSCPAction = '26' })) -and -not $Check) {",
		"New-NetQosPolicy -Name 'iSCSI' -iSCSI -PriorityValue8021Action 3 -DSCPAction 26 | Out-Null",
		"if ((Compare-Policy 'QoS policy NVMe-TCP' $policy ([ordered]@{ IPProtocolMatchCondition = 'TCP'; IPPortMatchCondition = '4420'; PriorityValue8021Action = '3'; DSCPAction = '26' })) -and -not $Check) {",
		"New-NetQosPolicy -Name 'NVMe-TCP' -IPPortMatchCondition 4420 -IPProtocolMatchCondition TCP -PriorityValue8021Action 3 -DSCPAction 26 | Out-Null",
		"# nvme-tcp: TCP on port 8009, the NVMe/TCP discovery controller's (IANA nvme-disc; the port nvme discover uses by default, libnvme NVME_DISC_IP_PORT), where hosts find the subsystems of port 4420, goes to the same class \"roce\", priority 3. The policy is more specific than the TCP policy below, and Windows applies the more specific of two policies that match (Microsoft, QoS Policy Frequently Asked Questions). Switch port sn2410:1/1 trusts DSCP, so it is also marked DSCP 26, the class's mark.",
		"if ((Compare-Policy 'QoS policy NVMe-TCP-Discovery' $policy ([ordered]@{ IPProtocolMatchCondition = 'TCP'; IPPortMatchCondition = '8009'; PriorityValue8021Action = '3'; DSCPAction = '26' })) -and -not $Check) {",
		"New-NetQosPolicy -Name 'NVMe-TCP-Discovery' -IPPortMatchCondition 8009 -IPProtocolMatchCondition TCP -PriorityValue8021Action 3 -DSCPAction 26 | Out-Null",
		"New-NetQosPolicy -Name 'SMB' -NetDirectPortMatchCondition 445 -PriorityValue8021Action 3 | Out-Null",
		"# TCP from the IP stack goes to the lossy class \"default\", priority 0 (\"Direct ALL TCP/UDP traffic to a lossy priority\", WinOF User Manual 5.50 §7.4; the Demartek RoCE Deployment Guide uses priority 0). The more specific iSCSI, NVMe-TCP and NVMe-TCP-Discovery policies above keep their ports in their classes. Switch port sn2410:1/1 trusts DSCP, so it is also marked DSCP 0, the class's mark.",
		"New-NetQosPolicy -Name 'TCP' -IPProtocolMatchCondition TCP -PriorityValue8021Action 0 -DSCPAction 0 | Out-Null",
	})
}

// TestTCPApplicationsPCPTrust checks that under PCP trust the storage
// policies tag the priority only, as TCP and UDP do.
func TestTCPApplicationsPCPTrust(t *testing.T) {
	s := render(t, withTrust(tcpStorageHost(), model.TrustPCP))
	assertLines(t, s, []string{
		"New-NetQosPolicy -Name 'iSCSI' -iSCSI -PriorityValue8021Action 3 | Out-Null",
		"New-NetQosPolicy -Name 'NVMe-TCP' -IPPortMatchCondition 4420 -IPProtocolMatchCondition TCP -PriorityValue8021Action 3 | Out-Null",
		"New-NetQosPolicy -Name 'NVMe-TCP-Discovery' -IPPortMatchCondition 8009 -IPProtocolMatchCondition TCP -PriorityValue8021Action 3 | Out-Null",
	})
	assertAbsent(t, s, []string{"-DSCPAction"})
}

// TestTCPStorageKeepsItsPriority reads the policies the script creates and
// picks, for TCP packets, the one Windows applies: among those whose match
// conditions all hold, the most specific ("If multiple policies apply, the
// more specific QoS policy takes precedence", Microsoft, QoS Policy
// Frequently Asked Questions), counting the built-in -iSCSI filter as TCP
// port 3260 (New-NetQosPolicy: "Each of them matches a well-known TCP
// port") and -IPPortMatchCondition as either end's port. TCP to or from
// the storage ports, NVMe/TCP's discovery port 8009 among them, keeps the
// class's priority 3; other TCP goes to the default class's 0, as without
// the applications. Before, discovery rode the default class.
func TestTCPStorageKeepsItsPriority(t *testing.T) {
	pols := createdPolicies(t, render(t, tcpStorageHost()))
	for _, c := range []struct {
		what             string
		srcPort, dstPort int
		want             string
	}{
		{"an initiator's iSCSI", 50000, 3260, "3"},
		{"a target's iSCSI replies", 3260, 50000, "3"},
		{"an initiator's NVMe/TCP", 50001, 4420, "3"},
		{"a target's NVMe/TCP replies", 4420, 50001, "3"},
		{"SSH", 50002, 22, "0"},
		{"NVMe/TCP discovery (8009)", 50003, 8009, "3"},
		{"a discovery controller's replies", 8009, 50003, "3"},
	} {
		if got := tcpPriority(pols, c.srcPort, c.dstPort); got != c.want {
			t.Errorf("%s (TCP %d -> %d) gets priority %s, want %s", c.what, c.srcPort, c.dstPort, got, c.want)
		}
	}
}

// createdPolicies returns the parameters of every New-NetQosPolicy line
// of the script, by policy name.
func createdPolicies(t *testing.T, s string) map[string]map[string]string {
	t.Helper()
	out := map[string]map[string]string{}
	for _, l := range lines(s) {
		f := strings.Fields(strings.TrimSpace(l))
		if len(f) < 3 || f[0] != "New-NetQosPolicy" || f[1] != "-Name" {
			continue
		}
		params := map[string]string{}
		for i := 3; i < len(f) && f[i] != "|"; i++ {
			if i+1 < len(f) && !strings.HasPrefix(f[i+1], "-") && f[i+1] != "|" {
				params[f[i]] = f[i+1]
				i++
				continue
			}
			params[f[i]] = ""
		}
		out[strings.Trim(f[2], "'")] = params
	}
	if len(out) == 0 {
		t.Fatal("the script creates no policy")
	}
	return out
}

// tcpPriority is the PriorityValue8021Action of the most specific policy
// that matches a TCP packet from srcPort to dstPort; "none" when none
// matches. Specificity is the number of conditions: protocol and port
// for a well-known-port filter, protocol alone, none for -Default.
func tcpPriority(pols map[string]map[string]string, srcPort, dstPort int) string {
	best, bestConds := "none", -1
	for _, p := range pols {
		conds, ok := tcpMatch(p, srcPort, dstPort)
		if ok && conds > bestConds {
			best, bestConds = p["-PriorityValue8021Action"], conds
		}
	}
	return best
}

// tcpMatch says whether policy p matches a TCP packet from srcPort to
// dstPort, and with how many conditions. NetworkDirect policies match
// RDMA only, never TCP.
func tcpMatch(p map[string]string, srcPort, dstPort int) (conds int, ok bool) {
	port := func(v string) bool { return v == strconv.Itoa(srcPort) || v == strconv.Itoa(dstPort) }
	switch {
	case has(p, "-NetDirectPortMatchCondition"):
		return 0, false
	case has(p, "-iSCSI"):
		return 2, port("3260")
	case has(p, "-IPPortMatchCondition"):
		return 2, port(p["-IPPortMatchCondition"]) && (p["-IPProtocolMatchCondition"] == "TCP" || p["-IPProtocolMatchCondition"] == "")
	case has(p, "-IPProtocolMatchCondition"):
		return 1, p["-IPProtocolMatchCondition"] == "TCP"
	case has(p, "-Default"):
		return 0, true
	}
	return 0, false
}

// has says whether the policy has parameter k.
func has(p map[string]string, k string) bool {
	_, ok := p[k]
	return ok
}

// TestTCPApplicationTwoDSCPs: NetQos policies are host-wide, so two NICs
// that list iscsi with different DSCPs (a written dscp on one) cannot
// both be marked; Render refuses and says why.
func TestTCPApplicationTwoDSCPs(t *testing.T) {
	h := fcNode1()
	for i := range h.NICs {
		h.NICs[i].Applications = []model.Application{{Kind: model.AppISCSI, Port: 3260, Priority: 3}}
	}
	h.NICs[1].RoCE.DSCP = 24
	_, err := Render(fixture(h), &h)
	want := `application "iscsi" rides DSCP 26 on one NIC and DSCP 24 on another; NetQos policies are host-wide, so the NICs that list it must share one class`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Render: %v, want an error containing %q", err, want)
	}
}

// TestNVMeTCPOnTheDiscoveryPort: an nvme-tcp application whose own port is
// the discovery controller's, 8009, gets one policy, not a second one of
// the same port.
func TestNVMeTCPOnTheDiscoveryPort(t *testing.T) {
	h := tcpStorageHost()
	h.NICs[0].Applications[1].Port = 8009
	s := render(t, h)
	assertLines(t, s, []string{
		"$ours = @('iSCSI', 'NVMe-TCP', 'SMB', 'DEFAULT', 'TCP', 'UDP')",
		"New-NetQosPolicy -Name 'NVMe-TCP' -IPPortMatchCondition 8009 -IPProtocolMatchCondition TCP -PriorityValue8021Action 3 -DSCPAction 26 | Out-Null",
	})
	assertAbsent(t, s, []string{"NVMe-TCP-Discovery"})
}
