package verify

import (
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// Tests that pin unowned.go (the notes on what a switch runs that the
// fabric does not own) where a one-token mutation (review mutants5) left
// every earlier test of the package passing.

// onyxFabricWithPriorityMap is fabric("1/1") on Onyx with a priority
// map (priorities 3 and 6 to their classes, the rest to 0): the traffic
// classes some priority maps to are 0, 3 and 6 (State.UsedTCs), the ones
// onyxRunning sets.
func onyxFabricWithPriorityMap() (*model.Fabric, *model.Switch) {
	f, sw := fabric("1/1")
	f.QoS.PriorityToTC = []int{0, 0, 0, 3, 0, 0, 6, 0}
	sw.Platform = model.PlatformOnyx
	f.Switches[0] = *sw
	return f, sw
}

// TestUnownedMutOnyxAsTheFabricNotesNothing: an Onyx switch whose
// running-config (onyxRunning, lines as `show running-config` prints
// them: `interface ethernet 1/1 traffic-class 3 dcb ets wrr 50`, NVIDIA
// Onyx User Manual, QoS) sets ETS and ECN only in the traffic classes a
// priority maps to, and runs PFC only on a fabric port, has nothing the
// fabric does not own: no note at all, not an empty list of classes.
// A fabric port the switch does not show (1/3, a port not yet split
// out) is Compare's difference; it gives no note here, and no panic.
func TestUnownedMutOnyxAsTheFabricNotesNothing(t *testing.T) {
	f, sw := onyxFabricWithPriorityMap()
	want := Expect(f, sw)
	got := mustOnyx(onyxRunning)
	if notes := Unowned(want, got); len(notes) != 0 {
		t.Errorf("switch as the fabric: notes %q, want none", notes)
	}
	sw.Ports = append(sw.Ports, sw.Ports[0])
	sw.Ports[1].Name = "1/3"
	f.Switches[0] = *sw
	want = Expect(f, sw)
	if _, ok := got.Ports["1/3"]; ok {
		t.Fatal("onyxRunning shows port 1/3; the test needs a fabric port the switch does not show")
	}
	if notes := Unowned(want, got); len(notes) != 0 {
		t.Errorf("fabric port 1/3 missing on the switch: notes %q, want none", notes)
	}
}

// TestUnownedMutEveryClassComparedNotesNone: where every traffic class
// is compared (State.UsedTCs nil), no class is "one no priority maps
// to". On Cumulus, targets/cumulus writes the ETS and ECN of all eight
// classes (`nv set qos egress-scheduler default-global traffic-class
// 1,2,4,5,7 mode dwrr` at 1 %, `ecn disable`: Cumulus Linux 5.9 User
// Guide, Quality of Service, "Egress Scheduler", "ECN"), so the
// switch read back (nvueJSON) is noted for nothing; on Onyx without a
// priority map an ETS share set by hand in traffic class 1 is
// Compare's difference, not a note.
func TestUnownedMutEveryClassComparedNotesNone(t *testing.T) {
	f, sw := fabric("swp1")
	f.QoS.PriorityToTC = []int{0, 0, 0, 3, 0, 0, 6, 0}
	sw.Platform = model.PlatformCumulus
	f.Switches[0] = *sw
	want := Expect(f, sw)
	if want.UsedTCs != nil {
		t.Fatalf("Cumulus: used traffic classes %v, want nil (all eight written and compared)", want.UsedTCs)
	}
	got, err := ParseNVUE([]byte(nvueJSON))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Ports["swp1"].ECN) == 0 {
		t.Fatal("nvueJSON read back without ECN on swp1; the test needs the classes' ECN")
	}
	if notes := Unowned(want, got); len(notes) != 0 {
		t.Errorf("Cumulus switch as the fabric: notes %q, want none", notes)
	}

	f, sw = fabric("1/1")
	sw.Platform = model.PlatformOnyx
	f.Switches[0] = *sw
	want = Expect(f, sw)
	got = mustOnyx(onyxRunning + "interface ethernet 1/1 traffic-class 1 dcb ets wrr 20\n")
	if notes := Unowned(want, got); len(notes) != 0 {
		t.Errorf("Onyx without a priority map, TC1 set by hand: notes %q, want none (a difference)", notes)
	}
	var fields []string
	for _, d := range Compare("sw1", want, got) {
		fields = append(fields, d.Field)
	}
	if !strings.Contains(strings.Join(fields, "|"), "TC1") {
		t.Errorf("Onyx without a priority map, TC1 set by hand: differences %q, want one of TC1", fields)
	}
}

