package push

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/push/verify"
	"github.com/fabricc/fabricc/sim"
)

// TestCatalogModel reads the catalogue's model out of what switches
// print: EOS modelName with Arista's prefix and a suffix, NVIDIA part
// numbers and ONIE platform names, and none where the text names no
// model, or two.
func TestCatalogModel(t *testing.T) {
	for _, tc := range []struct{ printed, want string }{
		{"DCS-7050CX3-32S", "7050CX3-32S"},
		{"dcs-7050sx3-48yc8-f", "7050SX3-48YC8"},
		{"DCS-7280CR3-32P4", "7280CR3-32P4"},
		{"DCS-7280CR3K-32P4", "7280CR3K-32P4"},
		{"SN2700", "SN2700"},
		{"MSN2700-CS2F", "SN2700"},
		{"MSN3700-VS2F", "SN3700"},
		{"MSN3700C-CS2F", "SN3700C"},
		{"x86_64-mlnx_msn2700-r0", "SN2700"},
		{"vx", ""},
		{"BLUEFIELD", ""},
		{"CCS-720XP-48ZC2-F", ""},
		{"MSN27000", ""},
		{"ASN2700", ""},
		{"SN2700 or SN3700", ""},
		{"", ""},
	} {
		if got := catalogModel(tc.printed); got != tc.want {
			t.Errorf("catalogModel(%q) = %q, want %q", tc.printed, got, tc.want)
		}
	}
}

// TestEOSAirflowSuffix: a real Arista box's modelName ends with its
// airflow, "-R" or "-F" (napalm's EOS mock test_get_environment/
// issue810_7010t/show_version.json: "modelName": "DCS-7010T-48-R";
// ntc-templates arista_eos_show_version2.raw: "Arista CCS-720XP-24ZY4-F"),
// which the fabric's model, named without it, matches; a box of another
// model with a suffix is still refused, naming both.
func TestEOSAirflowSuffix(t *testing.T) {
	for _, tc := range []struct{ declared, printed, got string }{
		{"7050SX3-48YC8", "DCS-7050SX3-48YC8-R", ""},
		{"7050SX3-48YC8", "DCS-7050SX3-48YC8-F", ""},
		{"DCS-7280CR3-32P4", "DCS-7280CR3-32P4-R", ""},
		{"7050SX3-48YC8", "DCS-7050SX3-48YC12-R", "7050SX3-48YC12"},
		{"7280CR3-32P4", "DCS-7280CR3K-32P4-F", "7280CR3K-32P4"},
		{"7050CX3-32S", "DCS-7060CX-32S-R", "7060CX-32S"},
	} {
		note, err := modelCheck(tc.declared, tc.printed, "show version | json")
		var mm *modelMismatch
		switch {
		case note != "":
			t.Errorf("modelCheck(%q, %q): note %q, want it compared", tc.declared, tc.printed, note)
		case tc.got == "" && err != nil:
			t.Errorf("modelCheck(%q, %q): %v, want the same model", tc.declared, tc.printed, err)
		case tc.got != "" && (!errors.As(err, &mm) || mm.got != tc.got || mm.printed != tc.printed):
			t.Errorf("modelCheck(%q, %q): %v, want refused as a %s", tc.declared, tc.printed, err, tc.got)
		}
	}
}

// TestOnyxInventoryLayout: push reads the CHASSIS row's part number in
// the columns of a real Onyx 3.9.2504 `show inventory`, whose header
// oxidized's model test data recorded (ytti/oxidized spec/model/data/
// mlnxos#Onyx_3.9.2504#simulation.yaml):
//
//	-----------------------------------------------------------------------------
//	Module           Part Number        Serial Number        Asic Rev.    HW Rev.
//	-----------------------------------------------------------------------------
//
// (that session printed no rows: the row here is the simulator's), and
// compares it with the fabric's model: the same model passes, another
// is refused.
func TestOnyxInventoryLayout(t *testing.T) {
	const rule = "-----------------------------------------------------------------------------\n"
	out := rule + "Module           Part Number        Serial Number        Asic Rev.    HW Rev.\n" + rule +
		"CHASSIS          MSN2700-CS2F       MT0000X00000         N/A          A1\n" +
		"MGMT             MSN2700-CS2F       MT0000X00000         0            A1\n"
	printed := onyxModelRead.Parse(out)
	if printed != "MSN2700-CS2F" {
		t.Fatalf("show inventory read as %q, want the CHASSIS part number MSN2700-CS2F", printed)
	}
	if note, err := modelCheck("SN2700", printed, "show inventory"); note != "" || err != nil {
		t.Errorf("an SN2700 fabric on this switch: %q, %v; want no refusal and no note", note, err)
	}
	var mm *modelMismatch
	if _, err := modelCheck("SN3700C", printed, "show inventory"); !errors.As(err, &mm) || mm.got != "SN2700" {
		t.Errorf("an SN3700C fabric on this switch: %v, want refused as an SN2700", err)
	}
}

