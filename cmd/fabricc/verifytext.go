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
//	  RoCE in priority 3 may be dropped instead of paused
//	DIFF spine1 Ethernet1/1 trust: intended dscp, actual pcp
//	  RoCE's DSCP 26 no longer reaches priority 3: its traffic is dropped, not paused
//	mtu (RoCE frames over the port's MTU are dropped):
//	DIFF leaf2 swp31 MTU: intended 9214, actual 1500
//	  RoCE frames over 1500 bytes dropped
//
// A header per class rather than an impact on every line: the DIFF
// lines keep their words (scripts grep them), and one hand change that
// differs in six settings of one class reads its effect once. An impact
// that says more than its class's header (verify.ImpactOf: the DSCP and
// priority it breaks, the frame size dropped) follows, indented, the
// first DIFF line of its class that has it.
func writeDifferences(w io.Writer, rep *push.Report) {
	var all []verify.Difference
	for _, d := range rep.Devices {
		all = append(all, d.Differences...)
	}
	verify.SortByImpact(all)
	var class verify.ImpactClass
	said := map[string]bool{}
	for i, x := range all {
		impact := verify.ImpactOf(x)
		if i == 0 || impact.Class != class {
			class = impact.Class
			said = map[string]bool{class.Summary(): true}
			fmt.Fprintf(w, "%s (%s):\n", class, class.Summary())
		}
		fmt.Fprintf(w, "DIFF %s\n", x)
		if !said[impact.Text] {
			said[impact.Text] = true
			fmt.Fprintf(w, "  %s\n", impact.Text)
		}
	}
}
