package push

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/push/verify"
	"github.com/fabricc/fabricc/sim"
)

// TestNVUEBeforeAfter: the lines nvueBeforeAfter gives for rmig #7's
// brownfield leaf (a hand description with a ticket number, the
// operator's PFC profile my-roce on swp1-6, lossless pool priorities
// 3,4): each value the push replaces or removes, with both sides; no
// line for what stays (swp2's profile, the DSCP entry that keeps its
// priority); a description's control characters escaped.
func TestNVUEBeforeAfter(t *testing.T) {
	applied := `[{"header": {"model": "SN2700"}}, {"set": {
  "interface": {
    "swp1": {"type": "swp", "description": "gpu01 HCA0 - ticket INC-1234", "link": {"mtu": 9216}},
    "swp1-6": {"qos": {"pfc": {"profile": "my-roce"}}},
    "swp9": {"description": "x\u001b[2Jy"}
  },
  "qos": {
    "mapping": {"default-global": {"dscp": {"24": {"switch-priority": 3}, "34": {"switch-priority": 4}}}},
    "traffic-pool": {"default-lossless": {"switch-priority": {"3": {}, "4": {}}}}
  }
}}]`
	unsets := []string{"qos traffic-pool default-lossless switch-priority", "interface swp1,swp9 description", "interface swp1,swp9 qos pfc"}
	patch := `- set:
    interface:
      swp1:
        type: swp
        description: to gpu01:roce0
        link:
          mtu: 9216
        qos:
          pfc:
            profile: pfc-sp3-100g-1m
    qos:
      mapping:
        default-global:
          dscp:
            "24":
              switch-priority: 3
            "34":
              switch-priority: 0
      traffic-pool:
        default-lossless:
          switch-priority:
            "3": {}
`
	conf, err := verify.ParseNVUEConfig([]byte(applied))
	if err != nil {
		t.Fatal(err)
	}
	got, err := nvueBeforeAfter(conf, unsets, []byte(patch))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`interface swp1 description: "gpu01 HCA0 - ticket INC-1234" -> "to gpu01:roce0"`,
		`interface swp1 qos pfc profile: "my-roce" -> "pfc-sp3-100g-1m"`,
		`interface swp9 description: "x\x1b[2Jy" -> (none)`,
		`qos mapping default-global dscp 34 switch-priority: 4 -> 0`,
		`qos traffic-pool default-lossless switch-priority 4: present -> (none)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if _, err := nvueBeforeAfter(conf, nil, []byte("- set: [")); err == nil || !strings.HasPrefix(err.Error(), "the NVUE patch: ") {
		t.Errorf("unreadable patch: %v", err)
	}
}

// TestNVUEBeforeAfterOnTheSimulator reads the simulator's applied
// configuration after an operator's hand changes and lists what the
// tutorial fabric's push replaces there, from the header's unsets and
// the patch as push sends them: the hand description and the operator's
// PFC profile on swp1, each with its old value, and nothing else (the
// values the push sets again as they were leave no line).
func TestNVUEBeforeAfterOnTheSimulator(t *testing.T) {
	f, set := buildExample(t, tutorialOn(t, model.PlatformCumulus, 3))
	sw := f.Switch("leaf1")
	cfg := config(t, set, sw)
	l := startLab(t, sw, sim.Faults{})
	if r := l.run(t, ActionPush, f, sw, cfg); r.Status != StatusChanged || !r.Verified {
		t.Fatalf("first push: %s %q %v", r.Status, r.Error, r.Differences)
	}
	l.hand(t,
		"nv set interface swp1 description 'gpu01 HCA0 - ticket INC-1234'",
		"nv set qos pfc my-roce switch-priority 3,4",
		"nv set interface swp1 qos pfc profile my-roce",
		"nv config apply -y", "nv config save")
	c := l.dial(t, model.PlatformCumulus)
	defer c.Close()
	out, err := c.Send("nv config show -o json")
	if err != nil {
		t.Fatal(err)
	}
	unsets, err := pushUnsets(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i := range unsets {
		unsets[i] = strings.TrimPrefix(unsets[i], "nv unset ")
	}
	conf, err := verify.ParseNVUEConfig([]byte(jsonPart(out)))
	if err != nil {
		t.Fatal(err)
	}
	got, err := nvueBeforeAfter(conf, unsets, cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`interface swp1 description: "gpu01 HCA0 - ticket INC-1234" -> "to node1:roce0"`,
		`interface swp1 qos pfc profile: "my-roce" -> "pfc-sp3-100g-2m"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