// TestModelReaders reads the model out of each platform's output as
// the OS prints it.
func TestModelReaders(t *testing.T) {
	inventory := "------------------------------------------------------------\n" +
		"Module     Part Number              Serial Number\n" +
		"------------------------------------------------------------\n" +
		"CHASSIS    MSN2700-CS2F             MT1514X08201\n" +
		"MGMT       MSN2700-CS2F             MT1514X08201\n"
	for _, tc := range []struct {
		m         hwModel
		out, want string
	}{
		{eosModelRead, `{"mfgName": "Arista", "modelName": "DCS-7050CX3-32S", "version": "4.32.2F"}`, "DCS-7050CX3-32S"},
		{eosModelRead, "% Invalid input\n", ""},
		{onyxModelRead, inventory, "MSN2700-CS2F"},
		{onyxModelRead, "CHASSIS    SN2700   MSN2700-CS2F   MT1514X08201\n", "SN2700"},
		{onyxModelRead, "MGMT       MSN2700-CS2F             MT1514X08201\n", ""},
		{nvueModelRead, `[{"header": {"model": "vx", "nvue-api-version": "nvue_v1", "rev-id": 1.0, "version": "Cumulus Linux 5.15.0"}}, {"set": {}}]`, "vx"},
		{nvueModelRead, `[{"set": {}}]`, ""},
	} {
		if got := tc.m.Parse(tc.out); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.m.Command, got, tc.want)
		}
	}
}

// TestModelCheckNotes: a model the switch does not print, or that the
// catalogue does not know, is not refused: a note says it was not
// compared, and push puts it above a diff; a file that declares no
// model is not compared.
func TestModelCheckNotes(t *testing.T) {
	for _, tc := range []struct{ declared, printed, note string }{
		{"SN2700", "vx", `the switch's hardware model was not compared with the fabric's SN2700: nv config show prints "vx", which is no model fabricc knows`},
		{"SN2700", "", "the switch's hardware model was not compared with the fabric's SN2700: nv config show printed none"},
		{"SN2700", "x\x1b[2J", `the switch's hardware model was not compared with the fabric's SN2700: nv config show prints "x\x1b[2J", which is no model fabricc knows`},
		{"hardware not declared", "SN3700", ""},
		{"SN2700", "SN2700", ""},
	} {
		note, err := modelCheck(tc.declared, tc.printed, "nv config show")
		want := strings.ReplaceAll(tc.note, "\x1b", `\x1b`)
		if err != nil || note != want {
			t.Errorf("modelCheck(%q, %q) = %q, %v; want %q", tc.declared, tc.printed, note, err, want)
		}
	}
	if got := withNote("n", "+x\n"); got != "# note: n\n+x\n" {
		t.Errorf("withNote = %q", got)
	}
	if got := withNote("n", ""); got != "" {
		t.Errorf("withNote on no change = %q, want none: nothing to change", got)
	}
}

// TestModelMismatch: a switch of another model is one *modelMismatch,
// whose refusal (push, dry run), note and difference (verify) name the
// fabric's model, the switch's and what it printed, where.
func TestModelMismatch(t *testing.T) {
	_, err := modelCheck("SN3700C", " MSN2100-CS2F\x1b[2J ", "show inventory")
	var mm *modelMismatch
	if !errors.As(err, &mm) {
		t.Fatalf("modelCheck: %v, want a *modelMismatch", err)
	}
	const refusal = "wrong hardware model: the fabric says SN3700C, the switch is an SN2100 (show inventory: MSN2100-CS2F\\x1b[2J); " +
		"the configuration is computed for the fabric's model (buffers, headroom, ports): edit model in the fabric, or push after the replacement; nothing was changed"
	if got := err.Error(); got != refusal {
		t.Errorf("refusal:\n%s\nwant\n%s", got, refusal)
	}
	if got, want := mm.Note(), "the fabric says SN3700C, the switch is an SN2100: edit model in the fabric, or push after the replacement"; got != want {
		t.Errorf("note %q, want %q", got, want)
	}
	want := verify.Difference{Device: "leaf1", Field: "hardware model", Intended: "SN3700C", Actual: "SN2100 (show inventory: MSN2100-CS2F\x1b[2J)"}
	if got := mm.Difference("leaf1"); got != want {
		t.Errorf("difference %+v, want %+v", got, want)
	}
}

