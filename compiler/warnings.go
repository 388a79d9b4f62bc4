package compiler

import (
	"fmt"
	"sort"
	"strings"
	"unicode"

	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
	"github.com/hashicorp/hcl/v2"
)

// Warning is one kind of warning fabricc gives: its summary, its code
// (what an `accept` block names) and what it means.
type Warning struct {
	Code    string
	Summary string
	Meaning string
}

// Warnings lists every warning the compiler gives, by code; docs and
// `accept` validation read it.
var Warnings = []Warning{
	warning("AOC longer than active optical cables reach",
		"a link says cable = \"aoc\" with a length beyond the 100 m active optical cables reach (the multimode short-reach optics they are built on, 25GBASE-SR and 100GBASE-SR4 on OM4); the cable is fibre between transceivers, or the length is wrong"),
	warning("Cluster class share below 2 % on 10 GbE",
		"a failover cluster heartbeat class (a Windows host's cluster_class) has a bandwidth below 2 % while a NIC of a host that uses it runs at 10 Gb/s or less, where Microsoft's cluster traffic class reserves 2 % (1 % on 25 GbE or higher: Host network requirements for Azure Stack HCI, RDMA traffic considerations); give the class bandwidth = 2"),
	warning("Bridged switch link MTU below host MTU",
		"a link between two switches bridges a VLAN whose NICs, on two or more switches, have a larger IP MTU than an end of the link; hosts of one VLAN send each other packets up to their own MTU, and a bridge drops a larger frame without the ICMP \"fragmentation needed\" only a router sends (RFC 1191), so large transfers across the link stall while small ones pass; RoCE's own packets have the error \"Switch link MTU below RoCE packets\" when they do not fit"),
	warning("CNP class lossless",
		"the class congestion notification packets ride in is lossless, so PFC pauses CNPs exactly when senders must hear from them; NVIDIA's RoCE defaults keep PFC off the CNP priority"),
	warning("CNP class marks ECN",
		"the class congestion notification packets ride in has an ecn block; nothing reacts to a CE mark on a CNP, and a queue that drops what it cannot mark (RFC 3168, section 5) drops CNPs"),
	warning("CNP class not separate",
		"the class congestion notification packets ride in is the RoCE class, or holds priority 0 where unmarked traffic lands, so CNPs queue behind the traffic they are meant to slow down; NVIDIA's RoCE defaults give them a strict queue of their own (priority 6, DSCP 48)"),
	warning("CNP class not strict priority",
		"the class congestion notification packets ride in is scheduled by WRR, so under load CNPs wait for their share; NVIDIA's RoCE defaults serve the CNP class by strict priority"),
	warning("CNP marking not settable",
		"a Mellanox NIC must mark its congestion notification packets with the fabric's CNP class, but its driver has no setting the host scripts can write, so it keeps the firmware default (DSCP 48, priority 6) until mlxconfig changes it"),
	warning("DAC longer than copper reaches",
		"a link says cable = \"dac\" with a length no passive copper Ethernet PHY reaches at the link's speed (IEEE 802.3: 7 m at 10G and 40G, 40GBASE-CR4 clause 85; 5 m at 25G and 100G, clauses 110 and 92; 3 m at 50G, 200G and 400G, clause 136; 2 m at 800G); the cable is an AOC or fibre, or the length is wrong"),
	warning("Dual-stack NIC routed for one family",
		"a NIC with a route (a gateway, or a /31, /30 or /127 whose other end is the switch port's) has IPv4 and IPv6 addresses, but fabricc gives a NIC one route, of one family, and an IPv6 route cannot take an IPv4 next hop (Linux net/ipv6/route.c refuses RTA_VIA; RFC 5549 defines only IPv4 via IPv6), so the other family's addresses reach no subnet beyond their own and their RoCE peers in other subnets are off-link; remove them if RoCE runs over the route's family only, or acknowledge it where they are routed by other means (router advertisements, a routing daemon)"),
	warning("ECN minimum above DCQCN bound",
		"the ECN minimum of a lossless class is above the DCQCN ECN-before-PFC bound of a switch, so PFC may pause before ECN slows the senders"),
	warning("ECN minimum below one frame",
		"the ECN minimum of a lossless class is below one lossless frame (the headroom policy's lossless_mtu, or the smallest RoCE path MTU of the lossless ports), so the queue marks every packet that waits behind another: likely bytes written where KB was meant"),
	warning("ECN probability not settable",
		"a class asks for a marking probability other than 100 % at the ECN maximum, but the fabric has Onyx switches, whose congestion-control command takes no probability, so they mark on their own curve while the other switches use the one written"),
	warning("Headroom estimate above the on-chip buffer",
		"fabricc's PFC headroom estimate for an EOS switch on Jericho2, which sizes its headroom itself, plus the other reservations exceeds the on-chip buffer of its Jericho2 chips (16 MB each; the HBM deep buffer is not counted); the estimate uses stand-in constants Broadcom does not publish, and nothing is configured from it"),
	warning("IP subnet in two VLANs",
		"NICs with addresses in one IP subnet are in different VLANs; hosts in one subnet reach each other by ARP, which no switch forwards between VLANs, so they cannot talk unless a router answers for the subnet (proxy ARP)"),
	warning("Long cable on a switch that sizes its own headroom",
		"a lossless link longer than 300 m (the longest default cable class, sonic-buildimage cable_length.j2) is on a switch that sizes PFC headroom itself (Onyx traffic pools, EOS on Jericho), which is told no cable length, so its headroom may be short for the cable; check the switch's own headroom, shorten the link, or use a switch whose headroom fabricc writes"),
	warning("Inbox driver on a release without iproute2 dcb",
		"a Linux NIC has driver = \"inbox\" on a host whose os_version is a release that ships an iproute2 older than 5.12 (debian10: 4.20, debian11: 5.10), while its host script needs dcb app, dcb dcbx and dcb -N (iproute2 5.12; dcb itself came in 5.11), so the script stops before any change; install iproute2 5.12 or later (ip -V prints the installed release) or write driver = \"mlnx_ofed\" on a host with MLNX_OFED"),
	warning("Link override replaces nothing",
		"a link with override = true cables ends no other link cables, so it replaces nothing; remove override = true, which would hide the next link written on those ends"),
	warning("Lossless class is strict",
		"a lossless class has strict = true: a strict class is served before every class with a share whenever it has data, and PFC keeps a lossless class backlogged, so it can starve the other classes (the message names them); NVIDIA's default RoCE configuration has only CNP strict and RoCE in WRR (NVIDIA Cumulus Linux User Guide, RDMA over Converged Ethernet - RoCE, \"Default RoCE Mode Configuration\"), and Microsoft gives SMB Direct an ETS share (Host network requirements for Azure Stack HCI); give the class a bandwidth"),
	warning("Lossless MTU below the RoCE MTU",
		"a lossless switch port faces a RoCE NIC whose MTU gives a RoCE path MTU (Linux ib_core iboe_get_mtu: the largest of 256-4096 B not above the MTU less 96 B of headers) above the lossless_mtu written in the headroom policy, so the headroom is computed for a shorter last frame than RoCE sends (without a written lossless_mtu each port takes its NICs' RoCE path MTU and this does not fire)"),
	warning("NIC interface named like a bond or team",
		"a Linux NIC's interface is named like a bond or team master (bond*, team*, such as RoCE LAG's bond0); a bond or team has no PFC, trust or ETS of its own, its ports keep theirs (MLNX_OFED user manual, RoCE LAG), and fabricc does not configure bonds, teams or RoCE LAG (README, Scope), so the host script stops at such a NIC; accept it for a port of its own that only has such a name"),
	warning("NIC MTU gives RoCE path MTU 2048",
		"a RoCE NIC's MTU is 4096-4191, which gives a RoCE path MTU of 2048 B (Linux ib_core iboe_get_mtu: the largest of 256-4096 B not above the MTU less 96 B of headers), half the 4096 B an MTU of 4192 or more gives; \"RoCE MTU 4096\" is the path MTU, not the interface MTU"),
	warning("NIC not cabled",
		"a NIC with a written speed is cabled by no link block, so its speed, MTU, VLAN tagging and PFC are checked against no switch port; without a speed it is an error"),
	warning("NICs of one subnet with different MTUs",
		"NICs with addresses in one IP subnet and one VLAN have different MTUs; they send each other packets directly, with no router to say a packet is too big, so a packet above the smaller MTU (UDP, ICMP) may be dropped by the receiver; a Windows NIC at 9014 gets a note that Windows guides' 9014 is the *JumboPacket frame size (IP MTU 9000), while a nic's mtu is the IP MTU"),
	warning("NICs of one host in overlapping subnets",
		"two NICs of one host have addresses in overlapping subnets; without policy routing the host sends both NICs' traffic out of one of them"),
	warning("No CNP class",
		"the fabric names no CNP class (profile \"none\" without cnp_class), so the host scripts leave the NICs' congestion notification packets at the ConnectX firmware marking, DSCP 48 and priority 6, and they ride whatever class the switches give those; the warning names that class"),
	warning("PFC port without a cable length",
		"a switch port with PFC on has no link with a length, so its PFC headroom assumes a 5 m cable (SONiC's default cable length, its shortest class, which SONiC picks for server-facing ports, not for unknown ones); write a link with the port's length, or turn PFC off on a port that carries no lossless traffic"),
	warning("PFC watchdog setting the switch ignores",
		"a written pfc_watchdog setting is one the switch's platform cannot take (Onyx's pfc-wd takes none; NVUE always drops and has no restore timer), so the watchdog runs without it"),
	warning("PFC watchdog time the switch rounds",
		"a pfc_watchdog timeout_ms is not a multiple of polling_ms on a Cumulus Linux switch, whose NVUE watchdog counts the timeout in polls (polling-interval x robustness), so it detects a storm after a different time than written"),
	warning("Priority 3 may be taken by FCoE",
		"a lossless class uses priority 3 on a switch other than NVIDIA Spectrum or Arista EOS (Arista's own RoCEv2 design uses priority 3: Arista AI Network Fabric Deployment Guide), where priority 3 is often reserved for FCoE (Demartek RoCE Deployment Guide, \"Deploying RoCE on a Network Switch\"); none of the models a fabric can name today raises it"),
	warning("QLogic RoCE priority is set in UEFI",
		"a QLogic FastLinQ NIC takes its RoCE priority from the adapter's UEFI setup, which the host scripts cannot set"),
	warning("Routed NIC MTU below port",
		"a NIC's MTU is below that of the routed switch port it is cabled to, while another NIC of the fabric has a larger MTU: the port and the NIC are the two ends of one IP link, so the switch routes that NIC's larger packets to it and, since they fit its own MTU, sends no ICMP \"fragmentation needed\" (RFC 1191), and the NIC drops them (UDP, ICMP; TCP agrees on the smaller segment by its MSS option); a fabric whose NICs share one MTU, such as the 9000 default below the 9216 or 9214 port default, is not reported"),
	warning("Routed NIC without a gateway",
		"a NIC with addresses is cabled to a routed switch port but has no written gateway, and no /31 or /30 (or IPv6 /127) address whose other end would be the switch port's, so no host script gives it a route beyond its own subnet and its RoCE peers in other subnets are off-link"),
	warning("Routed NIC without an address",
		"a NIC cabled to a routed switch port has no addresses: a routed port forwards by IP and bridges no VLAN, so nothing can reach the NIC over RoCE v2 and no host script gives it an address or a route"),
	warning("TCP application in a lossless class",
		"a NIC lists storage over TCP (nvme-tcp, iscsi), which the host tags with the NIC's class, and that class is lossless: PFC pauses the TCP instead of dropping it, so TCP never slows down and its bursts pause the RoCE sharing the queue; the RoCE vendors direct all TCP to a lossy priority (Mellanox WinOF User Manual 5.50 §7.4). Accept it where the fabric is designed with TCP storage in the lossless class (iSCSI over DCB)"),
	warning("VLAN split between switches",
		"NICs of one VLAN and one IP subnet sit on switches that no chain of links carrying that VLAN joins, so they cannot reach each other by ARP; carry the VLAN on the links named, give each island its own subnet, or, where EVPN-VXLAN stretches the VLAN, write `overlay = \"vxlan\"` in its vlan block, which silences this warning for it and checks the underlay MTU the encapsulation needs (its largest NIC + 50 B) and, on Cumulus Linux, copies the host's DSCP into the outer header"),
	warning("Windows RoCE DSCP not settable",
		"a Windows NIC (WinOF-2 or QLogic driver) faces a switch port that classifies RoCE by DSCP, but no documented setting of its driver sets the DSCP of RDMA packets, so its RoCE leaves with the driver's own DSCP and may be lossy; trust pcp on both ends classifies it by the priority the script does set"),
	warning("Windows RoCE DSCP not settable past the first hop",
		"a Windows NIC whose driver sets no DSCP on RDMA packets (WinOF-2, QLogic) sends RoCE across a switch-to-switch link whose receiving port classifies by DSCP; the first hop has the warning windows-roce-dscp-not-settable, but fabricc configures no DSCP remark from the switch priority, so the RoCE reaches the link with the driver's own DSCP and may be lossy there; trust pcp on both ends of the link, with every RoCE sender on the VLAN tagging its priority"),
}

