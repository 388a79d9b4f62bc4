package sim_test

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestCumulusNVUEPager is review rsim #4: Cumulus Linux 5.9 takes `nv
// set system cli pagination state enabled` (NVUE Command Reference, Set
// and Unset Commands, System Configuration); once applied, the output of
// an nv command written to the terminal pages at its height behind
// less's ":" prompt, while output into a pipe (`| cat`, or the nv
// function push's session defines) does not. 5.8 has no such object.
func TestCumulusNVUEPager(t *testing.T) {
	const prompt = `admin@leaf1:mgmt:~\$ $`
	d := startWith(t, sim.Options{Platform: model.PlatformCumulus, OSVersion: "5.9.2"})
	s := rawShell(t, d, 10)
	s.expect(prompt)
	s.send("nv show interface -o json")
	if got := s.expect(prompt); strings.Contains(got, "\n:") {
		t.Errorf("paged before the pager was enabled:\n%s", got)
	}
	s.send("nv set system cli pagination state enabled")
	s.expect(prompt)
	s.send("nv config apply -y")
	s.expect(prompt)
	s.send("nv show interface -o json")
	first := s.expect(`\n:$`)
	if n := strings.Count(first, "\n"); n != 10 {
		t.Errorf("first screen has %d lines, want 10 (the command line, 9 of output):\n%s", n, first)
	}
	s.key(" ")
	s.expect(`\n:$`)
	s.key("q")
	s.expect(prompt)
	for _, line := range []string{"nv show interface -o json | cat", `nv() { command nv "$@" | cat; }`, "nv show interface -o json"} {
		s.send(line)
		if got := s.expect(prompt); strings.Contains(got, "\n:") {
			t.Errorf("%s: paged into a pipe:\n%s", line, got)
		}
	}

	old := startWith(t, sim.Options{Platform: model.PlatformCumulus, OSVersion: "5.8.0"})
	o := rawShell(t, old, 10)
	o.expect(prompt)
	o.send("nv set system cli pagination state enabled")
	if got := o.expect(prompt); !strings.Contains(got, "Error:") {
		t.Errorf("5.8 took the 5.9 pager: %q", got)
	}
}
