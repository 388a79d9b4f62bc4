package cumulus

import (
	"fmt"
	"strings"
	"testing"
)

// TestReleaseCutOffs: each change of the release table (releases) takes
// effect exactly at its release and not in the release before it, in
// whatever part of the simulator reads it (the schema of `nv set`, the
// auto save of `nv config apply`), and every change of the table has a
// probe here.
func TestReleaseCutOffs(t *testing.T) {
	set := func(line string) func(string) bool {
		return func(version string) bool {
			return setPath(schemaFor(version), tree{}, strings.Fields(line)) == nil
		}
	}
	probes := map[change]func(version string) bool{
		advanceBuffer:     set("qos advance-buffer-config default-global ingress-lossless-buffer reserved 1000"),
		pfcWatchdog:       set("qos pfc-watchdog robustness 5"),
		cliPagination:     set("system cli pagination state enabled"),
		autoSaveByDefault: func(version string) bool { return autoSave(version, tree{}) },
		egressServicePool: set("qos advance-buffer-config default-global egress-service-pool 0 memory-percent 10"),
		enabledKeywords:   set("qos roce state disabled"),
	}
	for c := change(0); c < changes; c++ {
		probe, ok := probes[c]
		if !ok {
			t.Errorf("change %d (release %s) has no probe", c, releases[c])
			continue
		}
		at, before := releases[c], previousMinor(t, releases[c])
		if !probe(at) || !probe(at+".2") || !probe("5.15.0") {
			t.Errorf("change %d: release %s or later does not have it", c, at)
		}
		if probe(before) || probe(before+".9") {
			t.Errorf("change %d: release %s, before %s, has it", c, before, at)
		}
	}
}

// previousMinor is the minor release before "5.N": "5.(N-1)".
func previousMinor(t *testing.T, release string) string {
	var major, minor int
	if _, err := fmt.Sscanf(release, "%d.%d", &major, &minor); err != nil || minor == 0 {
		t.Fatalf("release %q is not 5.N with N > 0", release)
	}
	return fmt.Sprintf("%d.%d", major, minor-1)
}
