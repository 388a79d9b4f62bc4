package push

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/push/verify"
	"github.com/fabricc/fabricc/sim"
)

// TestReadOncePerStep (review mrn 4): a push reads the switch once
// before staging and once to verify; Stage takes what it reads again
// (Onyx `show running-config` and `show roce`, NVUE `nv config show -o
// json`) from the read before, and the model check takes NVUE's model
// from it, so each is sent twice in a push, not three or four times;
// verify sends NVUE's once for its state and its model.
func TestReadOncePerStep(t *testing.T) {
	f, set := demo(t)
	sends := map[model.Platform]map[string][2]int{ // command: sent by push, by verify
		model.PlatformEOS:     {"show running-config | json": {2, 1}, "show running-config": {2, 1}, "show version | json": {1, 1}},
		model.PlatformOnyx:    {"show running-config": {2, 1}, "show roce": {2, 1}, "show inventory": {1, 1}},
		model.PlatformCumulus: {"nv config show -o json": {2, 1}},
	}
	for _, sw := range platformsUnderTest(f) {
		t.Run(string(sw.Platform), func(t *testing.T) {
			l := startLab(t, sw, sim.Faults{})
			cfg := config(t, set, sw)
			push := l.run(t, ActionPush, f, sw, cfg)
			if push.Status != StatusChanged || !push.Verified || push.Diff == "" {
				t.Fatalf("push: %s %q %v", push.Status, push.Error, push.Differences)
			}
			ver := l.run(t, ActionVerify, f, sw, cfg)
			if ver.Status != StatusVerified {
				t.Fatalf("verify: %s %q %v", ver.Status, ver.Error, ver.Differences)
			}
			for cmd, n := range sends[sw.Platform] {
				if got := count(push.Commands, cmd); got != n[0] {
					t.Errorf("push sent %q %d times, want %d: %q", cmd, got, n[0], push.Commands)
				}
				if got := count(ver.Commands, cmd); got != n[1] {
					t.Errorf("verify sent %q %d times, want %d: %q", cmd, got, n[1], ver.Commands)
				}
			}
		})
	}
}

// count is how many of cmds are cmd.
func count(cmds []string, cmd string) int {
	n := 0
	for _, c := range cmds {
		if c == cmd {
			n++
		}
	}
	return n
}

// TestStageTakesTheDecodedRead (review mrr 2): Stage's applied NVUE
// configuration is the read before staging as that read decoded it
// (State.NVUE), not its text decoded again; the kept answer is used up
// with it, so a second read goes to the switch and is decoded there. A
// read that did not parse leaves Stage to read and decode the text.
func TestStageTakesTheDecodedRead(t *testing.T) {
	before, err := verify.ParseNVUE([]byte(`[{"header": {"version": "Cumulus Linux 5.9.2"}}, {"set": {"interface": {"swp1": {"type": "swp"}}}}]`))
	if err != nil {
		t.Fatal(err)
	}
	switchSays := `[{"header": {"version": "Cumulus Linux 5.15.0"}}, {"set": {}}]`
	k := &kept{Conn: cmdConn{answers: map[string]string{nvueShow: switchSays}},
		outs: map[string]string{nvueShow: "the kept text, which is not decoded again"}, nvue: before.NVUE}
	got, err := appliedConfig(k)
	if err != nil || got != before.NVUE {
		t.Fatalf("appliedConfig with a kept read = %p, %v; want the read's own decoding %p", got, err, before.NVUE)
	}
	if _, left := k.outs[nvueShow]; left {
		t.Error("the kept answer is still kept after Stage took the decoded read")
	}
	again, err := appliedConfig(k)
	if v, _ := again.Header(); err != nil || v != "Cumulus Linux 5.15.0" {
		t.Errorf("second read: %q, %v; want the switch's answer decoded", v, err)
	}
	k = &kept{Conn: k.Conn, outs: map[string]string{nvueShow: switchSays}}
	if got, err := appliedConfig(k); err != nil || got == nil || len(k.outs) != 0 {
		t.Errorf("a kept read without its decoding: %v, %v, kept %q; want the kept text decoded", got, err, k.outs)
	}
}

