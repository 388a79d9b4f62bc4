package push

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// withOverrides is the tutorial fabric on platform (tutorialOn) with
// `override` blocks added to its switch and, with uncable, without the
// cable of its first port and the host at its end.
func withOverrides(t *testing.T, platform model.Platform, overrides string, uncable bool) string {
	t.Helper()
	dir := tutorialOn(t, platform, 3)
	path := filepath.Join(dir, "fabric.hcl")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const end = "}\n\nhost \"node1\""
	if !strings.Contains(string(data), end) {
		t.Fatal("the tutorial fabric's switch block is not followed by host node1")
	}
	text := strings.Replace(string(data), end, overrides+end, 1)
	if uncable {
		i := strings.Index(text, "link {\n  a      = \"leaf1:")
		j := strings.Index(text[i:], "}\n")
		if i < 0 || j < 0 || !strings.Contains(text[i:i+j], "node1:roce0") {
			t.Fatal("the tutorial fabric's first link is not node1's")
		}
		text = text[:i] + text[i+j+2:]
		h, k := strings.Index(text, "host \"node1\" {"), strings.Index(text, "host \"node2\" {")
		if h < 0 || k < h {
			t.Fatal("the tutorial fabric has no host node1 before node2")
		}
		text = text[:h] + text[k:]
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

// portLines are the running configuration's lines about port, in order:
// for EOS the lines of its interface block, for Onyx the lines naming
// it, for NVUE the flattened YAML paths under interface: port:.
func portLines(platform model.Platform, running, port string) []string {
	var out []string
	switch platform {
	case model.PlatformEOS:
		in := false
		for _, l := range strings.Split(running, "\n") {
			switch {
			case l == "interface "+port:
				in = true
			case in && (l == "!" || !strings.HasPrefix(l, " ")):
				return out
			case in:
				out = append(out, strings.TrimSpace(l))
			}
		}
	case model.PlatformOnyx:
		re := regexp.MustCompile(`^interface ethernet (\S+) (.*)$`)
		for _, l := range strings.Split(running, "\n") {
			m := re.FindStringSubmatch(strings.TrimSpace(l))
			if m != nil && onyxCovers(m[1], port) {
				out = append(out, m[2])
			}
		}
	case model.PlatformCumulus:
		out = yamlPaths(running, "interface", port)
	}
	return out
}

// onyxCovers says whether an Onyx port or range ("1/1", "1/1-1/2")
// includes port.
func onyxCovers(spec, port string) bool {
	for _, l := range onyxExpand("interface ethernet " + spec + " x") {
		if l == "interface ethernet "+port+" x" {
			return true
		}
	}
	return false
}

// yamlPaths flattens the block-style YAML the NVUE simulator prints
// (two spaces an indent, as NVUE does, `key: value` or `key:`) under the keys path,
// one "a b c value" line per leaf.
func yamlPaths(doc string, path ...string) []string {
	var out, stack []string
	for _, l := range strings.Split(doc, "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		depth := (len(l) - len(strings.TrimLeft(l, " "))) / 2
		if depth > len(stack) {
			continue
		}
		stack = stack[:depth]
		key, value, _ := strings.Cut(strings.TrimSpace(l), ":")
		key, value = strings.Trim(key, `'"`), strings.TrimSpace(value)
		stack = append(stack, key)
		if len(stack) <= len(path) || strings.Join(stack[:len(path)], " ") != strings.Join(path, " ") {
			continue
		}
		if value != "" {
			out = append(out, strings.Join(stack[len(path):], " ")+" "+value)
		}
	}
	return out
}

// TestPushOverWhatAnEarlierFabricSet: a push merges into the running
// configuration, so what an earlier fabric set on a port and the current
// fabric no longer asks for must be taken away by the push itself. The
// earlier fabric shuts the first port and gives it a description; the
// current one leaves it up and uncabled, so without a description. After
// both pushes, the first port's lines on the simulated switch are listed
// here (no shutdown, no description), and each port's are exactly what
// pushing the current fabric alone to a new switch leaves; a second push
// changes nothing.
func TestPushOverWhatAnEarlierFabricSet(t *testing.T) {
	const ecn = "random-detect ecn minimum-threshold 150000 bytes maximum-threshold 1500000 bytes max-mark-probability 100"
	eosPort := []string{"mtu 9214", "speed forced 100gfull", "switchport access vlan 10", "qos trust dscp",
		"!", "uc-tx-queue 0", "no priority", "bandwidth percent 50", ecn, "random-detect ecn count",
		"!", "uc-tx-queue 3", "no priority", "bandwidth percent 50", "bandwidth guaranteed percent 1", ecn, "random-detect ecn count",
		"!", "uc-tx-queue 6", "!",
		"priority-flow-control on",
		"priority-flow-control priority 0 drop", "priority-flow-control priority 1 drop", "priority-flow-control priority 2 drop",
		"priority-flow-control priority 3 no-drop",
		"priority-flow-control priority 4 drop", "priority-flow-control priority 5 drop", "priority-flow-control priority 6 drop",
		"priority-flow-control priority 7 drop",
		"priority-flow-control pause watchdog"}
	for _, tc := range []struct {
		platform model.Platform
		ports    [2]string
		want     []string // the first port's lines after both pushes
	}{
		{model.PlatformEOS, [2]string{"Ethernet1/1", "Ethernet2/1"}, eosPort},
		{model.PlatformOnyx, [2]string{"1/1", "1/2"}, []string{
			"speed 100G force", "mtu 9216 force",
			"ingress-buffer iPort.pg0 bind switch-priority 0 1 2 4 5 6 7",
			"ingress-buffer iPort.pg3 bind switch-priority 3",
			"ingress-buffer iPort.pg0 map pool iPool0 type lossy reserved 10240 shared alpha 8",
			"ingress-buffer iPort.pg3 map pool iPool1 type lossless reserved 96256 xoff 19456 xon 19456 shared alpha 2",
			"egress-buffer ePort.tc0 map pool ePool0 reserved 9216 shared alpha 8",
			"egress-buffer ePort.tc3 map pool ePool1 reserved 1500 shared alpha inf",
			"egress-buffer ePort.tc6 map pool ePool0 reserved 9216 shared alpha 8",
			"switchport access vlan 10",
			"dcb priority-flow-control mode on force", "pfc-wd",
			"qos trust L3",
			"traffic-class 0 bind switch-priority 1 2 4 5 7",
			"traffic-class 0 dcb ets wrr 50", "traffic-class 3 dcb ets wrr 50", "traffic-class 6 dcb ets strict",
			"traffic-class 0 congestion-control ecn minimum-absolute 147 maximum-absolute 1465",
			"traffic-class 3 congestion-control ecn minimum-absolute 147 maximum-absolute 1465",
		}},
		{model.PlatformCumulus, [2]string{"swp1", "swp2"}, []string{
			"bridge domain br_default access 10",
			"link mtu 9216", "link speed 100G",
			"qos pfc profile pfc-sp3-100g-5m",
			"qos pfc-watchdog state enable",
			"type swp",
		}},
	} {
		p := tc.platform
		t.Run(string(p), func(t *testing.T) {
			p1 := tc.ports[0]
			fa, seta := buildExample(t, withOverrides(t, p, `
  override "`+p1+`" {
    shutdown    = true
    description = "old uplink"
  }
`, false))
			fb, setb := buildExample(t, withOverrides(t, p, "", true))
			swa, swb := fa.Switch("leaf1"), fb.Switch("leaf1")
			l := startLab(t, swa, sim.Faults{})
			if r := l.run(t, ActionPush, fa, swa, config(t, seta, swa)); r.Status != StatusChanged || !r.Verified {
				t.Fatalf("push of the earlier fabric: %s %q %v", r.Status, r.Error, r.Differences)
			}
			if got := portLines(p, l.sim.Running(), p1); !containsAll(got, p, "old uplink") {
				t.Fatalf("the earlier fabric's push did not shut %s with its description:\n%s", p1, strings.Join(got, "\n"))
			}
			if r := l.run(t, ActionPush, fb, swb, config(t, setb, swb)); r.Status != StatusChanged || !r.Verified {
				t.Fatalf("push of the current fabric: %s %q %v", r.Status, r.Error, r.Differences)
			}
			if r := l.run(t, ActionPush, fb, swb, config(t, setb, swb)); r.Status != StatusUnchanged {
				t.Errorf("second push of the current fabric: %s %q, want unchanged", r.Status, r.Error)
			}
			fresh := startLab(t, swb, sim.Faults{})
			if r := fresh.run(t, ActionPush, fb, swb, config(t, setb, swb)); r.Status != StatusChanged {
				t.Fatalf("push of the current fabric to a fresh switch: %s %q", r.Status, r.Error)
			}
			for i, port := range tc.ports {
				got := portLines(p, l.sim.Running(), port)
				if i == 0 && strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
					t.Errorf("%s after both pushes:\n%s\nwant:\n%s", port, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
				}
				if alone := portLines(p, fresh.sim.Running(), port); strings.Join(got, "\n") != strings.Join(alone, "\n") {
					t.Errorf("%s after both pushes differs from the current fabric pushed alone:\n%s\nalone:\n%s", port, strings.Join(got, "\n"), strings.Join(alone, "\n"))
				}
			}
		})
	}
}

// containsAll says whether a port's lines hold its shutdown and the
// description desc, in the platform's words.
func containsAll(lines []string, p model.Platform, desc string) bool {
	text := strings.Join(lines, "\n")
	switch p {
	case model.PlatformCumulus:
		return strings.Contains(text, "link state down") && strings.Contains(text, "description "+desc)
	case model.PlatformOnyx:
		return strings.Contains(text, "\nshutdown\n") && strings.Contains(text, "description "+desc)
	}
	return strings.Contains(text, "shutdown") && strings.Contains(text, "description "+desc)
}

// TestPushPortWithoutPFC: an uncabled port whose PFC the fabric turns
// off (the compiler refuses it on a port facing RoCE) still
// gets the fabric's ECN marking on every platform (EOS writes its
// tx-queues on every port, Onyx its congestion-control on every port,
// NVUE one congestion-control profile for the switch), so verification
// expects it there too; it expected ECN only where PFC is on, and every
// push of such a fabric failed its verification and rolled back.
func TestPushPortWithoutPFC(t *testing.T) {
	for _, tc := range []struct {
		platform model.Platform
		port     string
	}{{model.PlatformEOS, "Ethernet1/1"}, {model.PlatformOnyx, "1/1"}, {model.PlatformCumulus, "swp1"}} {
		p := tc.platform
		t.Run(string(p), func(t *testing.T) {
			f, set := buildExample(t, withOverrides(t, p, `
  override "`+tc.port+`" {
    pfc = false
  }
`, true))
			sw := f.Switch("leaf1")
			if port := sw.Port(tc.port); port == nil || len(port.PFCPriorities) != 0 {
				t.Fatalf("%s: the fabric does not turn PFC off there", tc.port)
			}
			l := startLab(t, sw, sim.Faults{})
			if r := l.run(t, ActionPush, f, sw, config(t, set, sw)); r.Status != StatusChanged || !r.Verified {
				t.Fatalf("push: %s %q %v", r.Status, r.Error, r.Differences)
			}
			if r := l.run(t, ActionVerify, f, sw, config(t, set, sw)); r.Status != StatusVerified {
				t.Errorf("verify: %s %q %v", r.Status, r.Error, r.Differences)
			}
		})
	}
}

// TestPushStopsMarking: a class an earlier fabric made mark ECN and the
// current one does not has its marking removed from every port of an
// Onyx switch (`no traffic-class 6 congestion-control`, as the
// mellanox.onyx onyx_traffic_class module sends for state disabled), and
// a second push changes nothing.
func TestPushStopsMarking(t *testing.T) {
	dir := tutorialOn(t, model.PlatformOnyx, 3)
	path := filepath.Join(dir, "fabric.hcl")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const plain = "qos {\n  profile = \"nvidia-roce\"\n}\n"
	if !strings.Contains(string(data), plain) {
		t.Fatal("the tutorial fabric's qos block is not the plain profile")
	}
	marking := strings.Replace(string(data), plain, "qos {\n  profile = \"nvidia-roce\"\n  class \"cnp\" {\n    ecn {\n      min = \"100KB\"\n      max = \"200KB\"\n    }\n  }\n}\n", 1)
	markDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(markDir, "fabric.hcl"), []byte(marking), 0o600); err != nil {
		t.Fatal(err)
	}
	fa, seta := buildExample(t, markDir)
	fb, setb := buildExample(t, dir)
	swa, swb := fa.Switch("leaf1"), fb.Switch("leaf1")
	l := startLab(t, swa, sim.Faults{})
	if r := l.run(t, ActionPush, fa, swa, config(t, seta, swa)); r.Status != StatusChanged || !r.Verified {
		t.Fatalf("push of the marking fabric: %s %q %v", r.Status, r.Error, r.Differences)
	}
	if !strings.Contains(l.sim.Running(), "traffic-class 6 congestion-control ecn") {
		t.Fatal("the marking fabric's push left no ECN on traffic class 6")
	}
	if r := l.run(t, ActionPush, fb, swb, config(t, setb, swb)); r.Status != StatusChanged || !r.Verified {
		t.Fatalf("push of the current fabric: %s %q %v", r.Status, r.Error, r.Differences)
	}
	if strings.Contains(l.sim.Running(), "traffic-class 6 congestion-control") {
		t.Errorf("traffic class 6 still marks after the current fabric's push:\n%s", l.sim.Running())
	}
	if r := l.run(t, ActionPush, fb, swb, config(t, setb, swb)); r.Status != StatusUnchanged {
		t.Errorf("second push: %s %q, want unchanged", r.Status, r.Error)
	}
}

// TestVerifyNotesAPortLeftLossless: a port removed from the fabric keeps
// the PFC an earlier push gave it (push changes only the ports the
// fabric describes); verify says so in a note, and still verifies.
func TestVerifyNotesAPortLeftLossless(t *testing.T) {
	for _, tc := range []struct {
		platform      model.Platform
		ports, second string
		note          string
	}{
		{model.PlatformCumulus, `port "swp1-2"`, `port "swp2"`, "not in the fabric but running PFC: swp1 (priority 3); "},
		{model.PlatformOnyx, `port "1/1-1/2"`, `port "1/2"`, "not in the fabric but running PFC: 1/1 (priority 3); "},
	} {
		p := tc.platform
		t.Run(string(p), func(t *testing.T) {
			fa, seta := buildExample(t, tutorialOn(t, p, 3))
			dir := withOverrides(t, p, "", true)
			path := filepath.Join(dir, "fabric.hcl")
			data, err := os.ReadFile(path)
			if err != nil || !strings.Contains(string(data), tc.ports) {
				t.Fatalf("the fabric has no %s: %v", tc.ports, err)
			}
			if err := os.WriteFile(path, []byte(strings.Replace(string(data), tc.ports, tc.second, 1)), 0o600); err != nil {
				t.Fatal(err)
			}
			fb, setb := buildExample(t, dir)
			swa, swb := fa.Switch("leaf1"), fb.Switch("leaf1")
			l := startLab(t, swa, sim.Faults{})
			if r := l.run(t, ActionPush, fa, swa, config(t, seta, swa)); r.Status != StatusChanged || !r.Verified {
				t.Fatalf("push of the two-port fabric: %s %q %v", r.Status, r.Error, r.Differences)
			}
			if r := l.run(t, ActionPush, fb, swb, config(t, setb, swb)); !r.Verified || r.Status != StatusChanged {
				t.Fatalf("push of the one-port fabric: %s %q %v", r.Status, r.Error, r.Differences)
			}
			r := l.run(t, ActionVerify, fb, swb, config(t, setb, swb))
			if r.Status != StatusVerified {
				t.Fatalf("verify: %s %q %v", r.Status, r.Error, r.Differences)
			}
			if len(r.Notes) != 1 || !strings.HasPrefix(r.Notes[0], tc.note+"that reserves buffer") {
				t.Errorf("notes %q, want one starting %q", r.Notes, tc.note)
			}
		})
	}
}
