package main

import (
	"fmt"
	"io"

	"github.com/fabricc/fabricc/push"
	"github.com/fabricc/fabricc/push/verify"
)

// writeDifferences prints every device's differences, the most harmful
// to RoCE first (verify.SortByImpact: impact class, then device, then
// port), each class once, as a header line before its differences:
//
//	lossless (RoCE may be dropped instead of paused):
//	DIFF leaf3 1/1 PFC priorities: intended 3, actual none
//	mtu (RoCE frames over the port's MTU are dropped):
//	DIFF leaf2 swp31 MTU: intended 9214, actual 1500
//
// A header per class rather than an impact on every line: the DIFF
// lines keep their words (scripts grep them), and one hand change that
// differs in six settings of one class reads its effect once.
func writeDifferences(w io.Writer, rep *push.Report) {
	var all []verify.Difference
	for _, d := range rep.Devices {
		all = append(all, d.Differences...)
	}
	verify.SortByImpact(all)
	var class verify.ImpactClass
	for i, x := range all {
		if c := verify.ImpactOf(x).Class; i == 0 || c != class {
			class = c
			fmt.Fprintf(w, "%s (%s):\n", c, c.Summary())
		}
		fmt.Fprintf(w, "DIFF %s\n", x)
	}
}
