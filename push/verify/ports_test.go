package verify

import (
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// portSettings is what the port readers fill of a port's admin state,
// speed, link pause and description.
type portSettings struct {
	shutdown    AdminDown
	speed       Mbps
	pause       bool
	description string
}

func settingsOf(p *Port) portSettings {
	if p == nil {
		return portSettings{description: "(no port)"}
	}
	return portSettings{p.Shutdown, p.Speed, p.LinkPause, p.Description}
}

// TestParseEOSPortSettings reads interface blocks as EOS prints them:
// Ethernet3 is a public running-config (an EOS spine's, "description #
// DC01-LSW003 #" and "speed forced 40gfull" on a routed port), Ethernet1
// Arista AVD's rendered form (`no shutdown`, `speed forced 40gfull`),
// Ethernet4/5 the hand changes of r2 #7 (`shutdown`, `flowcontrol
// receive on`, `speed forced 10000full` in Mb/s, `speed 200g-4` with
// lanes, `speed auto`).
func TestParseEOSPortSettings(t *testing.T) {
	s := mustEOS(`interface Ethernet1
   description P2P_LINK_TO_SITE1-LSR1_Ethernet1
   no shutdown
   mtu 9178
   speed forced 40gfull
   no switchport
!
interface Ethernet3
   description # DC01-LSW003 #
   speed forced 40gfull
   no switchport
   ip address 10.255.253.204/31
!
interface Ethernet4
   shutdown
   flowcontrol receive on
   speed forced 10000full
!
interface Ethernet5
   flowcontrol send desired
   speed 200g-4
!
interface Ethernet6
   flowcontrol receive off
   speed auto
!
`)
	for port, want := range map[string]portSettings{
		"Ethernet1": {speed: 40000, description: "P2P_LINK_TO_SITE1-LSR1_Ethernet1"},
		"Ethernet3": {speed: 40000, description: "# DC01-LSW003 #"},
		"Ethernet4": {shutdown: true, speed: 10000, pause: true},
		"Ethernet5": {speed: 200000, pause: true},
		"Ethernet6": {},
	} {
		if got := settingsOf(s.Ports[port]); got != want {
			t.Errorf("%s: %+v, want %+v", port, got, want)
		}
	}
}

// TestParseOnyxPortSettings reads Onyx running-config lines: `speed 40G
// force` and a quoted description as a Mellanox spine prints them (HPE
// Cray CSM documentation, `show run int ethernet 1/1`, and its spine
// configuration sample `interface ethernet 1/1 description
// "sw-spine02-1/16"`), an unquoted one (Cray-HPE canu's sample), a range
// with 802.3x pause (NVIDIA's RoCE configuration guides type it as
// `interface ethernet 1/1-1/2 flowcontrol receive on force`) and
// `shutdown`.
func TestParseOnyxPortSettings(t *testing.T) {
	s := mustOnyx(`##
## Interface Ethernet configuration
##
   interface ethernet 1/1 speed 40G force
   interface ethernet 1/1 mtu 9216 force
   interface ethernet 1/1 description "sw-spine02-1/16"
   interface ethernet 1/2 speed 10G force
   interface ethernet 1/2 description TRUNK TO Dell7048
   interface ethernet 1/3-1/4 flowcontrol receive on force
   interface ethernet 1/4 shutdown
   interface ethernet 1/5 flowcontrol send off force
`)
	for port, want := range map[string]portSettings{
		"1/1": {speed: 40000, description: "sw-spine02-1/16"},
		"1/2": {speed: 10000, description: "TRUNK TO Dell7048"},
		"1/3": {pause: true},
		"1/4": {shutdown: true, pause: true},
		"1/5": {},
	} {
		if got := settingsOf(s.Ports[port]); got != want {
			t.Errorf("%s: %+v, want %+v", port, got, want)
		}
	}
}

// TestParseNVUEPortSettings reads `nv config show -o json` interfaces:
// `link speed`, `link state down` as the set member NVUE's YAML shows and
// as a plain value, `description`, and a `qos link-pause profile`
// attachment (on unless its profile turns both directions off; the
// built-in default-global is not in the configuration).
func TestParseNVUEPortSettings(t *testing.T) {
	s, err := ParseNVUE([]byte(`{"interface": {
	  "swp1": {"type": "swp", "link": {"speed": "25G", "state": {"down": {}}}, "description": "to gpu01:roce0"},
	  "swp2": {"type": "swp", "link": {"speed": "100G", "state": "down"}, "qos": {"link-pause": {"profile": "default-global"}}},
	  "swp3": {"type": "swp", "link": {"speed": "auto", "state": {"up": {}}}, "qos": {"link-pause": {"profile": "quiet"}}},
	  "swp4": {"type": "swp", "qos": {"link-pause": {"profile": "half"}}}},
	 "qos": {"link-pause": {"quiet": {"tx": "disable", "rx": "disabled"}, "half": {"tx": "enable", "rx": "disable"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	for port, want := range map[string]portSettings{
		"swp1": {shutdown: true, speed: 25000, description: "to gpu01:roce0"},
		"swp2": {shutdown: true, speed: 100000, pause: true},
		"swp3": {},
		"swp4": {pause: true},
	} {
		if got := settingsOf(s.Ports[port]); got != want {
			t.Errorf("%s: %+v, want %+v", port, got, want)
		}
	}
}

// TestSpeedMbps: the speed keywords of the three platforms.
func TestSpeedMbps(t *testing.T) {
	for in, want := range map[string]Mbps{"100gfull": 100000, "25gfull": 25000, "10000full": 10000, "1000full": 1000,
		"200g-4": 200000, "800g-8": 800000, "100G": 100000, "10M": 10, "auto": 0, "": 0, "fast": 0, "-1g": 0, "99999999999g": 0} {
		if got := speedMbps(in); got != want {
			t.Errorf("speedMbps(%q) = %d, want %d", in, got, want)
		}
	}
}

// TestComparePortSettings: each of the four settings is one difference
// in the platforms' words; a speed the model leaves to auto-negotiation
// is not compared; a description the switch sent is written escaped.
func TestComparePortSettings(t *testing.T) {
	f, sw := fabric("swp1")
	sw.Ports[0].SpeedMbps, sw.Ports[0].Description = 100000, "to gpu01:roce0"
	want := Expect(f, sw)
	got := Expect(f, sw)
	g := got.Ports["swp1"]
	g.Shutdown, g.Speed, g.LinkPause, g.Description = true, 25000, true, "evil\x1b[2J"
	var lines []string
	for _, d := range Compare("sw1", want, got) {
		lines = append(lines, d.String())
	}
	wantLines := []string{
		"sw1 swp1 admin state: intended up, actual down (shutdown)",
		"sw1 swp1 speed: intended 100G, actual 25G",
		"sw1 swp1 link pause (802.3x): intended off, actual on",
		`sw1 swp1 description: intended to gpu01:roce0, actual evil\x1b[2J`,
	}
	if !slices.Equal(lines, wantLines) {
		t.Errorf("differences:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(wantLines, "\n"))
	}
	g.Speed = 0
	if d := Compare("sw1", want, got); len(d) != 4 || !strings.Contains(d[1].String(), "actual not set (the switch's default)") {
		t.Errorf("no speed on the switch: %v", d)
	}
	sw.Ports[0].SpeedMbps = 0
	want = Expect(f, sw)
	g.Speed = 25000
	for _, d := range Compare("sw1", want, got) {
		if d.Field == "speed" {
			t.Errorf("a speed the model leaves to auto-negotiation is compared: %s", d)
		}
	}
}

// TestCompareLeavesUnusedTrafficClasses: the ETS and ECN of a traffic
// class no priority maps to are not compared and are noted once, with
// the number of ports; a used class is still compared.
func TestCompareLeavesUnusedTrafficClasses(t *testing.T) {
	f, sw := fabric("swp1")
	sw.Ports = append(sw.Ports, sw.Ports[0])
	sw.Ports[1].Name = "swp2"
	f.QoS.PriorityToTC = []int{0, 0, 0, 3, 0, 0, 6, 0}
	want := Expect(f, sw)
	got := Expect(f, sw)
	for _, n := range []string{"swp1", "swp2"} {
		got.Ports[n].ETS[1] = model.ETS{Mode: model.ETSWRR, BandwidthPercent: 20}
		got.Ports[n].ECN[1] = ECN{MinBytes: 102400, MaxBytes: 204800}
	}
	if d := Compare("sw1", want, got); len(d) != 0 {
		t.Errorf("differences in TC1, which no priority maps to: %v", d)
	}
	notes := Unowned(want, got)
	const note = "traffic classes no priority maps to keep an earlier fabric's settings: ECN TC1 min 100KB max 200KB (2 ports), ETS TC1 wrr 20% (2 ports); "
	if len(notes) != 1 || !strings.HasPrefix(notes[0], note) {
		t.Errorf("notes %q, want one starting %q", notes, note)
	}
	got.Ports["swp1"].ETS[3] = model.ETS{Mode: model.ETSWRR, BandwidthPercent: 30}
	if d := Compare("sw1", want, got); len(d) != 1 || d[0].Field != "ETS TC3 bandwidth" {
		t.Errorf("a used class's ETS: %v", d)
	}
}
