package verify

import (
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// nvueEgressSwitch is fabric("swp1") on Cumulus Linux release rel with
// the pools targets/cumulus sizes: ingress lossy 48 % and lossless 50 %,
// the lossless egress pool the whole buffer (`egress-pool 1 infinite
// true`) and the lossy egress pool 30 % (`egress-pool 0 memory-percent
// 30`, not traffic-pool default-lossy's 48).
func nvueEgressSwitch(rel string) (*model.Fabric, *model.Switch) {
	f, sw := fabric("swp1")
	sw.Platform, sw.OSVersion = model.PlatformCumulus, rel
	sw.Pools = []model.BufferPool{
		{Name: "lossy-in", Direction: "ingress", Type: "lossy", Percent: 48.3, Mode: "dynamic", Priorities: []int{0, 1, 2, 4, 5, 6, 7}},
		{Name: "lossless-in", Direction: "ingress", Type: "lossless", Percent: 50.8, Mode: "dynamic", Priorities: []int{3}},
		{Name: "lossy-out", Direction: "egress", Type: "lossy", Percent: 30, Mode: "dynamic"},
		{Name: "lossless-out", Direction: "egress", Type: "lossless", Percent: 100, Mode: "dynamic", Priorities: []int{3}},
	}
	return f, sw
}

// withEgress is nvueJSON with the pools of nvueEgressSwitch, the egress
// pools as abc, the advance-buffer-config object NVUE shows (`nv show qos
// advance-buffer-config -o json`, NVUE Command Reference, Show Commands,
// QoS: {"default-global": {"egress-pool": {"0": {"memory-percent": 100,
// "mode": "dynamic"}}}}); "" leaves advance-buffer-config out.
func withEgress(abc string) string {
	pools := `"traffic-pool": {"default-lossy": {"memory-percent": 48, "switch-priority": {"0,1,2,4,5,6,7": {}}},
	  "default-lossless": {"memory-percent": 50, "switch-priority": {"3": {}}}},`
	if abc != "" {
		pools += `"advance-buffer-config": {"default-global": ` + abc + `},`
	}
	return strings.Replace(nvueJSON, `"qos": {`, `"qos": {`+pools, 1)
}

// TestNVUEEgressPools: verification reads back the egress service pools
// fabricc writes under `qos advance-buffer-config default-global
// egress-pool` (egress-service-pool from 5.11) and reports one that
// differs, by pool ID, with what NVUE holds; before, egress pools were
// not read back at all, and a lossless egress pool left at its traffic
// pool's 51 % verified (rcum #4, the brief's finding 1).
func TestNVUEEgressPools(t *testing.T) {
	for _, tc := range []struct {
		name, rel, abc string
		want           []string
	}{
		{"as written", "5.9.2", `{"egress-pool": {"0": {"memory-percent": 30}, "1": {"infinite": true}}}`, nil},
		{"as written, NVUE's words", "5.9.2", `{"egress-pool": {"0": {"memory-percent": 30, "mode": "dynamic"}, "1": {"infinite": "true", "mode": "dynamic"}}}`, nil},
		{"5.11 service pools", "5.11.0", `{"egress-service-pool": {"0": {"memory-percent": 30}, "1": {"infinite": true}}}`, nil},
		{"lossless pool not infinite", "5.9.2", `{"egress-pool": {"0": {"memory-percent": 30}}}`,
			[]string{"sw1 egress pool 1: intended infinite, actual the traffic pool's memory-percent (neither infinite nor memory-percent set)"}},
		{"no advance-buffer-config", "5.9.2", "", []string{
			"sw1 egress pool 0: intended memory-percent 30, actual the traffic pool's memory-percent (neither infinite nor memory-percent set)",
			"sw1 egress pool 1: intended infinite, actual the traffic pool's memory-percent (neither infinite nor memory-percent set)"}},
		{"an earlier share left", "5.9.2", `{"egress-pool": {"0": {"memory-percent": 30}, "1": {"infinite": true, "memory-percent": 40}}}`,
			[]string{"sw1 egress pool 1: intended infinite, actual infinite memory-percent 40"}},
		{"infinite off", "5.9.2", `{"egress-pool": {"0": {"memory-percent": 25}, "1": {"infinite": false}}}`, []string{
			"sw1 egress pool 0: intended memory-percent 30, actual memory-percent 25",
			"sw1 egress pool 1: intended infinite, actual the traffic pool's memory-percent (neither infinite nor memory-percent set)"}},
		// Before 5.4 fabricc writes no egress pool, and none is compared.
		{"5.3", "5.3.1", "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseNVUE([]byte(withEgress(tc.abc)))
			if err != nil {
				t.Fatal(err)
			}
			f, sw := nvueEgressSwitch(tc.rel)
			var lines []string
			for _, d := range Compare("sw1", Expect(f, sw), got) {
				lines = append(lines, d.String())
			}
			if !slices.Equal(lines, tc.want) {
				t.Errorf("differences %q, want %q", lines, tc.want)
			}
		})
	}
}

