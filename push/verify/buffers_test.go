package verify

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/google/go-cmp/cmp"
)

// The numbers of these tests: a 100G port's lossless priority group 3
// on Spectrum holds 99328 B for a 30 m cable, 79872 B of them for the
// bytes still in flight after PAUSE; for 3 m, 92160 B and 72704 B. In
// each vendor's meaning:
//
//   - NVUE (Cumulus Linux user guide, Quality of Service, PFC):
//     port-buffer is the group's buffer, 99328; xoff-threshold the buffer
//     limit that starts PFC frames, 99328 - 79872 = 19456, so that the
//     79872 B in flight still fit; xon-threshold how far below it the
//     buffer must drain before PFC stops, 19456 as fabricc sets it (as
//     Cumulus's RoCE configuration sets xon_delta = xoff_size);
//     cable-length 30.
//   - Onyx advanced buffers (Spectrum PBMC register, Linux mlxsw reg.h):
//     reserved is the group's buffer, 99328; xoff the occupancy above
//     which PFC frames are sent, 19456; xon the one below which they
//     stop, 19456.
//   - EOS MMU queue profile (Arista TOI, tag mmu; AVD
//     platform.trident.mmu.queue_profiles): ingress headroom is the room
//     a port has for the bytes in flight after it sends PFC, 79872 on a
//     switch whose only lossless port is this one.

// bufferSwitch is fabric(port) with its port's priority groups for a 30 m
// cable: lossless PG3 (priority 3, alpha 2) and lossy PG0 (10240 B,
// alpha 8), on platform.
func bufferSwitch(platform model.Platform, port string) (*model.Fabric, *model.Switch) {
	f, sw := fabric(port)
	sw.Platform = platform
	switch platform {
	case model.PlatformOnyx:
		sw.BufferStyle = "advanced"
	case model.PlatformEOS:
		sw.Hardware.ASIC = "Trident3"
	}
	sw.Ports[0].PriorityGroups = []model.PriorityGroup{
		{Index: 0, Priorities: []int{0, 1, 2, 4, 5, 6, 7}, SizeBytes: 10240, SharedAlpha: "8"},
		{Index: 3, Priorities: []int{3}, Lossless: true, SizeBytes: 99328, XoffBytes: 79872, SharedAlpha: "2",
			Headroom: &model.Headroom{SpeedMbps: 100000, CableMeters: 30}},
	}
	return f, sw
}

// nvuePFC is nvueJSON with its default-global PFC profile holding the
// switch priorities sp and the given numbers (0: left out).
func nvuePFC(sp string, cable, buffer, xoff, xon int) string {
	prof := fmt.Sprintf(`"switch-priority": {%q: {}}, "tx": "enable", "rx": "enable"`, sp)
	for _, kv := range []struct {
		k string
		v int
	}{{"cable-length", cable}, {"port-buffer", buffer}, {"xoff-threshold", xoff}, {"xon-threshold", xon}} {
		if kv.v != 0 {
			prof += fmt.Sprintf(", %q: %d", kv.k, kv.v)
		}
	}
	return strings.Replace(nvueJSON, `"pfc": {"default-global": {"switch-priority": {"3": {}}, "tx": "enable", "rx": "enable"}}`,
		`"pfc": {"default-global": {`+prof+`}}`, 1)
}

// pfcDirections is the as-defined default-global PFC profile with tx and
// rx set to the words given.
func pfcDirections(tx, rx string) string {
	return strings.Replace(nvuePFC("3", 30, 99328, 19456, 19456), `"tx": "enable", "rx": "enable"`,
		fmt.Sprintf(`"tx": %q, "rx": %q`, tx, rx), 1)
}