// TestDecodedReadNotKept (review mrt 4): the decoded NVUE document goes
// to Stage and nowhere else; the States a push keeps until every switch
// of a gated push is done (the read before staging, the read-back) do
// not hold it (131 KB against 44 KB per State for a golden leaf).
func TestDecodedReadNotKept(t *testing.T) {
	before, err := verify.ParseNVUE([]byte(`[{"header": {"version": "Cumulus Linux 5.9.2"}}, {"set": {}}]`))
	if err != nil || before.NVUE == nil {
		t.Fatalf("ParseNVUE: %v, decoded %v", err, before.NVUE)
	}
	doc := before.NVUE
	d := &device{conn: &closer{Conn: cmdConn{}}, outs: map[string]string{nvueShow: "kept"}, before: before}
	k, ok := d.keptReads().(*kept)
	if !ok || k.nvue != doc || d.before.NVUE != nil {
		t.Errorf("keptReads: Stage's document %p (want %p), the State still holds %p", k.nvue, doc, d.before.NVUE)
	}
}

// TestAppliedConfigUnreadable (review mrt 7): an `nv config show -o json`
// answer that is not JSON fails Stage's read with the command named, not
// an empty configuration that would let the foreign-QoS and bond checks
// pass.
func TestAppliedConfigUnreadable(t *testing.T) {
	c := cmdConn{answers: map[string]string{nvueShow: "Error: the configuration is being applied"}}
	conf, err := appliedConfig(c)
	if conf != nil || err == nil || !strings.HasPrefix(err.Error(), "nv config show -o json: ") {
		t.Errorf("appliedConfig of a non-JSON answer = %v, %v; want an error naming nv config show -o json", conf, err)
	}
}

// TestModelFromTheDecodedRead (review mrt 5): the model check takes
// NVUE's model from the read's own decoding of `nv config show -o json`
// (State.NVUE's header), so a read is decoded once: the push's read
// before staging and verify's read each parse the read-back once and
// the model's text parser (hwModel.Parse, a second decode) runs not at
// all. A read whose decoding failed leaves the model to that parser.
func TestModelFromTheDecodedRead(t *testing.T) {
	v := *Vendors[model.PlatformCumulus]
	var reads, modelParses int
	parse := v.Parse
	v.Parse = func(outs []string) (*verify.State, error) { reads++; return parse(outs) }
	v.Model.Parse = func(out string) string { modelParses++; return nvueModelRead.Parse(out) }
	show := `[{"header": {"model": "vx", "version": "Cumulus Linux 5.9.2"}}, {"set": {"interface": {"swp1": {"type": "swp"}}}}]`
	sw := &model.Switch{Name: "leaf1", Hardware: model.Hardware{Model: "SN2700"}}
	d := &device{t: Target{Switch: sw}, v: &v, res: &DeviceResult{},
		conn: &closer{Conn: cmdConn{answers: map[string]string{nvueShow: show, "nv show interface -o json": "{}", "nv show qos pfc -o json": "{}"}}}}
	if _, err := d.readState(); err != nil {
		t.Fatal(err)
	}
	note, err := d.modelNote()
	want := `the switch's hardware model was not compared with the fabric's SN2700: nv config show -o json prints "vx", which is no model fabricc knows`
	if err != nil || note != want {
		t.Errorf("modelNote = %q, %v; want %q", note, err, want)
	}
	if reads != 1 || modelParses != 0 {
		t.Errorf("one read and its model check decoded the read %d times and parsed the model from its text %d times; want 1 and 0", reads, modelParses)
	}
	d.keptReads()
	if _, err := d.readState(); err != nil {
		t.Fatal(err)
	}
	if diffs := d.modelDifference(); len(diffs) != 0 || reads != 2 || modelParses != 0 {
		t.Errorf("verify's read: differences %v, %d decodes, %d model parses; want none, 2 and 0", diffs, reads, modelParses)
	}

	d.conn = &closer{Conn: cmdConn{answers: map[string]string{nvueShow: show, "nv show interface -o json": "not json", "nv show qos pfc -o json": "{}"}}}
	if _, err := d.readState(); err == nil {
		t.Fatal("a read-back whose interfaces are not JSON parsed")
	}
	if note, err := d.modelNote(); err != nil || note != want || modelParses != 1 {
		t.Errorf("after a failed decoding: modelNote = %q, %v, %d model parses; want %q from the kept text, 1", note, err, modelParses, want)
	}
}
