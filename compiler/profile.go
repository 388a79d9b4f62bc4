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

// nvidiaRoCE returns the classes of the "nvidia-roce" profile: NVIDIA's
// RoCE defaults as `roce` (Onyx >= 3.8.2000) and `nv set qos roce`
// (Cumulus 5.x) apply them (NVIDIA Onyx User Manual, RoCE Commands, `show
// roce`; Cumulus Linux user guide, RoCE, "Default RoCE Configuration"):
// DSCP 26 -> switch priority 3 -> TC3, lossless, WRR 50 %, ECN absolute
// min 150 KB max 1500 KB probability 100; DSCP 48 -> priority 6 -> TC6,
// strict, carrying DCQCN CNPs; everything else -> priority 0 -> TC0,
// lossy, WRR 50 %.
func nvidiaRoCE() []classSpec {
	return []classSpec{
		{Class: dsl.Class{
			Name: "roce", Priority: ptr(3), TrafficClass: ptr(3), DSCP: []int{26},
			Lossless: ptr(true), Bandwidth: ptr(50), Strict: ptr(false), Default: ptr(false),
			// Onyx "show roce": Min (KB) 150, Max (KB) 1500; KB = 1024 B.
			ECN: &dsl.ECN{Min: ptr("150KB"), Max: ptr("1500KB"), Probability: ptr(100)},
		}},
		{Class: dsl.Class{
			Name: "cnp", Priority: ptr(6), TrafficClass: ptr(6), DSCP: []int{48},
			Lossless: ptr(false), Strict: ptr(true), Default: ptr(false),
		}, cnp: true},
		{Class: dsl.Class{
			Name: "default", Priority: ptr(0), TrafficClass: ptr(0),
			Lossless: ptr(false), Bandwidth: ptr(50), Strict: ptr(false), Default: ptr(true),
		}},
	}
}

// ptr returns a pointer to v.
func ptr[T any](v T) *T { return &v }
