package push

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// tutorialOn writes the fabric of docs/tutorial.md (examples/tutorial)
// with its leaf on platform, node2's cable `meters` long, and returns
// its folder.
func tutorialOn(t *testing.T, platform model.Platform, meters int) string {
	t.Helper()
	data, err := os.ReadFile("../examples/tutorial/fabric.hcl")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(data), "b      = \"node2:roce0\"\n  length = 3\n", fmt.Sprintf("b      = \"node2:roce0\"\n  length = %d\n", meters), 1)
	ports := [2]string{"swp1", "swp2"}
	switch platform {
	case model.PlatformOnyx:
		// A release before 3.6.5000: the advanced buffer mode, whose
		// ingress-buffer lines carry each port's headroom.
		text = strings.NewReplacer(`platform   = "cumulus"`, `platform   = "onyx"`, `os_version = "5.9.2"`, `os_version = "3.6.4006"`,
			`port "swp1-2"`, `port "1/1-1/2"`).Replace(text)
		ports = [2]string{"1/1", "1/2"}
	case model.PlatformEOS:
		start, end := strings.Index(text, `switch "leaf1" {`), strings.Index(text, `host "node1" {`)
		sw := `switch "leaf1" {
  platform   = "eos"
  model      = "7050CX3-32S"
  os_version = "4.32.2F"

  port "Ethernet1/1" {
    speed = "100G"
    mtu   = 9214
    mode  = "access"
    vlans = [10]
  }

  port "Ethernet2/1" {
    speed = "100G"
    mtu   = 9214
    mode  = "access"
    vlans = [10]
  }
}

`
		text = text[:start] + sw + text[end:]
		ports = [2]string{"Ethernet1/1", "Ethernet2/1"}
	}
	text = strings.NewReplacer(`"leaf1:swp1"`, `"leaf1:`+ports[0]+`"`, `"leaf1:swp2"`, `"leaf1:`+ports[1]+`"`).Replace(text)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "fabric.hcl"), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestVerifyComparesHeadroom: a switch pushed with the fabric whose
// second cable is 3 m, verified against the same fabric with that cable
// 30 m long (the tutorial's change), is a mismatch, and the differences
// are each platform's per-port PFC buffer settings, in bytes; verified
// against the fabric it was pushed with, it has none.
//
// The model's lossless group on that port holds 95232 B with 75776 B in
// flight after PAUSE at 3 m, 102400 B and 82944 B at 30 m (Spectrum), and
// 147456 B in flight at 3 m, 160768 B at 30 m on the Trident3 (checked
// below; the lossless MTU is the facing NIC's RoCE path MTU, 4096 B), so:
// NVUE's port-buffer (the group's buffer) and cable-length change while
// xoff-threshold (95232 - 75776 = 102400 - 82944 = 19456 B,
// where PAUSE is sent) does not; Onyx's reserved changes, not its
// xoff/xon; EOS's ingress headroom (the largest room for the bytes in
// flight, which the profile gives every port) changes, one difference
// for both ports.
func TestVerifyComparesHeadroom(t *testing.T) {
	for _, tc := range []struct {
		platform model.Platform
		size     [2]int64 // the group's buffer at 3 m and 30 m
		inFlight [2]int64 // the bytes in flight after PAUSE
		want     []string
	}{
		{model.PlatformCumulus, [2]int64{95232, 102400}, [2]int64{75776, 82944}, []string{
			"leaf1 swp2 PFC profile cable-length: intended 30 m, actual 3 m",
			"leaf1 swp2 PFC profile port-buffer: intended 102400 B, actual 95232 B",
		}},
		{model.PlatformOnyx, [2]int64{95232, 102400}, [2]int64{75776, 82944}, []string{
			"leaf1 1/2 ingress-buffer pg3 reserved: intended 102400 B, actual 95232 B",
		}},
		{model.PlatformEOS, [2]int64{0, 0}, [2]int64{147456, 160768}, []string{
			"leaf1 MMU ingress headroom (the platform's MMU profile, on 2 ports): intended 160768 B, actual 147456 B",
		}},
	} {
		p := tc.platform
		t.Run(string(p), func(t *testing.T) {
			f3, set3 := buildExample(t, tutorialOn(t, p, 3))
			f30, set30 := buildExample(t, tutorialOn(t, p, 30))
			sw3, sw30 := f3.Switch("leaf1"), f30.Switch("leaf1")
			for i, sw := range []*model.Switch{sw3, sw30} {
				pg := lossless(t, &sw.Ports[1])
				if tc.size[i] != 0 && pg.SizeBytes != tc.size[i] || pg.XoffBytes != tc.inFlight[i] {
					t.Fatalf("%s: the model's group holds %d B, %d B in flight; the test assumes %d B, %d B", sw.Ports[1].Name, pg.SizeBytes, pg.XoffBytes, tc.size[i], tc.inFlight[i])
				}
			}
			l := startLab(t, sw3, sim.Faults{})
			if r := l.run(t, ActionPush, f3, sw3, config(t, set3, sw3)); r.Status != StatusChanged || !r.Verified {
				t.Fatalf("push of the 3 m fabric: %s %q %v", r.Status, r.Error, r.Differences)
			}
			if r := l.run(t, ActionVerify, f3, sw3, config(t, set3, sw3)); r.Status != StatusVerified {
				t.Errorf("verify against the 3 m fabric: %s %q %v", r.Status, r.Error, r.Differences)
			}
			r := l.run(t, ActionVerify, f30, sw30, config(t, set30, sw30))
			var got []string
			for _, d := range r.Differences {
				got = append(got, d.String())
			}
			if r.Status != StatusMismatch || strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("verify against the 30 m fabric: %s\n%s\nwant mismatch\n%s", r.Status, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// lossless is the port's lossless priority group.
func lossless(t *testing.T, p *model.Port) *model.PriorityGroup {
	t.Helper()
	for i := range p.PriorityGroups {
		if p.PriorityGroups[i].Lossless {
			return &p.PriorityGroups[i]
		}
	}
	t.Fatalf("port %s has no lossless priority group", p.Name)
	return nil
}