// warning builds a Warning with the code derived from the summary.
func warning(summary, meaning string) Warning {
	return Warning{Code: WarningCode(summary), Summary: summary, Meaning: meaning}
}

// WarningCode is the code of a warning: its summary in lower case with
// every run of other characters turned into one '-' ("Priority 3 may be
// taken by FCoE" -> "priority-3-may-be-taken-by-fcoe").
func WarningCode(summary string) string {
	f := strings.FieldsFunc(strings.ToLower(summary), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	return strings.Join(f, "-")
}

// warningCodes lists the codes of Warnings.
func warningCodes() []string {
	out := make([]string, len(Warnings))
	for i, w := range Warnings {
		out[i] = w.Code
	}
	return out
}

// acknowledgeHint tells, at the end of every warning, how to accept it.
func acknowledgeHint(d *hcl.Diagnostic) {
	d.Detail += fmt.Sprintf(" To acknowledge this warning, add accept %q { reason = \"...\" } to the fabric block.", WarningCode(d.Summary))
}

// applyAccepts drops the warnings the fabric block's accept blocks name,
// records them in f.Accepted, reports an accept naming an unknown
// warning (error) or none raised (warning), and adds the accept hint to
// the warnings that stay.
func applyAccepts(fb *dsl.Fabric, f *model.Fabric, diags hcl.Diagnostics) hcl.Diagnostics {
	accepts := map[string]*model.AcceptedWarning{}
	var out hcl.Diagnostics
	if fb != nil {
		out = append(out, checkAccepts(fb, accepts)...)
	}
	for _, d := range diags {
		if d.Severity == hcl.DiagWarning {
			if a := accepts[WarningCode(d.Summary)]; a != nil {
				a.Count++
				continue
			}
			acknowledgeHint(d)
		}
		out = append(out, d)
	}
	if fb == nil {
		return out
	}
	complete := !out.HasErrors() // a stopped compile raised no later warnings
	for _, a := range fb.Accepts {
		acc := accepts[a.Warning]
		if acc == nil {
			continue
		}
		if acc.Count == 0 && complete {
			out = append(out, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Accepted warning not raised",
				Detail:  fmt.Sprintf("accept %q acknowledges a warning this fabric no longer raises; remove the accept block so it cannot hide the warning when it comes back.", a.Warning),
				Subject: a.LabelRange.Or(a.DefRange).Ptr()})
			continue
		}
		if f != nil {
			f.Accepted = append(f.Accepted, *acc)
		}
	}
	if f != nil {
		sort.Slice(f.Accepted, func(i, j int) bool { return f.Accepted[i].Warning < f.Accepted[j].Warning })
	}
	return out
}

