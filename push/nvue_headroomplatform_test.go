package push

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// withHeadroomMode writes qos headroom mode into the fabric at dir.
func withHeadroomMode(t *testing.T, dir, mode string) {
	t.Helper()
	path := filepath.Join(dir, "fabric.hcl")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(data), "  profile = \"nvidia-roce\"\n", "  profile = \"nvidia-roce\"\n\n  headroom {\n    mode = \""+mode+"\"\n  }\n", 1)
	if text == string(data) {
		t.Fatal("the tutorial's qos block moved")
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestNVUEHeadroomPlatformUnsetsBuffer: a switch pushed with fabricc's
// computed headroom (port-buffer, xoff-threshold, xon-threshold in each
// PFC profile) and then with qos headroom mode "platform" holds no such
// value after the second push: NVUE's patch only adds, so the push
// unsets them, and verification, which expects none, passes (rcum #10).
// A port-buffer set by hand afterwards is a difference.
func TestNVUEHeadroomPlatformUnsetsBuffer(t *testing.T) {
	f, set := buildExample(t, tutorialOn(t, model.PlatformCumulus, 3))
	sw := f.Switch("leaf1")
	l := startLab(t, sw, sim.Faults{})
	if r := l.run(t, ActionPush, f, sw, config(t, set, sw)); r.Status != StatusChanged || !r.Verified {
		t.Fatalf("first push: %s %q %v", r.Status, r.Error, r.Differences)
	}
	if !strings.Contains(l.sim.Running(), "port-buffer") {
		t.Fatal("the computed push wrote no port-buffer")
	}
	dir := tutorialOn(t, model.PlatformCumulus, 3)
	withHeadroomMode(t, dir, model.HeadroomPlatform)
	pf, pset := buildExample(t, dir)
	psw := pf.Switch("leaf1")
	cfg := config(t, pset, psw)
	if r := l.run(t, ActionPush, pf, psw, cfg); r.Status != StatusChanged || !r.Verified {
		t.Fatalf("push with headroom mode platform: %s %q %v", r.Status, r.Error, r.Differences)
	}
	running := l.sim.Running()
	for _, k := range []string{"port-buffer", "xoff-threshold", "xon-threshold"} {
		if strings.Contains(running, k) {
			t.Errorf("the applied configuration keeps %s after the platform push:\n%s", k, running)
		}
	}
	if !strings.Contains(running, "cable-length") {
		t.Error("the platform push left no cable-length")
	}
	l.hand(t, "nv set qos pfc pfc-sp3-100g-3m port-buffer 95232", "nv config apply -y")
	r := l.run(t, ActionVerify, pf, psw, cfg)
	want := []string{"leaf1 swp2 PFC profile port-buffer: intended not set (the switch's default), actual 95232 B"}
	if got := differenceLines(r); r.Verified || !slices.Equal(got, want) {
		t.Errorf("verify after a hand-set port-buffer: verified %v, differences %q, want %q", r.Verified, got, want)
	}
}
