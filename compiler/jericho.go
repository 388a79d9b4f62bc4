package compiler

import (
	"fmt"

	"github.com/fabricc/fabricc/model"
	"github.com/hashicorp/hcl/v2"
)

// Jericho2 chips. One Jericho2 (Broadcom BCM88690) switches 4.8 Tbps
// and has 16 MB of on-chip buffer in front of its 8 GB of HBM. The Arista
// 7280R3 switch architecture white paper ("A day in the life of a
// packet", System Specifications) gives 9.6 Tbps for the 7280PR3-24,
// 7280DR3-24 and 7280CR3-96 (and their K models), two chips, and 4.8 Tbps
// for the others, one. A 7800R3 36 x 400G line card (Arista 7800R3
// platform architecture white paper) switches 14.4 Tbps, three chips.
var jericho2Chips = map[string]int{
	"7280PR3-24": 2, "7280PR3K-24": 2, "7280DR3-24": 2, "7280DR3K-24": 2, "7280CR3-96": 2, "7280CR3K-96": 2,
}

// jericho2ChipsPerCard is the Jericho2 chips of one 7800R3 line card.
const jericho2ChipsPerCard = 3

// selfSizedBudget reports whether sw sizes its own PFC headroom and
// configures no pools from fabricc's figures (EOS on Jericho2), so that
// its buffer budget is an estimate to warn about, not a refusal.
func selfSizedBudget(sw *model.Switch) bool {
	who, _ := headroomWriter(sw)
	return who != "" && sw.Platform == model.PlatformEOS
}

// onChipBytes is the on-chip buffer of sw's Jericho2 chips in use: one
// chip's usable buffer times the chips of the model, or of the line
// cards its ports are on.
func onChipBytes(sw *model.Switch) int64 {
	return sw.Hardware.UsableBufferBytes * int64(chipsInUse(sw))
}

// chipsInUse is the number of Jericho2 chips of sw (at least one).
func chipsInUse(sw *model.Switch) int {
	row, ok := lookupHardware(sw.Hardware.Model)
	if !ok {
		return 1
	}
	if first, _ := row.slots(); first > 0 {
		cards := map[int]bool{}
		for _, p := range sw.Ports {
			if r, ok := platforms[model.PlatformEOS].ports.parse(p.Name); ok && r.hasSlot {
				cards[r.slot] = true
			}
		}
		return max(1, len(cards)) * jericho2ChipsPerCard
	}
	return max(1, jericho2Chips[sw.Hardware.Model])
}

// selfSizedBudgetWarning says that fabricc's headroom estimate for a
// switch that sizes its own headroom does not fit the on-chip buffer.
// The estimate uses stand-in constants (hardware.go, jericho2), so it is
// a warning: EOS writes no headroom line from it.
func selfSizedBudgetWarning(sw *model.Switch, who string) *hcl.Diagnostic {
	b := sw.Buffer
	return physicsWarning("Headroom estimate above the on-chip buffer",
		fmt.Sprintf("Switch %q (%s, %s): %s, so fabricc configures no headroom and no pools there. Its estimate, with stand-in constants (a 256 B cell and Spectrum's pipeline latency; Broadcom publishes neither), is %d bytes of PFC headroom at the planning length of %g m plus %d bytes of other reservations, more than the %d bytes on chip (%d Jericho2 x %d bytes; the HBM deep buffer behind them is not counted). Check the switch's own headroom and PFC counters under load (show priority-flow-control counters), or plan for shorter cables with qos { headroom { planning_length = <metres> } } when the cables are short.",
			sw.Name, sw.Hardware.Model, sw.Hardware.ASIC, who, b.HeadroomReserveBytes, b.PlanningCableMeters, b.ReservedBytes, b.TotalBytes, chipsInUse(sw), sw.Hardware.UsableBufferBytes))
}

// physicsWarning is a warning of the buffer physics, which runs outside
// the checker (whose warnf records its warnings); its summary is in
// Warnings like theirs.
func physicsWarning(summary, detail string) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: summary, Detail: detail}
}