// checkAccepts validates the accept blocks and fills accepts by code.
func checkAccepts(fb *dsl.Fabric, accepts map[string]*model.AcceptedWarning) hcl.Diagnostics {
	var diags hcl.Diagnostics
	codes := warningCodes()
	for _, a := range fb.Accepts {
		at := a.LabelRange.Or(a.DefRange)
		switch {
		case !containsString(codes, a.Warning):
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unknown warning",
				Detail:  fmt.Sprintf("accept %q names no warning fabricc gives.%s The codes are listed in docs/language.md, \"Warnings\", and printed with every warning.", a.Warning, didYouMean(a.Warning, codes)),
				Subject: at.Ptr()})
		case strings.TrimSpace(a.Reason) == "":
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Accept without a reason",
				Detail:  fmt.Sprintf("accept %q has an empty reason; say why the warning does not apply, so the next reader knows.", a.Warning),
				Subject: a.ReasonRange.Or(at).Ptr()})
		case accepts[a.Warning] != nil:
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate accept",
				Detail:  fmt.Sprintf("warning %q is accepted twice; keep one accept block.", a.Warning),
				Subject: at.Ptr()})
		default:
			accepts[a.Warning] = &model.AcceptedWarning{Warning: a.Warning, Reason: a.Reason}
		}
	}
	return diags
}

// containsString reports whether list holds s.
func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