// onyxPGs is onyxRunning with port 1/1's ingress-buffer lines of the
// advanced buffer mode, lossless PG3 bound to sps with the numbers given.
func onyxPGs(sps string, reserved, xoff, xon int) string {
	return onyxRunning + `advanced buffer management force
   pool iPool0 size 4000000 type dynamic
   pool iPool1 size 6000000 type dynamic
   interface ethernet 1/1 ingress-buffer iPort.pg0 bind switch-priority 0 1 2 4 5 6 7
   interface ethernet 1/1 ingress-buffer iPort.pg3 bind switch-priority ` + sps + `
   interface ethernet 1/1 ingress-buffer iPort.pg0 map pool iPool0 type lossy reserved 10240 shared alpha 8
` + fmt.Sprintf("   interface ethernet 1/1 ingress-buffer iPort.pg3 map pool iPool1 type lossless reserved %d xoff %d xon %d shared alpha 2\n", reserved, xoff, xon)
}

// eosMMUProfile is eosRunning with an MMU queue profile as targets/eos
// writes it (AVD platform-trident.j2 order) and, when apply, applied.
func eosMMUProfile(headroom int, threshold string, apply bool) string {
	s := eosRunning + fmt.Sprintf(`!
platform trident mmu queue profile fabricc
    ingress headroom bytes %d
    ingress priority-group 0 reserved bytes 10240
    ingress priority-group 0 threshold 8
    ingress priority-group 3 threshold %s
!
platform trident mmu queue profile other
    ingress headroom bytes 1
    ingress priority-group 3 threshold 1/128
!
`, headroom, threshold)
	if apply {
		s += "platform trident mmu queue profile fabricc apply\n"
	}
	return s
}

