package devsem

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// goldenDir holds `fabricc build` of every example (make golden).
const goldenDir = "../../golden"

// fabric is one example's model and folder.
type fabric struct {
	dir string
	f   *model.Fabric
}

// examples loads every golden model.
func examples(t *testing.T) []fabric {
	t.Helper()
	entries, err := os.ReadDir(goldenDir)
	if err != nil {
		t.Fatal(err)
	}
	var out []fabric
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue // the build before, which a rebuild keeps beside the folder
		}
		dir := filepath.Join(goldenDir, e.Name())
		data, err := os.ReadFile(filepath.Join(dir, "model.json"))
		if err != nil {
			continue
		}
		f, err := model.Unmarshal(data)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		out = append(out, fabric{dir, f})
	}
	if len(out) == 0 {
		t.Fatal("no golden model.json found")
	}
	return out
}

// readSwitch reads a switch's pushed config the way its OS does.
func readSwitch(t *testing.T, dir string, sw *model.Switch) *Switch {
	t.Helper()
	file, read := map[model.Platform]struct {
		ext  string
		read func(string) (*Switch, error)
	}{
		model.PlatformOnyx:    {"onyx.cli", ReadOnyx},
		model.PlatformEOS:     {"eos.cfg", ReadEOS},
		model.PlatformCumulus: {"nvue.yaml", ReadNVUE},
	}[sw.Platform].ext, map[model.Platform]func(string) (*Switch, error){
		model.PlatformOnyx: ReadOnyx, model.PlatformEOS: ReadEOS, model.PlatformCumulus: ReadNVUE,
	}[sw.Platform]
	data, err := os.ReadFile(filepath.Join(dir, sw.Name, sw.Name+"."+file))
	if err != nil {
		t.Fatal(err)
	}
	st, err := read(string(data))
	if err != nil {
		t.Fatalf("%s: %v", sw.Name, err)
	}
	return st
}

// eachPort runs fn on every model port of every switch of every example,
// with the state the switch reads from its golden config.
func eachPort(t *testing.T, fn func(t *testing.T, f *model.Fabric, sw *Switch, mp *model.Port, p *Port)) {
	for _, ex := range examples(t) {
		for i := range ex.f.Switches {
			msw := &ex.f.Switches[i]
			st := readSwitch(t, ex.dir, msw)
			for j := range msw.Ports {
				mp := &msw.Ports[j]
				t.Run(fmt.Sprintf("%s/%s/%s", ex.f.Name, msw.Name, mp.Name), func(t *testing.T) {
					p := st.Ports[mp.Name]
					if p == nil {
						t.Fatalf("the config never names port %s", mp.Name)
					}
					fn(t, ex.f, st, mp, p)
				})
			}
		}
	}
}

// TestVLANSets: every port carries exactly the model's VLANs, tagged and
// untagged, after the switch has applied every line in order.
func TestVLANSets(t *testing.T) {
	eachPort(t, func(t *testing.T, _ *model.Fabric, _ *Switch, mp *model.Port, p *Port) {
		want := Port{Mode: string(mp.Mode)}
		switch mp.Mode {
		case model.ModeAccess:
			want.Untagged = mp.AccessVLAN
		case model.ModeTrunk:
			want.Untagged = mp.NativeVLAN
			want.Tagged = []int{}
			for _, v := range mp.TrunkVLANs {
				if v != mp.NativeVLAN {
					want.Tagged = append(want.Tagged, v)
				}
			}
		}
		if p.Mode != want.Mode || p.Untagged != want.Untagged || p.AllVLANs || (mp.Mode == model.ModeTrunk && !slices.Equal(p.Tagged, want.Tagged)) {
			t.Errorf("device: mode %s, untagged %d, all VLANs %v, tagged %v; model: mode %s, untagged %d, tagged %v",
				p.Mode, p.Untagged, p.AllVLANs, p.Tagged, want.Mode, want.Untagged, want.Tagged)
		}
	})
}

// TestRoomAfterPause: every lossless priority group leaves at least the
// model's in-flight bytes (xoff) above the point where PAUSE is sent, and
// resumes no higher than it pauses.
func TestRoomAfterPause(t *testing.T) {
	eachPort(t, func(t *testing.T, _ *model.Fabric, sw *Switch, mp *model.Port, p *Port) {
		if !slices.Equal(p.PFC, mp.PFCPriorities) && !(len(p.PFC) == 0 && len(mp.PFCPriorities) == 0) {
			t.Errorf("PFC on %v; model %v", p.PFC, mp.PFCPriorities)
		}
		if sw.DeviceHeadroom {
			return // the switch sizes headroom itself; nothing in the config to check
		}
		var inFlight int64
		for _, pg := range mp.PriorityGroups {
			if !pg.Lossless {
				continue
			}
			inFlight += pg.XoffBytes
			g, ok := p.Lossless[pg.Index]
			if !ok {
				continue
			}
			checkPG(t, fmt.Sprintf("PG %d", pg.Index), g, pg.XoffBytes)
		}
		if g, ok := p.Lossless[-1]; ok {
			// One buffer per port (NVUE PFC profile, EOS ingress headroom).
			checkPG(t, "port buffer", g, inFlight)
		} else if inFlight > 0 && len(p.Lossless) == 0 {
			t.Errorf("no lossless buffer in the config for %d in-flight bytes", inFlight)
		}
	})
}

