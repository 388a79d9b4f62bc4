package sim_test

import (
	"encoding/base64"
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/compiler"
	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
	"github.com/fabricc/fabricc/targets"
	targetcumulus "github.com/fabricc/fabricc/targets/cumulus"
)

// TestCumulusRenderedReleaseAccepted renders the tutorial's Cumulus leaf
// for a release on each side of 5.15 and applies both of its forms, the
// `nv set` lines and the YAML `nv config patch`, to a simulator running
// that release. The simulator's grammar is NVIDIA's, not the renderer's
// (sim/cumulus schema.go and releases.go cite the NVUE Command Reference,
// QoS, and the Cumulus Linux 5.15 "New and Changed NVUE Commands"), so a
// keyword the renderer guesses wrong for a release is refused here, as
// NVUE would refuse the whole patch. The lines are NVIDIA's examples:
// `tx enable`, `rx enable`, `pfc-watchdog state enable` in every release,
// `ecn enable` up to 5.14 and `ecn enabled` from 5.15.
func TestCumulusRenderedReleaseAccepted(t *testing.T) {
	cfg, _, diags := dsl.Load("../examples/tutorial", dsl.Options{})
	if diags.HasErrors() {
		t.Fatalf("load: %s", diags.Error())
	}
	for _, tc := range []struct {
		release string
		want    []string
	}{
		{"5.14.1", []string{
			"nv set qos pfc pfc-sp3-100g-2m tx enable",
			"nv set qos pfc pfc-sp3-100g-2m rx enable",
			"nv set qos congestion-control default-global traffic-class 3 ecn enable",
			"nv set interface swp1 qos pfc-watchdog state enable",
		}},
		{"5.15.0", []string{
			"nv set qos pfc pfc-sp3-100g-2m tx enable",
			"nv set qos pfc pfc-sp3-100g-2m rx enable",
			"nv set qos congestion-control default-global traffic-class 3 ecn enabled",
			"nv set qos congestion-control default-global traffic-class 3 red disabled",
			"nv set interface swp1 qos pfc-watchdog state enable",
		}},
	} {
		t.Run(tc.release, func(t *testing.T) {
			f, diags := compiler.Compile(cfg)
			if diags.HasErrors() {
				t.Fatalf("compile: %s", diags.Error())
			}
			sw := f.Switch("leaf1")
			sw.OSVersion = tc.release
			files, err := targetcumulus.Render(f, sw)
			if err != nil {
				t.Fatal(err)
			}
			script, yml := fileNamed(t, files, ".nvue.sh"), fileNamed(t, files, ".nvue.yaml")
			lines := configLines(script, "#")
			for _, w := range tc.want {
				if !slices.Contains(lines, w) {
					t.Errorf("%s file lacks %q", tc.release, w)
				}
			}
			opts := sim.Options{Platform: model.PlatformCumulus, Model: sw.Hardware.Model, OSVersion: tc.release}
			a := startWith(t, opts)
			drv := mustOpen(t, a, cumulusDef(t))
			for _, l := range lines {
				if r, err := drv.SendCommand(l); err != nil || r.Result != "" {
					t.Errorf("Cumulus Linux %s refuses %q: %v %q", tc.release, l, err, r.Result)
				}
			}
			cmd(t, drv, "nv config apply -y")
			b := startWith(t, opts)
			drvB := mustOpen(t, b, cumulusDef(t))
			cmd(t, drvB, "echo "+base64.StdEncoding.EncodeToString([]byte(yml))+" | base64 -d > /tmp/fabricc.yaml")
			if r, err := drvB.SendCommand("nv config patch /tmp/fabricc.yaml"); err != nil || r.Result != "" {
				t.Errorf("Cumulus Linux %s refuses the patch: %v %q", tc.release, err, r.Result)
			}
			cmd(t, drvB, "nv config apply -y")
		})
	}
}

// fileNamed is the data of the rendered file whose name ends in suffix.
func fileNamed(t *testing.T, files []targets.File, suffix string) string {
	t.Helper()
	for _, f := range files {
		if strings.HasSuffix(f.Name, suffix) {
			return string(f.Data)
		}
	}
	t.Fatalf("no rendered file ends in %s", suffix)
	return ""
}