// TestPushRefusesAnotherModel: a fabric whose switch names another
// hardware model than the one the switch is (a replacement edited into
// the fabric before the new box is racked, rmig #5) is refused by push
// and by the dry run before anything is sent, naming both models, what
// the switch printed and the fix; verify of the switch, pushed with the
// fabric of its own model, against that fabric is a mismatch whose
// difference is the model. The simulators report the model they were
// started for, so the fabric of their own model pushes and verifies.
func TestPushRefusesAnotherModel(t *testing.T) {
	const fix = "; the configuration is computed for the fabric's model (buffers, headroom, ports): " +
		"edit model in the fabric, or push after the replacement; nothing was changed"
	for _, tc := range []struct {
		platform   model.Platform
		old, new   string // the switch's model (the tutorial's), the fabric's
		printed    string // what the switch prints, with where
		want, note string
	}{
		{model.PlatformCumulus, "SN2100", "SN3700", "nv config show -o json: SN2100",
			"wrong hardware model: the fabric says SN3700, the switch is an SN2100 (nv config show -o json: SN2100)" + fix,
			"the fabric says SN3700, the switch is an SN2100: edit model in the fabric, or push after the replacement"},
		{model.PlatformOnyx, "SN2100", "SN3700C", "show inventory: MSN2100-CS2F",
			"wrong hardware model: the fabric says SN3700C, the switch is an SN2100 (show inventory: MSN2100-CS2F)" + fix,
			"the fabric says SN3700C, the switch is an SN2100: edit model in the fabric, or push after the replacement"},
		{model.PlatformEOS, "7050CX3-32S", "7280CR3-32P4", "show version | json: DCS-7050CX3-32S-R",
			"wrong hardware model: the fabric says 7280CR3-32P4, the switch is a 7050CX3-32S (show version | json: DCS-7050CX3-32S-R)" + fix,
			"the fabric says 7280CR3-32P4, the switch is a 7050CX3-32S: edit model in the fabric, or push after the replacement"},
	} {
		t.Run(string(tc.platform), func(t *testing.T) {
			dir := tutorialOn(t, tc.platform, 3)
			f, set := buildExample(t, dir)
			sw := f.Switch("leaf1")
			if sw.Hardware.Model != tc.old {
				t.Fatalf("the tutorial's leaf1 is a %s, not a %s", sw.Hardware.Model, tc.old)
			}
			l := startLabWith(t, sw, func(*sim.Options) {})
			if r := l.run(t, ActionPush, f, sw, config(t, set, sw)); r.Status != StatusChanged || !r.Verified {
				t.Fatalf("push of the switch's own model: %s %q %v", r.Status, r.Error, r.Differences)
			}
			nf, nset := buildExample(t, withModel(t, dir, tc.old, tc.new))
			nsw := nf.Switch("leaf1")
			ncfg := config(t, nset, nsw)
			running := l.sim.Running()
			for _, action := range []string{ActionDiff, ActionPush} {
				r := l.run(t, action, nf, nsw, ncfg)
				if r.Status != StatusFailed || r.Error != "staging: "+tc.want || !r.NothingSent {
					t.Errorf("%s: %s %q (nothing sent %v), want failed with %q", action, r.Status, r.Error, r.NothingSent, "staging: "+tc.want)
				}
			}
			if l.sim.Running() != running {
				t.Error("the refused push changed the switch")
			}
			r := l.run(t, ActionVerify, nf, nsw, ncfg)
			want := verify.Difference{Device: "leaf1", Field: "hardware model", Intended: tc.new, Actual: tc.old + " (" + tc.printed + ")"}
			if r.Status != StatusMismatch || !slices.Contains(r.Differences, want) || !slices.Contains(r.Notes, tc.note) {
				t.Errorf("verify: %s %q, differences %v, notes %q; want mismatch with %v and note %q", r.Status, r.Error, r.Differences, r.Notes, want, tc.note)
			}
			if r := l.run(t, ActionVerify, f, sw, config(t, set, sw)); r.Status != StatusVerified {
				t.Errorf("verify against the switch's own model: %s %q %v", r.Status, r.Error, r.Differences)
			}
		})
	}
}