// TestUnownedMutUnusedProfilesListed: two profiles named as fabricc
// names its own (`pfc-sp<priorities>-<speed>-<cable>`) that no
// interface attaches are one note naming both, comma-separated, as
// `nv config show -o json` keys them under qos pfc (Cumulus Linux 5.9
// User Guide, Quality of Service, "Port Groups": `nv set qos pfc
// <profile>` and `nv set interface <ports> qos pfc profile <profile>`).
func TestUnownedMutUnusedProfilesListed(t *testing.T) {
	const conf = `[{"header": {"model": "SN2100"}}, {"set": {
  "qos": {"pfc": {"default-global": {}, "pfc-sp3-100g-2m": {}, "pfc-sp4-100g-1m": {}, "pfc-sp3_4-25g-7m": {}}},
  "interface": {"swp1": {"qos": {"pfc": {"profile": "pfc-sp3-100g-2m"}}}}}}]`
	s, err := ParseNVUE([]byte(conf))
	if err != nil {
		t.Fatal(err)
	}
	const note = "profiles named as fabricc names its own that no port uses: qos pfc pfc-sp3_4-25g-7m, qos pfc pfc-sp4-100g-1m" +
		"; not compared: the next push removes them (nv unset qos <kind> <name>)"
	if notes := Unowned(NewState(), s); len(notes) != 1 || notes[0] != note {
		t.Errorf("notes %q, want [%q]", notes, note)
	}
}

// TestUnownedMutOneClassOnePort: one setting of one port in a traffic
// class no priority maps to (Onyx `interface ethernet 1/1 traffic-class
// 1 dcb ets wrr 20`, NVIDIA Onyx User Manual, QoS) is still noted, in
// the singular; a port outside the fabric that runs PFC (`interface
// ethernet 1/2 dcb priority-flow-control mode on force` beside the
// switch-wide `dcb priority-flow-control priority 3 enable`) is named
// with its priority. Both notes, word for word.
func TestUnownedMutOneClassOnePort(t *testing.T) {
	f, sw := onyxFabricWithPriorityMap()
	got := mustOnyx(onyxRunning + "interface ethernet 1/1 traffic-class 1 dcb ets wrr 20\n" +
		"interface ethernet 1/2 dcb priority-flow-control mode on force\n")
	want := []string{
		"not in the fabric but running PFC: 1/2 (priority 3); that reserves buffer the fabric's pools do not count: clear it on the switch, or add the port to the fabric",
		"traffic classes no priority maps to keep an earlier fabric's settings: ETS TC1 wrr 20% (1 port)" +
			"; not compared: no traffic reaches them, and ETS lends an idle class's share to the others",
	}
	if notes := Unowned(Expect(f, sw), got); !slices.Equal(notes, want) {
		t.Errorf("notes\n%q\nwant\n%q", notes, want)
	}
}

// TestUnownedMutPortsOutsideTheFabric: two ports outside the fabric
// that run PFC (`interface ethernet 1/10 dcb priority-flow-control mode
// on force`, NVIDIA Onyx User Manual, "Priority Flow Control") are
// listed in one note, in port order, comma-separated.
func TestUnownedMutPortsOutsideTheFabric(t *testing.T) {
	f, sw := onyxFabricWithPriorityMap()
	got := mustOnyx(onyxRunning + "interface ethernet 1/10 dcb priority-flow-control mode on force\n" +
		"interface ethernet 1/2 dcb priority-flow-control mode on force\n")
	want := []string{"not in the fabric but running PFC: 1/2 (priority 3), 1/10 (priority 3); that reserves buffer the fabric's pools do not count: clear it on the switch, or add the port to the fabric"}
	if notes := Unowned(Expect(f, sw), got); !slices.Equal(notes, want) {
		t.Errorf("notes\n%q\nwant\n%q", notes, want)
	}
}

// TestUnownedMutOnePriorityTakenOut: on Onyx, PFC is enabled per
// priority for the whole switch (`dcb priority-flow-control priority 4
// enable`) and a port only turns it on (`interface ethernet 1/2 dcb
// priority-flow-control mode on force`): NVIDIA Onyx User Manual,
// "Priority Flow Control". A port outside the fabric pausing priority
// 4 alone, on a switch the fabric makes lossless on priority 3 only,
// loses priority 4 switch-wide; it is named with that one priority.
func TestUnownedMutOnePriorityTakenOut(t *testing.T) {
	f, sw := onyxFabricWithPriorityMap()
	before := mustOnyx("dcb priority-flow-control enable force\n" +
		"dcb priority-flow-control priority 4 enable\n" +
		"interface ethernet 1/2 dcb priority-flow-control mode on force\n")
	if p := before.Ports["1/2"]; p == nil || !slices.Equal(p.PFC, []int{4}) {
		t.Fatalf("port 1/2 read before the push: %+v, want PFC on priority 4 alone", p)
	}
	got := PFCTakenOut(Expect(f, sw), before, true)
	if len(got) != 1 || got[0].Port != "1/2" || !slices.Equal(got[0].SwitchWide, []int{4}) || len(got[0].Pool) != 0 {
		t.Fatalf("taken out: %+v, want port 1/2 losing priority 4 switch-wide", got)
	}
	const warning = "1/2 (not in the fabric) runs PFC on priority 4; this push disables PFC on priority 4 switch-wide: its traffic becomes lossy. " +
		"Add the port to the fabric, or move it to a lossless class the fabric keeps."
	if w := got[0].Warning(); w != warning {
		t.Errorf("warning %q, want %q", w, warning)
	}
}