// nvueShowInterface is `nv show interface -o json` for swp1 with link MTU
// mtu, in the shape of a Cumulus Linux 5.6.0 capture (an NVIDIA test-data
// module, CUMULUS_INTERFACES; trimmed): the operational state.
func nvueShowInterface(mtu string) string {
	return `{"eth0": {"ifindex": 2, "type": "eth", "link": {"mtu": 1500, "state": {"up": {}}}},
 "swp1": {"ifindex": 4, "ip": {"address": {}}, "type": "swp", "port-security": {"enable": "off"},
   "link": {"auto-negotiate": "on", "mac": "9c:05:91:a2:e6:f0", "mtu": ` + mtu + `, "state": {"up": {}},
     "stats": {"carrier-transitions": 1, "in-bytes": 0, "out-bytes": 0}}}}`
}

// TestNVUEOperational: verification compares the operational MTU of each
// port (`nv show interface -o json`) and the switch priorities of the PFC
// profile it uses (`nv show qos pfc -o json`) with the model, so a
// revision NVUE applied that the switch did not take up is a difference
// naming the port and the value (rcum #6). The applied configuration
// (nvueJSON) is what the model intends in every case.
func TestNVUEOperational(t *testing.T) {
	pfc3 := `{"default-global": {"cable-length": 100, "port-buffer": 25000, "rx": "enable", "tx": "enable", "switch-priority": {"3": {}}}}`
	for _, tc := range []struct {
		name, ifaces, pfc string
		want              []string
	}{
		{"as applied", nvueShowInterface("9216"), pfc3, nil},
		{"MTU not taken up", nvueShowInterface("9116"), pfc3, []string{"sw1 swp1 operational MTU: intended 9216, actual 9116"}},
		{"PFC priority not taken up", nvueShowInterface("9216"), `{"default-global": {"switch-priority": {"4": {}}}}`,
			[]string{"sw1 swp1 operational PFC priorities: intended 3, actual 4"}},
		{"no PFC running", nvueShowInterface("9216"), `{}`, []string{"sw1 swp1 operational PFC priorities: intended 3, actual none"}},
		{"port not reported", `{"eth0": {"type": "eth", "link": {"mtu": 1500}}}`, pfc3,
			[]string{"sw1 swp1 operational MTU: intended 9216, actual not reported by the switch"}},
		// The profile the operational state names wins over the
		// applied attachment (default-global here).
		{"operational profile", strings.Replace(nvueShowInterface("9216"), `"type": "swp",`, `"type": "swp", "qos": {"pfc": {"profile": "old"}},`, 1),
			`{"default-global": {"switch-priority": {"3": {}}}, "old": {"switch-priority": {"3": {}, "4": {}}}}`,
			[]string{"sw1 swp1 operational PFC priorities: intended 3, actual 3,4"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseNVUE([]byte(nvueJSON))
			if err != nil {
				t.Fatal(err)
			}
			if err := ApplyNVUEOperational(got, got.NVUE, []byte(tc.ifaces), []byte(tc.pfc)); err != nil {
				t.Fatal(err)
			}
			f, sw := fabric("swp1")
			sw.Platform = model.PlatformCumulus
			var lines []string
			for _, d := range Compare("sw1", Expect(f, sw), got) {
				lines = append(lines, d.String())
			}
			if !slices.Equal(lines, tc.want) {
				t.Errorf("differences %q, want %q", lines, tc.want)
			}
		})
	}
	// Output that is not JSON is an error naming the command.
	got, _ := ParseNVUE([]byte(nvueJSON))
	err := ApplyNVUEOperational(got, got.NVUE, []byte("Error: The requested item does not exist."), []byte("{}"))
	if err == nil || !strings.HasPrefix(err.Error(), "nv show interface -o json: ") {
		t.Errorf("unreadable nv show interface: %v", err)
	}
}