// TestParseBuffers reads each platform's per-port buffer settings from
// output of the shape the switch prints.
func TestParseBuffers(t *testing.T) {
	// NVUE: swp1 names its own profile, swp2 uses default-global.
	nv, err := ParseNVUE([]byte(`[{"header": {"model": "vx", "version": "cumulus-linux 5.9.1"}},
	 {"set": {
	  "interface": {"swp1": {"type": "swp", "qos": {"pfc": {"profile": "pfc-sp3-100g-30m"}}}, "swp2": {"type": "swp"}},
	  "qos": {"pfc": {
	    "default-global": {"switch-priority": {"3": {}}, "tx": "enable", "rx": "enable", "cable-length": 3, "port-buffer": 92160, "xoff-threshold": 19456, "xon-threshold": 19456},
	    "pfc-sp3-100g-30m": {"switch-priority": {"3": {}}, "tx": "enable", "rx": "enable", "cable-length": 30, "port-buffer": 99328, "xoff-threshold": 19456, "xon-threshold": 18432}}}}}]`))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := *nv.Ports["swp1"].PFCProfile, (PFCProfile{30, 99328, 19456, 18432, "enable", "enable"}); got != want {
		t.Errorf("nvue swp1: %+v, want %+v", got, want)
	}
	if got, want := *nv.Ports["swp2"].PFCProfile, (PFCProfile{3, 92160, 19456, 19456, "enable", "enable"}); got != want {
		t.Errorf("nvue swp2: %+v, want %+v", got, want)
	}

	// Onyx: the running-config prints consecutive ports with the same
	// line as a range.
	on := mustOnyx(`##
## Interface Ethernet buffer configuration
##
   advanced buffer management force
   pool iPool1 size 6000000 type dynamic
   interface ethernet 1/1-1/2 ingress-buffer iPort.pg0 bind switch-priority 0 1 2 4 5 6 7
   interface ethernet 1/1-1/2 ingress-buffer iPort.pg3 bind switch-priority 3
   interface ethernet 1/1-1/2 ingress-buffer iPort.pg0 map pool iPool0 type lossy reserved 10240 shared alpha 8
   interface ethernet 1/1 ingress-buffer iPort.pg3 map pool iPool1 type lossless reserved 99328 xoff 19456 xon 18432 shared alpha 2
   interface ethernet 1/2 ingress-buffer iPort.pg3 map pool xoff type lossless reserved 92160 xoff 19456 xon 19456 shared alpha 2
`)
	for port, want := range map[string]map[int]IngressBuffer{
		"1/1": {0: {Priorities: []int{0, 1, 2, 4, 5, 6, 7}, Reserved: 10240}, 3: {Priorities: []int{3}, Reserved: 99328, Xoff: 19456, Xon: 18432}},
		"1/2": {0: {Priorities: []int{0, 1, 2, 4, 5, 6, 7}, Reserved: 10240}, 3: {Priorities: []int{3}, Reserved: 92160, Xoff: 19456, Xon: 19456}},
	} {
		if d := cmp.Diff(want, on.Ports[port].IngressBuffers); d != "" {
			t.Errorf("onyx %s (-want +got):\n%s", port, d)
		}
	}

	// EOS: the applied profile counts, in block and eAPI JSON form, its
	// headroom given with "bytes" or without a unit (AVD writes the unit
	// only when one is set).
	want := &MMU{IngressHeadroom: 79872, Thresholds: map[int]string{0: "8", 3: "2"}}
	js, err := ParseEOSJSON([]byte(`{"cmds": {"interface Ethernet1/1": {"cmds": {"mtu 9216": null}},
	  "platform trident mmu queue profile fabricc": {"cmds": {"ingress headroom 79872": null,
	     "ingress priority-group 0 threshold 8": null, "ingress priority-group 3 threshold 2": null}},
	  "platform trident mmu queue profile fabricc apply": null}}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]*State{"block": mustEOS(eosMMUProfile(79872, "2", true)), "json": js} {
		if d := cmp.Diff(want, s.Ports["Ethernet1/1"].MMU); d != "" {
			t.Errorf("eos %s (-want +got):\n%s", name, d)
		}
	}
	if m := mustEOS(eosMMUProfile(79872, "2", false)).Ports["Ethernet1/1"].MMU; m != nil {
		t.Errorf("eos without an apply line: %+v, want none", m)
	}
}

// TestBufferDifferences: settings as each vendor defines them for the
// model's numbers are no difference; a 3 m profile where the model says
// 30 m, and each setting changed alone, is one line each, in bytes and
// in the vendor's words.
func TestBufferDifferences(t *testing.T) {
	nv := func(s string) *State {
		t.Helper()
		st, err := ParseNVUE([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	const (
		nvNotSet   = "actual not set (the switch's default)"
		onyxSwitch = "sw1 1/1 ingress-buffer pg3"
		eosSwitch  = "sw1 Ethernet1/1 MMU"
	)
	for _, tc := range []struct {
		name     string
		platform model.Platform
		got      *State
		want     []string
	}{
		{"nvue as defined", model.PlatformCumulus, nv(nvuePFC("3", 30, 99328, 19456, 19456)), nil},
		{"nvue 3 m profile", model.PlatformCumulus, nv(nvuePFC("3", 3, 92160, 19456, 19456)), []string{
			"sw1 swp1 PFC profile cable-length: intended 30 m, actual 3 m",
			"sw1 swp1 PFC profile port-buffer: intended 99328 B, actual 92160 B",
		}},
		{"nvue xoff-threshold at the bytes in flight", model.PlatformCumulus, nv(nvuePFC("3", 30, 99328, 79872, 19456)), []string{
			"sw1 swp1 PFC profile xoff-threshold: intended 19456 B, actual 79872 B",
		}},
		{"nvue xon-threshold left out", model.PlatformCumulus, nv(nvuePFC("3", 30, 99328, 19456, 0)), []string{
			"sw1 swp1 PFC profile xon-threshold: intended 19456 B, " + nvNotSet,
		}},
		{"nvue profile on priority 4", model.PlatformCumulus, nv(nvuePFC("4", 30, 99328, 19456, 19456)), []string{
			"sw1 swp1 PFC priorities: intended 3, actual 4",
		}},
		// `nv set qos pfc <profile> tx|rx disable` by hand keeps the
		// priorities and buffer but stops PFC frames (NVUE Command
		// Reference, QoS, "Turns sending PFC frames on and off"); both
		// spellings are read, and `enabled` is no difference.
		{"nvue PFC tx and rx disable", model.PlatformCumulus, nv(pfcDirections("disable", "disable")), []string{
			"sw1 swp1 PFC profile tx: intended enable, actual disable",
			"sw1 swp1 PFC profile rx: intended enable, actual disable",
		}},
		{"nvue PFC tx disabled", model.PlatformCumulus, nv(pfcDirections("disabled", "enable")), []string{
			"sw1 swp1 PFC profile tx: intended enable, actual disable",
		}},
		{"nvue PFC tx and rx enabled", model.PlatformCumulus, nv(pfcDirections("enabled", "enabled")), nil},
		{"nvue no PFC profile", model.PlatformCumulus, nv(strings.Replace(nvueJSON, `"pfc": {"default-global"`, `"pfc": {"unused"`, 1)), []string{
			// One cause, one line: no profile, so neither its priorities
			// nor its buffer settings.
			"sw1 swp1 PFC priorities: intended 3, actual none (no PFC profile, so no cable-length, port-buffer, xoff-threshold or xon-threshold either)",
		}},

		{"onyx as defined", model.PlatformOnyx, mustOnyx(onyxPGs("3", 99328, 19456, 19456)), nil},
		{"onyx 3 m group", model.PlatformOnyx, mustOnyx(onyxPGs("3", 92160, 19456, 19456)), []string{
			onyxSwitch + " reserved: intended 99328 B, actual 92160 B",
		}},
		{"onyx xoff at the bytes in flight", model.PlatformOnyx, mustOnyx(onyxPGs("3", 99328, 79872, 19456)), []string{
			onyxSwitch + " xoff: intended 19456 B, actual 79872 B",
		}},
		{"onyx xon lower", model.PlatformOnyx, mustOnyx(onyxPGs("3", 99328, 19456, 9216)), []string{
			onyxSwitch + " xon: intended 19456 B, actual 9216 B",
		}},
		{"onyx group bound to 3 and 4", model.PlatformOnyx, mustOnyx(onyxPGs("3 4", 99328, 19456, 19456)), []string{
			onyxSwitch + " switch-priority: intended 3, actual 3,4",
		}},
		{"onyx without buffer lines", model.PlatformOnyx, mustOnyx(onyxRunning), []string{
			"sw1 1/1 ingress-buffer pg0: intended switch-priority 0,1,2,4,5,6,7 reserved 10240 B xoff 0 B xon 0 B, actual (none)",
			onyxSwitch + ": intended switch-priority 3 reserved 99328 B xoff 19456 B xon 19456 B, actual (none)",
		}},
		{"onyx group the model lacks", model.PlatformOnyx, mustOnyx(onyxPGs("3", 99328, 19456, 19456) +
			"   interface ethernet 1/1 ingress-buffer iPort.pg5 map pool iPool0 type lossy reserved 1 shared alpha 8\n"), nil},

		{"eos as defined", model.PlatformEOS, mustEOS(eosMMUProfile(79872, "2", true)), nil},
		{"eos 3 m headroom", model.PlatformEOS, mustEOS(eosMMUProfile(72704, "2", true)), []string{
			eosSwitch + " ingress headroom: intended 79872 B, actual 72704 B",
		}},
		{"eos threshold", model.PlatformEOS, mustEOS(eosMMUProfile(79872, "1", true)), []string{
			eosSwitch + " priority-group 3 threshold: intended 2, actual 1",
		}},
		{"eos profile not applied", model.PlatformEOS, mustEOS(eosMMUProfile(79872, "2", false)), []string{
			eosSwitch + " ingress headroom: intended 79872 B, actual not set (the switch's default)",
			eosSwitch + " priority-group 3 threshold: intended 2, actual (none)",
			"sw1 MMU ingress priority-group 0 reserved: intended bytes 10240, actual EOS default",
			"sw1 MMU ingress priority-group 0 threshold: intended 8, actual EOS default",
		}},
		// Lines of groups and queues an earlier fabric used: targets/eos
		// writes every group and queue 0-7, so each is a difference.
		{"eos queue and group the fabric no longer uses", model.PlatformEOS, mustEOS(strings.Replace(eosMMUProfile(79872, "2", true),
			"    ingress priority-group 3 threshold 2\n",
			"    ingress priority-group 3 threshold 2\n    ingress priority-group 3 reserved bytes 4096\n    ingress priority-group 5 threshold 1/8\n    egress unicast queue 0 reserved 9216\n", 1)), []string{
			"sw1 MMU egress unicast queue 0 reserved: intended EOS default, actual bytes 9216",
			"sw1 MMU ingress priority-group 3 reserved: intended EOS default, actual bytes 4096",
			"sw1 MMU ingress priority-group 5 threshold: intended EOS default, actual 1/8",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			port := map[model.Platform]string{model.PlatformCumulus: "swp1", model.PlatformOnyx: "1/1", model.PlatformEOS: "Ethernet1/1"}[tc.platform]
			f, sw := bufferSwitch(tc.platform, port)
			var got []string
			for _, d := range Compare("sw1", Expect(f, sw), tc.got) {
				got = append(got, d.String())
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("differences (-want +got):\n%s", d)
			}
		})
	}
}

// TestBuffersOnlyWhereRendered: nothing is compared where fabricc renders
// no per-port buffer line: a port without PFC on NVUE (whatever profile
// the switch gives it), Onyx in traffic-pool mode (Onyx computes
// headroom itself), EOS on a Jericho ASIC (no MMU queue profile).
func TestBuffersOnlyWhereRendered(t *testing.T) {
	f, sw := bufferSwitch(model.PlatformCumulus, "swp1")
	sw.Ports[0].PFCPriorities = nil
	st, err := ParseNVUE([]byte(nvuePFC("3", 3, 92160, 19456, 19456)))
	if err != nil {
		t.Fatal(err)
	}
	// What the port would read without PFC: its ECN marking stays, from
	// the switch's one congestion-control profile.
	st.Ports["swp1"].PFC = nil
	if d := Compare("sw1", Expect(f, sw), st); len(d) != 0 {
		t.Errorf("nvue port without PFC: %v", d)
	}
	f, sw = bufferSwitch(model.PlatformOnyx, "1/1")
	sw.BufferStyle = "traffic-pool"
	if d := Compare("sw1", Expect(f, sw), mustOnyx(onyxRunning)); len(d) != 0 {
		t.Errorf("onyx traffic-pool mode: %v", d)
	}
	f, sw = bufferSwitch(model.PlatformEOS, "Ethernet1/1")
	sw.Hardware.ASIC = "Jericho2"
	if d := Compare("sw1", Expect(f, sw), mustEOS(eosRunning)); len(d) != 0 {
		t.Errorf("eos on Jericho2: %v", d)
	}
}

// TestMMUDifferenceOncePerSwitch: a wrong headroom in EOS's one MMU
// profile is one difference however many lossless ports it applies to;
// a difference of one port stays that port's.
func TestMMUDifferenceOncePerSwitch(t *testing.T) {
	port := func(headroom Bytes, mtu int) *Port {
		return &Port{MTU: mtu, MMU: &MMU{IngressHeadroom: headroom, Thresholds: map[int]string{3: "2"}}}
	}
	want := &State{Ports: map[string]*Port{"Ethernet1": port(79872, 9214), "Ethernet2": port(79872, 9214), "Ethernet3": port(79872, 9214)}}
	got := &State{Ports: map[string]*Port{"Ethernet1": port(72704, 9214), "Ethernet2": port(72704, 9000), "Ethernet3": port(72704, 9214)}}
	var lines []string
	for _, d := range Compare("sw1", want, got) {
		lines = append(lines, d.String())
	}
	wantLines := []string{
		"sw1 MMU ingress headroom (the platform's MMU profile, on 3 ports): intended 79872 B, actual 72704 B",
		"sw1 Ethernet2 MTU: intended 9214, actual 9000",
	}
	if d := cmp.Diff(wantLines, lines); d != "" {
		t.Errorf("differences (-want +got):\n%s", d)
	}
}