// withModel is a copy of the fabric in dir whose leaf1 is a model new
// instead of old.
func withModel(t *testing.T, dir, old, new string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "fabric.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(data), `model      = "`+old+`"`, `model      = "`+new+`"`, 1)
	if text == string(data) {
		t.Fatalf("no model %q in the fabric", old)
	}
	out := t.TempDir()
	if err := os.WriteFile(filepath.Join(out, "fabric.hcl"), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestWrongModelRefusedFirst: a switch of another model that another
// refusal also applies to (a line that leaves the configure session,
// a release across a boundary of fabricc's NVUE file) is refused for
// its model: on the wrong box nothing else about it matters. Each other
// refusal is first shown to apply on its own, with the switch's model.
func TestWrongModelRefusedFirst(t *testing.T) {
	for _, tc := range []struct {
		platform model.Platform
		old, new string
		adjust   func(*sim.Options)
		session  bool   // a session line appended to the file
		other    string // the other refusal, alone
		want     string
	}{
		{model.PlatformEOS, "7050CX3-32S", "7280CR3-32P4", func(*sim.Options) {}, true,
			`line 0 of the configuration starts with "reload", a command that leaves the configure session or runs at once, which fabricc never renders; nothing was sent`,
			"wrong hardware model: the fabric says 7280CR3-32P4, the switch is a 7050CX3-32S (show version | json: DCS-7050CX3-32S-R)"},
		{model.PlatformOnyx, "SN2100", "SN3700C", func(*sim.Options) {}, true,
			`line 0 of the configuration starts with "reload", a command that leaves the configure session or runs at once, which fabricc never renders; nothing was sent`,
			"wrong hardware model: the fabric says SN3700C, the switch is an SN2100 (show inventory: MSN2100-CS2F)"},
		{model.PlatformCumulus, "SN2100", "SN3700", func(o *sim.Options) { o.OSVersion = "5.5.0" }, false,
			"the switch runs Cumulus Linux 5.5.0 (nv config show) but the fabric declares os_version 5.9.2, on the other side of 5.6 (qos pfc-watchdog) " +
				"and 5.9 (auto save at nv config apply), where fabricc's NVUE file changes: correct os_version, build again and push; nothing was changed",
			"wrong hardware model: the fabric says SN3700, the switch is an SN2100 (nv config show -o json: SN2100)"},
	} {
		t.Run(string(tc.platform), func(t *testing.T) {
			const fix = "; the configuration is computed for the fabric's model (buffers, headroom, ports): " +
				"edit model in the fabric, or push after the replacement; nothing was changed"
			dir := tutorialOn(t, tc.platform, 3)
			f, set := buildExample(t, dir)
			sw := f.Switch("leaf1")
			l := startLabWith(t, sw, tc.adjust)
			nf, nset := buildExample(t, withModel(t, dir, tc.old, tc.new))
			nsw := nf.Switch("leaf1")
			own, other := config(t, set, sw), config(t, nset, nsw)
			if tc.session {
				own, other = append(slices.Clip(own), "reload\n"...), append(slices.Clip(other), "reload\n"...)
			}
			other0 := strings.Replace(tc.other, "line 0 ", "line "+strconv.Itoa(strings.Count(string(own), "\n"))+" ", 1)
			if r := l.run(t, ActionPush, f, sw, own); r.Status != StatusFailed || r.Error != "staging: "+other0 {
				t.Fatalf("the switch's own model: %s %q, want failed with %q", r.Status, r.Error, "staging: "+other0)
			}
			for _, action := range []string{ActionDiff, ActionPush} {
				if r := l.run(t, action, nf, nsw, other); r.Status != StatusFailed || r.Error != "staging: "+tc.want+fix || !r.NothingSent {
					t.Errorf("%s: %s %q (nothing sent %v), want failed with %q", action, r.Status, r.Error, r.NothingSent, "staging: "+tc.want+fix)
				}
			}
		})
	}
}
