package compiler

import "github.com/fabricc/fabricc/dsl"

// Built-in QoS profile names.
const (
	profileNVIDIARoCE = "nvidia-roce"
	profileNone       = "none"
)

// profiles lists the accepted values of qos.profile.
var profiles = []string{profileNVIDIARoCE, profileNone}

// classSpec is one traffic class before resolution: the written (or
// profile) attributes, and whether it carries CNPs.
type classSpec struct {
	dsl.Class
	cnp bool
}

// nvidiaECN is the ECN marking of NVIDIA's RoCE profile: min 150000 B,
// max 1500000 B, probability 100 % (Cumulus Linux 5.9 user guide, RDMA
// over Converged Ethernet - RoCE, `nv show qos roce`: min-threshold
// 146.48 KB, max-threshold 1.43 MB, probability 100, in 1024-byte KB; the
// Default RoCE Mode Configuration table's "1501500 bytes" is a misprint of
// the same maximum).
func nvidiaECN() *dsl.ECN {
	return &dsl.ECN{Min: ptr("150000"), Max: ptr("1500000"), Probability: ptr(100)}
}

// nvidiaRoCE returns the classes of the "nvidia-roce" profile: NVIDIA's
// RoCE defaults as Cumulus Linux applies them with `nv set qos roce`
// (Cumulus Linux 5.9 user guide, RDMA over Converged Ethernet - RoCE,
// "Default RoCE Mode Configuration" and `nv show qos roce`), value for
// value where the model can say it:
//
//   - DSCP 24-31 -> switch priority 3 -> TC3 (RoCE): lossless (PFC on
//     priority 3), DWRR 50 %, ECN; hosts mark DSCP 26;
//   - DSCP 48-55 -> switch priority 6 -> TC6 (CNP): strict priority;
//     NICs mark their CNPs DSCP 48, priority 6;
//   - every other DSCP and priority -> TC0: lossy, DWRR 50 %, ECN;
//   - ECN on TC0 and TC3 ("enabled-tc 0,3"): 150000..1500000 B at 100 %.
//
// The differences docs/language.md lists (trust, other DSCPs' switch
// priority, the LLDP application TLV, pool sizes) are deliberate.
func nvidiaRoCE() []classSpec {
	return []classSpec{
		{Class: dsl.Class{
			Name: "roce", Priority: ptr(3), TrafficClass: ptr(3), DSCP: []int{26, 24, 25, 27, 28, 29, 30, 31},
			Lossless: ptr(true), Bandwidth: ptr(50), Strict: ptr(false), Default: ptr(false),
			ECN: nvidiaECN(),
		}},
		{Class: dsl.Class{
			Name: "cnp", Priority: ptr(6), TrafficClass: ptr(6), DSCP: []int{48, 49, 50, 51, 52, 53, 54, 55},
			Lossless: ptr(false), Strict: ptr(true), Default: ptr(false),
		}, cnp: true},
		{Class: dsl.Class{
			Name: "default", Priority: ptr(0), TrafficClass: ptr(0),
			Lossless: ptr(false), Bandwidth: ptr(50), Strict: ptr(false), Default: ptr(true),
			ECN: nvidiaECN(),
		}},
	}
}

// ptr returns a pointer to v.
func ptr[T any](v T) *T { return &v }
