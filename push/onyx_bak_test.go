package push

import (
	"slices"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// onyxCSMListing is `show configuration files` of a real Onyx switch as
// Cray-HPE docs-csm, "Load Saved Switch Configuration" (Mellanox) prints
// it after the prompt line: a blank line, a NAME.bak beside every file,
// then the active file and the unsaved-changes flag.
const onyxCSMListing = `
csm1.0.canu1.1.21 (active)
csm1.0.canu1.1.21.bak
csm1.2.fresh_install_canu1.1.21
csm1.2.fresh_install_canu1.1.21.bak
csm1.2.upgrade_canu1.1.21
csm1.2.upgrade_canu1.1.21.bak
initial
initial.bak

Active configuration: csm1.0.canu1.1.21
Unsaved changes     : yes
`

// TestOnyxFilesReadsBakCopies is review rsim #5: the .bak copies of a
// real listing are not files push manages, and the .bak of a lock
// written without a namespace (an operator's Mac) is not a second lock
// of a holder namespaced "bak".
func TestOnyxFilesReadsBakCopies(t *testing.T) {
	lock := "fabricc-lock.20261128-030520-d1a944.123.alice.mac-ab12"
	for _, tc := range []struct {
		name, out   string
		names, baks []string
		locks       int
	}{
		{"docs-csm listing", onyxCSMListing,
			[]string{"csm1.0.canu1.1.21", "csm1.2.fresh_install_canu1.1.21", "csm1.2.upgrade_canu1.1.21", "initial"},
			[]string{"csm1.0.canu1.1.21.bak", "csm1.2.fresh_install_canu1.1.21.bak", "csm1.2.upgrade_canu1.1.21.bak", "initial.bak"}, 0},
		{"a lock written twice", "\n" + lock + "\n" + lock + ".bak\ninitial (active)\ninitial.bak\n\nActive configuration: initial\nUnsaved changes     : no\n",
			[]string{lock, "initial"}, []string{lock + ".bak", "initial.bak"}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := onyxFiles(tc.out)
			if !slices.Equal(l.names, tc.names) || !slices.Equal(l.baks, tc.baks) {
				t.Errorf("names %q baks %q, want %q %q", l.names, l.baks, tc.names, tc.baks)
			}
			var locks int
			for _, n := range l.names {
				if _, ok := parseOnyxLockName(n); ok {
					locks++
				}
			}
			if locks != tc.locks {
				t.Errorf("%d lock files, want %d", locks, tc.locks)
			}
		})
	}
	l := onyxFiles(onyxCSMListing)
	if l.active != "csm1.0.canu1.1.21" || !l.unsaved || !l.hasBak("initial") || l.hasBak("csm1.0.canu1.1.21.bak") {
		t.Errorf("active %q unsaved %v, initial.bak %v: want csm1.0.canu1.1.21, unsaved, initial.bak listed", l.active, l.unsaved, l.hasBak("initial"))
	}
}

// TestOnyxReleaseDeletesTheLockBak: a lock file written twice (a
// retried acquire of the same holder) has a .bak on the switch (the
// simulator keeps one as docs-csm's listings show); one holder is read,
// and release deletes the lock and its .bak.
func TestOnyxReleaseDeletesTheLockBak(t *testing.T) {
	f, _ := demo(t)
	sw := switchOf(t, f, model.PlatformOnyx)
	l := startLab(t, sw, sim.Faults{})
	h := Holder{ID: "20261128-030520-d1a944", PID: 123, User: "alice", Host: "mac-ab12"}
	name := onyxLockName(h)
	l.onyxHand(t, "configuration write to "+name+" no-switch", "configuration write to "+name+" no-switch")
	c := l.dial(t, model.PlatformOnyx)
	defer c.Close()
	locks, files, err := onyxLockFiles(c)
	if err != nil {
		t.Fatal(err)
	}
	if len(locks) != 1 || !locks[0].same(h) || !files.hasBak(name) {
		t.Fatalf("locks %v, listing %+v: want one holder %v and its .bak", locks, files, h)
	}
	if err := (onyxLock{}).release(c, h); err != nil {
		t.Fatal(err)
	}
	out, err := c.Send("show configuration files")
	if err != nil {
		t.Fatal(err)
	}
	if got := onyxFiles(out); !slices.Equal(got.names, []string{"initial"}) || !slices.Equal(got.baks, []string{"initial.bak"}) {
		t.Errorf("after release: names %q baks %q, want initial and initial.bak", got.names, got.baks)
	}
}
