package freebsd

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDryRunStopsAsRun: wherever a run stops a NIC's steps on an error
// (no ConnectX on the bus, a lagg port, another unit, a driver sysctl or
// mlx5ib's congestion sysctls absent, a boot file that overrides the
// fabric), its dry run prints the run's own message after "would stop:",
// sums up with the NICs a run would stop instead of "nothing to do", and
// exits 1 as the run does. Before, a dry run noted the stop, or for the congestion sysctls
// showed steps the run never reaches, then said "nothing to do" and
// exited 0.
func TestDryRunStopsAsRun(t *testing.T) {
	tests := []struct {
		name  string
		setup func(fh *fakeHost)
		cnp   bool   // mce0's CNP class is not the firmware's (mlx5ib's sysctls needed)
		nics  string // the NICs that stop
	}{
		{"driver sysctl absent", func(fh *fakeHost) {
			fh.write("sysctl.dev.mce.0.conf.qos.trust_state", "")
			if err := os.Remove(filepath.Join(fh.dir, "sysctl.dev.mce.0.conf.qos.trust_state")); err != nil {
				t.Fatal(err)
			}
		}, false, "mce0"},
		{"lagg port", func(fh *fakeHost) {
			fh.write("if.mce0", fh.read("if.mce0")+"\tlaggdev: lagg0\n")
		}, false, "mce0"},
		{"other unit", func(fh *fakeHost) {
			fh.write("iflist", "mce1 mce3 lo0\n")
			if err := os.Remove(filepath.Join(fh.dir, "if.mce0")); err != nil {
				t.Fatal(err)
			}
		}, false, "mce0"},
		{"no Mellanox device", func(fh *fakeHost) {
			fh.write("pci", "t6nex0@pci0:2:0:4:\tclass=0x020000 rev=0x00 hdr=0x00 vendor=0x1425 device=0x6408 subvendor=0x1425 subdevice=0x0000\n")
		}, false, "mce0 mce1"},
		{"boot file overrides", func(fh *fakeHost) {
			fh.write("loader.conf.local", "dev.mce.0.conf.qos.trust_state=\"1\"\n")
		}, false, "mce0"},
		{"mlx5ib congestion sysctls absent", func(*fakeHost) {}, true, "mce0"},
	}
	stopLine := regexp.MustCompile(`(?m)^fabricc: error: (.*)$`)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, h := twoNICs()
			if tc.cnp {
				h.NICs[0].RoCE.CNPDSCP, h.NICs[0].RoCE.CNPPriority = 46, 5
			}
			s := hostScript(t, f, h)
			host := func() *fakeHost {
				fh := newFakeHost(t, "mce0", "mce1")
				fh.mlx5OIDs("0")
				fh.mlx5OIDs("1")
				tc.setup(fh)
				return fh
			}
			dryHost, runHost := host(), host()
			dry, dryErrs, dryCode := dryHost.run(s, "--dry-run")
			_, runErrs, runCode := runHost.run(s)
			// A boot file's message names it, in each fake host's directory.
			dry = strings.ReplaceAll(dry, dryHost.dir, "DIR")
			runErrs = strings.ReplaceAll(runErrs, runHost.dir, "DIR")
			if runCode != 1 || dryCode != 1 {
				t.Errorf("exit: run %d, dry run %d; want 1 both\n%s", runCode, dryCode, dry)
			}
			stops := stopLine.FindAllStringSubmatch(runErrs, -1)
			if len(stops) < 2 {
				t.Fatalf("the run did not stop:\n%s", runErrs)
			}
			for _, m := range stops[:len(stops)-1] {
				if w := "would stop: " + m[1] + "\n"; !strings.Contains(dry, w) {
					t.Errorf("dry run lacks %q:\n%s", w, dry)
				}
			}
			// The count is the dry run's own: it cannot see that the run's
			// mlx5en_load line for mce0 leaves none to write for mce1.
			want := regexp.MustCompile(fmt.Sprintf(`\nfabricc: \d+ change\(s\) would be made; %d NIC\(s\) would fail, a run would stop their steps on an error: %s\n$`,
				len(strings.Fields(tc.nics)), tc.nics))
			if !want.MatchString(dry) || strings.Contains(dry, "nothing to do") {
				t.Errorf("dry run summary, want %s:\n%s", want, dry)
			}
			if w := "fabricc: error: a run would stop the steps of these NICs (see would stop: above; the other NICs' steps would run): " + tc.nics + "\n"; dryErrs != w {
				t.Errorf("dry run stderr %q, want %q", dryErrs, w)
			}
		})
	}
}
