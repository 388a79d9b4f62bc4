// Package modeltest builds small, realistic model values for the tests of
// target packages, so that each target does not hand-copy the same QoS
// policy and buffer settings.
//
// Every function returns a fresh value (no slice is shared between calls),
// so a test may change what it gets without affecting other tests.
package modeltest

import "github.com/fabricc/fabricc/model"

// Classes of the "nvidia-roce" profile: DSCP 24-31 -> priority 3 -> TC3
// for RoCE data (hosts mark 26), DSCP 48-55 -> priority 6 -> TC6 for
// DCQCN CNPs (NICs mark 48); compiler profile.go, after the Cumulus Linux
// user guide's RoCE defaults.
const (
	RoCEPriority = 3
	RoCEDSCP     = 26
	CNPPriority  = 6
	CNPDSCP      = 48
)

// LossyPriorities are the priorities that are not lossless under the
// "nvidia-roce" profile, ascending: the default class's and the CNP
// class's.
func LossyPriorities() []int { return []int{0, 1, 2, 4, 5, 6, 7} }

// NVIDIARoCEQoS returns the "nvidia-roce" profile exactly as the compiler
// resolves it (compare model.json of examples/demartek-lab):
//
//   - default: priority 0 (and 1, 2, 4, 5, 7), TC0, every DSCP outside
//     24-31 and 48-55, WRR 50 %, ECN 150000 .. 1500000 B at 100 %;
//   - roce: priority 3, TC3, DSCP 24-31 (marked 26), lossless, WRR 50 %,
//     ECN 150000 .. 1500000 B at 100 %;
//   - cnp: priority 6, TC6, DSCP 48-55 (marked 48), strict, carries CNPs;
//
// with the headroom policy defaults (the lossless MTU taken per port from
// the NICs, 4096 B where none is known; every packet small: 100 %).
func NVIDIARoCEQoS() model.QoS {
	return model.QoS{
		Profile: "nvidia-roce",
		Classes: []model.Class{
			{Name: "default", Priority: 0, Priorities: []int{0, 1, 2, 4, 5, 7}, TrafficClass: 0,
				DSCP: otherDSCP(), ETS: model.ETS{Mode: model.ETSWRR, BandwidthPercent: 50}, ECN: nvidiaECN()},
			{Name: "roce", Priority: RoCEPriority, Priorities: []int{RoCEPriority}, TrafficClass: 3,
				DSCP: block(RoCEPriority), MarkDSCP: RoCEDSCP, Lossless: true,
				ETS: model.ETS{Mode: model.ETSWRR, BandwidthPercent: 50}, ECN: nvidiaECN()},
			{Name: "cnp", Priority: CNPPriority, Priorities: []int{CNPPriority}, TrafficClass: 6,
				DSCP: block(CNPPriority), MarkDSCP: CNPDSCP, CNP: true, ETS: model.ETS{Mode: model.ETSStrict}},
		},
		DSCPToPriority: dscpToPriority(),
		PriorityToTC:   []int{0, 0, 0, 3, 0, 0, 6, 0},
		PFCPriorities:  []int{RoCEPriority},
		RoCEClass:      "roce",
		CNPClass:       "cnp",
		Headroom:       model.HeadroomPolicy{LosslessMTUBytes: 4096, LosslessMTUFromNICs: true, SmallPacketPercent: 100},
	}
}

// nvidiaECN is the profile's ECN marking, 150000 .. 1500000 B at 100 %.
func nvidiaECN() *model.ECN {
	return &model.ECN{MinBytes: 150000, MaxBytes: 1500000, MarkProbabilityPercent: 100}
}

// block is the eight DSCP values 8p..8p+7 of priority p.
func block(p int) []int {
	out := make([]int, 8)
	for i := range out {
		out[i] = 8*p + i
	}
	return out
}

// dscpToPriority is the profile's 64-entry DSCP map: 24-31 -> 3, 48-55 ->
// 6, everything else -> 0.
func dscpToPriority() []int {
	m := make([]int, 64)
	for i := 0; i < 8; i++ {
		m[8*RoCEPriority+i] = RoCEPriority
		m[8*CNPPriority+i] = CNPPriority
	}
	return m
}

// otherDSCP lists the DSCP values of the default class: all but 24-31
// and 48-55.
func otherDSCP() []int {
	out := make([]int, 0, 48)
	for d := 0; d < 64; d++ {
		if d/8 != RoCEPriority && d/8 != CNPPriority {
			out = append(out, d)
		}
	}
	return out
}

// NVIDIARoCE returns the host side of NVIDIARoCEQoS as the compiler gives
// it to every RoCEv2 NIC: data on priority 3 / DSCP 26 (TOS 106, with ECT(0)), CNPs on
// priority 6 / DSCP 48, PFC and DCQCN on priority 3, DSCP trust, and the
// per-TC ETS split (TC0 and TC3 WRR 50 %, TC6 strict, the rest WRR 0 %).
func NVIDIARoCE() model.RoCE {
	ets := make([]model.ETS, 8)
	for i := range ets {
		ets[i] = model.ETS{Mode: model.ETSWRR}
	}
	ets[0].BandwidthPercent = 50
	ets[3].BandwidthPercent = 50
	ets[6] = model.ETS{Mode: model.ETSStrict}
	return model.RoCE{
		Mode: "v2", UDPPort: 4791, Priority: RoCEPriority, DSCP: RoCEDSCP, TOS: RoCEDSCP<<2 | model.ECTZero,
		CNPPriority: CNPPriority, CNPDSCP: CNPDSCP, PFCPriorities: []int{RoCEPriority},
		Trust: model.TrustDSCP, ECNPriorities: []int{0, 1, 2, 3, 4, 5, 6, 7}, ETS: ets,
	}
}

// LossyPG returns priority group 0 holding LossyPriorities in pool, with
// reservedBytes guaranteed and the given shared alpha.
func LossyPG(pool string, reservedBytes int64, alpha string) model.PriorityGroup {
	return model.PriorityGroup{Index: 0, Priorities: LossyPriorities(), Pool: pool,
		SizeBytes: reservedBytes, SharedAlpha: alpha}
}

// LosslessPG returns priority group 3 holding the RoCE priority in pool,
// sized xoff + xon as the compiler sizes lossless headroom. It carries no
// Headroom record; tests that need one set it.
func LosslessPG(pool string, xoff, xon int64, alpha string) model.PriorityGroup {
	return model.PriorityGroup{Index: RoCEPriority, Priorities: []int{RoCEPriority}, Lossless: true,
		Pool: pool, SizeBytes: xoff + xon, XoffBytes: xoff, XonBytes: xon, SharedAlpha: alpha}
}

// PFCTrunk returns an in-service trunk port carrying vlans that trusts
// DSCP and has PFC and the PFC watchdog on the RoCE priority. Buffers,
// description and peer are left to the caller.
func PFCTrunk(name string, speedMbps, mtu int, vlans ...int) model.Port {
	return model.Port{Name: name, SpeedMbps: speedMbps, MTU: mtu, Mode: model.ModeTrunk,
		TrunkVLANs: vlans, Trust: model.TrustDSCP, PFCPriorities: []int{RoCEPriority}, PFCWatchdog: true}
}

// Cable returns the peer at the far end of a cable: kind is "switch" or
// "host", port the switch port or NIC name there, cable "dac", "aoc" or
// "fibre".
func Cable(kind, device, port string, meters float64, cable string) *model.Peer {
	return &model.Peer{Kind: kind, Device: device, Port: port, CableMeters: meters, CableKind: cable}
}