// TestUnownedMutPoolOnlyLoss: on Cumulus, PFC is per port (a PFC
// profile) and lossless buffer is per priority in the traffic pool
// (`nv set qos traffic-pool default-lossless switch-priority 3`,
// Cumulus Linux 5.9 User Guide, Quality of Service, "Lossless and
// Lossy Traffic Pools"): a port outside the fabric pausing priority 4,
// which the push moves out of the lossless pool, loses only the pool.
// The warning and the note after the push say that and nothing about
// switch-wide PFC.
func TestUnownedMutPoolOnlyLoss(t *testing.T) {
	l := PFCLoss{Port: "swp5", Pool: []int{4}}
	const warning = "swp5 (not in the fabric) runs PFC on priority 4; this push moves priority 4 out of the lossless buffer pool, while the port still pauses it: " +
		"its traffic becomes lossy. Add the port to the fabric, or move it to a lossless class the fabric keeps."
	if w := l.Warning(); w != warning {
		t.Errorf("warning %q, want %q", w, warning)
	}
	if did := l.did(true); did != "moved priority 4 out of the lossless pool" {
		t.Errorf("after the push: %q, want %q", did, "moved priority 4 out of the lossless pool")
	}
	l = PFCLoss{Port: "swp5", SwitchWide: []int{4}}
	if did := l.did(true); did != "disabled PFC on priority 4 switch-wide" {
		t.Errorf("after the push: %q, want %q", did, "disabled PFC on priority 4 switch-wide")
	}
}

// TestUnownedMutTwoPortsNoLongerLossless: the note after a push that
// took switch-wide PFC priority 4 away from two ports outside the
// fabric (Onyx, `no dcb priority-flow-control priority 4 enable`:
// NVIDIA Onyx User Manual, "Priority Flow Control") names both, in
// port order, comma-separated, each with what it had before.
func TestUnownedMutTwoPortsNoLongerLossless(t *testing.T) {
	f, sw := onyxFabricWithPriorityMap()
	before := mustOnyx(onyxRunning + "dcb priority-flow-control priority 4 enable\n" +
		"interface ethernet 1/10 dcb priority-flow-control mode on force\n" +
		"interface ethernet 1/2 dcb priority-flow-control mode on force\n")
	after := mustOnyx(onyxRunning + "interface ethernet 1/10 dcb priority-flow-control mode on force\n" +
		"interface ethernet 1/2 dcb priority-flow-control mode on force\n")
	notes := UnownedAfter(Expect(f, sw), before, after, true)
	const note = "not in the fabric and no longer lossless: 1/2 (PFC on priorities 3,4 before the push, which disabled PFC on priority 4 switch-wide), " +
		"1/10 (PFC on priorities 3,4 before the push, which disabled PFC on priority 4 switch-wide); " +
		"their traffic is lossy now: add the ports to the fabric, or move them to a lossless class the fabric keeps"
	if len(notes) == 0 || notes[0] != note {
		t.Errorf("notes after the push %q, want first %q", notes, note)
	}
}

// TestUnownedMutBroughtUp: a fabric port shut on the switch (Onyx
// `interface ethernet 1/1 shutdown`, as `show running-config` prints
// it: NVIDIA Onyx User Manual, "Interfaces") that the fabric does not
// shut is brought up by the push and named; one the fabric shuts too,
// one that is up, one the switch does not show and a shut port outside
// the fabric are not.
func TestUnownedMutBroughtUp(t *testing.T) {
	f, sw := onyxFabricWithPriorityMap()
	for _, n := range []string{"1/2", "1/3", "1/4"} {
		p := sw.Ports[0]
		p.Name = n
		sw.Ports = append(sw.Ports, p)
	}
	sw.Ports[2].Shutdown = true // 1/3: shut in the fabric too
	f.Switches[0] = *sw
	before := mustOnyx(onyxRunning + "interface ethernet 1/1 shutdown\n" +
		"interface ethernet 1/3 shutdown\n" +
		"interface ethernet 1/7 shutdown\n")
	if _, ok := before.Ports["1/4"]; ok {
		t.Fatal("the switch shows port 1/4; the test needs a fabric port it does not show")
	}
	if got := BroughtUp(Expect(f, sw), before); !slices.Equal(got, []string{"1/1"}) {
		t.Errorf("brought up %q, want [1/1]", got)
	}
}
