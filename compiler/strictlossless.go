package compiler

import (
	"fmt"

	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
)

// warnLosslessStrict warns for each class that is both lossless and
// strict, except the CNP class cnp, whose losslessness checkCNPClass
// warns of. A strict class is served before every WRR class whenever it
// has data, and PFC keeps a lossless class backlogged instead of
// dropping, so a busy lossless strict class takes the whole link from
// the WRR classes (and from strict classes below it). Strict priority is
// for the low-volume CNP class: NVIDIA's default RoCE configuration has
// CNP strict and RoCE in WRR 50 % (NVIDIA Cumulus Linux User Guide, RDMA
// over Converged Ethernet - RoCE, "Default RoCE Mode Configuration"), and
// Microsoft gives SMB Direct an ETS share and cluster traffic 1-2 %
// (Microsoft, "Host network requirements for Azure Stack HCI", RDMA
// traffic considerations).
func (l *lowering) warnLosslessStrict(specs []classSpec, cnp string) {
	ranges := make(map[string]dsl.Range, len(specs))
	for _, s := range specs {
		ranges[s.Name] = s.DefRange
	}
	classes := l.f.QoS.Classes
	for _, c := range classes {
		// A lossless CNP class is cnp-class-lossless's mistake, not this one.
		if !c.Lossless || c.ETS.Mode != model.ETSStrict || c.Name == cnp {
			continue
		}
		l.warnf(ranges[c.Name], "Lossless class is strict",
			"class %q is lossless and strict = true: a strict class is served before every class with a bandwidth share whenever it has data, and PFC keeps a lossless class backlogged instead of dropping, so a busy %q can starve %s. Strict priority is for the low-volume CNP class: NVIDIA's default RoCE configuration has CNP strict and RoCE in WRR, 50 %% (NVIDIA Cumulus Linux User Guide, RDMA over Converged Ethernet - RoCE, \"Default RoCE Mode Configuration\"), and Microsoft gives SMB Direct an ETS share and cluster traffic 1-2 %% (Microsoft, \"Host network requirements for Azure Stack HCI\", RDMA traffic considerations). Give class %q a bandwidth instead of strict = true (the shares then sum to 100), or accept this warning.",
			c.Name, c.Name, starvedText(classes, c), c.Name)
	}
}

// starvedText names the classes a strict class c is served before: every
// WRR class, and the strict classes on lower traffic classes (a switch
// serves strict queues from the highest).
func starvedText(classes []model.Class, c model.Class) string {
	var wrr, strict []string
	for _, o := range classes {
		switch {
		case o.Name == c.Name:
		case o.ETS.Mode == model.ETSWRR:
			wrr = append(wrr, classWithRole(o))
		case o.ETS.Mode == model.ETSStrict && o.TrafficClass < c.TrafficClass:
			strict = append(strict, classWithRole(o))
		}
	}
	text := "class"
	if len(wrr)+len(strict) > 1 {
		text = "classes"
	}
	switch {
	case len(wrr) == 0 && len(strict) == 0:
		return "no other class today, but every class added with a share"
	case len(strict) == 0:
		return text + " " + joinAnd(wrr)
	case len(wrr) == 0:
		return text + " " + joinAnd(strict) + " (strict, on a lower traffic class)"
	}
	return fmt.Sprintf("%s %s, and %s (strict, on a lower traffic class)", text, joinAnd(wrr), joinAnd(strict))
}

// classWithRole is a class's quoted name, marked "(lossless)" for a
// lossless class.
func classWithRole(c model.Class) string {
	if c.Lossless {
		return fmt.Sprintf("%q (lossless)", c.Name)
	}
	return fmt.Sprintf("%q", c.Name)
}