// checkPG asserts one lossless buffer's thresholds.
func checkPG(t *testing.T, what string, g PG, inFlight int64) {
	t.Helper()
	if g.RoomAfterPause() < inFlight {
		t.Errorf("%s: room after PAUSE %d B (size %d - xoff threshold %d) < %d B in flight", what, g.RoomAfterPause(), g.SizeBytes, g.XoffBytes, inFlight)
	}
	if g.XonBytes > g.XoffBytes || g.XoffBytes < 0 {
		t.Errorf("%s: xon threshold %d B above xoff threshold %d B", what, g.XonBytes, g.XoffBytes)
	}
}

// TestECNPerTrafficClass: each traffic class marks ECN exactly where the
// model's class does, at the model's thresholds (to the device's unit).
func TestECNPerTrafficClass(t *testing.T) {
	eachPort(t, func(t *testing.T, f *model.Fabric, _ *Switch, mp *model.Port, p *Port) {
		if mp.Mode == "" || len(mp.PFCPriorities) == 0 && len(p.ECN) == 0 {
			return
		}
		for _, c := range f.QoS.Classes {
			got, on := p.ECN[c.TrafficClass]
			switch {
			case c.ECN == nil && on:
				t.Errorf("TC %d marks ECN at %d..%d B; class %s has no ECN", c.TrafficClass, got.MinBytes, got.MaxBytes, c.Name)
			case c.ECN == nil:
			case !on:
				t.Errorf("TC %d does not mark ECN; class %s marks at %d..%d B", c.TrafficClass, c.Name, c.ECN.MinBytes, c.ECN.MaxBytes)
			case !within(got.MinBytes, c.ECN.MinBytes) || !within(got.MaxBytes, c.ECN.MaxBytes):
				t.Errorf("TC %d marks at %d..%d B; class %s at %d..%d B", c.TrafficClass, got.MinBytes, got.MaxBytes, c.Name, c.ECN.MinBytes, c.ECN.MaxBytes)
			}
		}
	})
}

// within: a device threshold equals the model's, or is the model's
// rounded up to the device's 1024-byte unit.
func within(device, model int64) bool { return device >= model && device < model+1024 }

// TestDSCPToQueue: on DSCP-trusting ports every DSCP lands in the model's
// queue, through the device's maps and their defaults.
func TestDSCPToQueue(t *testing.T) {
	eachPort(t, func(t *testing.T, f *model.Fabric, _ *Switch, mp *model.Port, p *Port) {
		if mp.Trust != model.TrustDSCP || mp.Mode == "" {
			return
		}
		for d := 0; d < 64; d++ {
			want := f.QoS.PriorityToTC[f.QoS.DSCPToPriority[d]]
			if got, ok := p.DSCPToTC[d]; !ok || got != want {
				t.Errorf("DSCP %d lands in queue %d (known %v); model %d", d, got, ok, want)
			}
		}
	})
}

// TestCNPMarking: every Linux NIC marks its CNPs with the fabric's CNP
// DSCP and priority once the host script has run (read from the writes
// its --dry-run lists).
func TestCNPMarking(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not installed")
	}
	for _, ex := range examples(t) {
		for _, h := range ex.f.Hosts {
			if h.OS != model.OSLinux {
				continue
			}
			t.Run(ex.f.Name+"/"+h.Name, func(t *testing.T) {
				got := dryRunCNP(t, filepath.Join(ex.dir, h.Name, h.Name+".linux.sh"))
				for _, n := range h.NICs {
					if n.Vendor != "mellanox" || n.Transport != model.TransportRoCE {
						continue
					}
					dev := n.Interface
					if n.Driver == "inbox" {
						dev = "pci-device-of-" + n.Interface // the dry run's stand-in
					}
					want := CNP{DSCP: n.RoCE.CNPDSCP, Priority: n.RoCE.CNPPriority}
					if c := got.Of(dev); c != want {
						t.Errorf("NIC %s (%s): CNPs marked %+v; fabric CNP class %+v", n.Name, n.Driver, c, want)
					}
				}
			})
		}
	}
}

// dryRunCNP runs a Linux host script with --dry-run on this machine, where
// its interfaces do not exist (so every step is listed).
func dryRunCNP(t *testing.T, script string) CNPs {
	t.Helper()
	cmd := exec.Command("bash", script, "--dry-run")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "LC_ALL=C"}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s --dry-run: %v\n%s", script, err, out)
	}
	got, err := ReadLinuxCNP(string(out))
	if err != nil {
		t.Fatal(err)
	}
	return got
}
