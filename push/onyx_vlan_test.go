package push

import (
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestOnyxNarrowsALiveTrunkInPlace is review rsw #3's reproduction: after
// a push, VLAN 200 is added by hand to leaf3's trunk 1/7 and saved. The
// next push sent `allowed-vlan none` and one `add` per fabric VLAN, which
// on Onyx (no candidate configuration) stops VLANs 101-104 on the trunk
// until the last `add`; it now sends the one line that takes VLAN 200
// off, and the trunk ends carrying the fabric's VLANs.
func TestOnyxNarrowsALiveTrunkInPlace(t *testing.T) {
	f, set := demo(t)
	sw := f.Switch("leaf3")
	cfg := config(t, set, sw)
	l := startLab(t, sw, sim.Faults{})
	if r := l.run(t, ActionPush, f, sw, cfg); r.Status != StatusChanged || !r.Verified {
		t.Fatalf("first push: %s %q %v", r.Status, r.Error, r.Differences)
	}
	l.onyxHand(t, "vlan 200", "exit", "interface ethernet 1/7 switchport trunk allowed-vlan add 200", "configuration write")

	dry := l.run(t, ActionDiff, f, sw, cfg)
	const trunk = "interface ethernet 1/7 switchport trunk allowed-vlan "
	if want := "- " + trunk + "add 200\n+ " + trunk + "remove 200\n"; !strings.HasSuffix(dry.Diff, want) {
		t.Errorf("diff:\n%s\nwant it to end with\n%s", dry.Diff, want)
	}
	r := l.run(t, ActionPush, f, sw, cfg)
	if r.Status != StatusChanged || !r.Verified {
		t.Fatalf("push: %s %q %v", r.Status, r.Error, r.Differences)
	}
	if got, want := onyxApplied(r.Commands), []string{trunk + "remove 200"}; !slices.Equal(got, want) {
		t.Errorf("push applied\n%s\nwant\n%s\n(all commands: %q)", strings.Join(got, "\n"), strings.Join(want, "\n"), r.Commands)
	}
	var got []string
	for _, line := range strings.Split(l.sim.Running(), "\n") {
		if strings.Contains(line, "interface ethernet 1/7 switchport") || strings.HasPrefix(strings.TrimSpace(line), "vlan 200") {
			got = append(got, strings.TrimSpace(line))
		}
	}
	running := []string{"interface ethernet 1/7 switchport mode trunk", "vlan 200", trunk + "none",
		trunk + "add 101", trunk + "add 102", trunk + "add 103", trunk + "add 104"}
	if !slices.Equal(got, running) {
		t.Errorf("running config after the push:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(running, "\n"))
	}
}

// TestOnyxPushSendsNoPrefixModeLine: the rendered file turns prefix
// modes off at the top and on again at the end (review rsw #9); push
// sends neither line, on the first push (every line) or later.
func TestOnyxPushSendsNoPrefixModeLine(t *testing.T) {
	f, set := demo(t)
	sw := f.Switch("leaf3")
	cfg := config(t, set, sw)
	for _, l := range []string{"no cli default prefix-modes enable", "cli default prefix-modes enable"} {
		if !slices.Contains(strings.Split(string(cfg), "\n"), l) {
			t.Fatalf("the rendered file has no %q line", l)
		}
	}
	// The lines push compares and sends: whatever the switch prints.
	if lines := onyxLines(string(cfg)); slices.ContainsFunc(lines, func(c string) bool { return strings.Contains(c, "prefix-modes") }) {
		t.Errorf("push would compare and send a prefix-mode line: %q", lines)
	}
	l := startLab(t, sw, sim.Faults{})
	r := l.run(t, ActionPush, f, sw, cfg)
	if r.Status != StatusChanged || !r.Verified {
		t.Fatalf("push: %s %q %v", r.Status, r.Error, r.Differences)
	}
	sent := onyxApplied(r.Commands)
	if len(sent) < 100 || slices.ContainsFunc(sent, func(c string) bool { return strings.Contains(c, "prefix-modes") }) {
		t.Errorf("push sent %d lines, a prefix-mode line among them: %q", len(sent), sent)
	}
}

// onyxHand runs cmds in configuration mode on the lab Onyx switch, as an
// operator would.
func (l *lab) onyxHand(t *testing.T, cmds ...string) {
	t.Helper()
	c := l.dial(t, model.PlatformOnyx)
	defer c.Close()
	for _, cmd := range append([]string{"configure terminal"}, cmds...) {
		if out, err := c.Send(cmd); err != nil || strings.Contains(out, "%") {
			t.Fatalf("%s: %v %q", cmd, err, out)
		}
	}
	if err := c.Home(); err != nil {
		t.Fatal(err)
	}
}

// onyxApplied returns the lines a push sent after its checkpoint, up to
// leaving configuration mode: the change itself.
func onyxApplied(commands []string) []string {
	i := slices.IndexFunc(commands, func(c string) bool { return strings.HasPrefix(c, "configuration write to fabricc-pre-") })
	if i < 0 {
		return nil
	}
	var out []string
	for _, c := range commands[i+1:] {
		if strings.HasPrefix(c, "(") {
			break
		}
		out = append(out, c)
	}
	return out
}
