package push

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/fabricc/fabricc/internal/quote"
)

// What Stage refuses on an EOS switch before anything is sent: switch
// state the fabric's lines cannot configure (review reos).

// eosPortsOf is the set of interfaces an EOS block-form text has an
// `interface NAME` block for: the fabric's ports in the rendered
// configuration.
func eosPortsOf(text string) map[string]bool {
	ports := map[string]bool{}
	for _, l := range strings.Split(text, "\n") {
		if f := strings.Fields(l); len(f) == 2 && f[0] == "interface" && !strings.HasPrefix(l, " ") {
			ports[f[1]] = true
		}
	}
	return ports
}

// eosLAGMembers refuses a push that configures a port the running
// configuration shows as a Port-Channel member, `channel-group N mode
// active|passive|on` in its interface block (Arista EOS User Manual,
// Port Channels and LACP, "channel-group"; Arista AVD
// ethernet_interfaces[].channel_group, rendered as `channel-group ID mode
// MODE`), as push refuses an Onyx LAG member (onyxLAGMembers). On EOS a
// member's switchport mode, VLANs and MTU come from `interface
// Port-ChannelN` (AVD renders them there, not on the member), and an
// MLAG is a Port-Channel with `mlag N`, so the member lines fabricc
// writes and verify reads back would not describe what the port does.
// ours are the fabric's ports (eosPortsOf), running the switch's
// `show running-config`.
//
// A member of a Port-Channel with `mlag N` (a dual-homed host's bundle)
// or of the one `mlag configuration` names as its `peer-link` (Arista EOS
// User Manual, Multi-Chassis Link Aggregation; AVD renders both so) gets
// no removal command: taking it out is an outage (mlagRefusal).
func eosLAGMembers(ours map[string]bool, running string) error {
	mlagPC, peerPC := eosMLAGPortChannels(running)
	var plain, mlag []string
	port := ""
	for _, l := range strings.Split(running, "\n") {
		f := strings.Fields(l)
		if !strings.HasPrefix(l, " ") {
			port = ""
			if len(f) == 2 && f[0] == "interface" && ours[f[1]] {
				port = f[1]
			}
			continue
		}
		if port == "" || len(f) != 4 || f[0] != "channel-group" || f[2] != "mode" {
			continue
		}
		name, pc := quote.Visible(port), "Port-Channel"+quote.Visible(f[1])
		switch {
		case peerPC["Port-Channel"+f[1]]:
			mlag = append(mlag, fmt.Sprintf("%s is a member of %s, the MLAG peer link", name, pc))
		case mlagPC["Port-Channel"+f[1]] != "":
			mlag = append(mlag, fmt.Sprintf("%s is a member of %s (mlag %s)", name, pc, quote.Visible(mlagPC["Port-Channel"+f[1]])))
		default:
			plain = append(plain, fmt.Sprintf("%s is a member of %s (`interface %s` then `no channel-group` takes it out)", name, pc, name))
		}
	}
	return lagRefusal(plain, "fabric ports are Port-Channel members on the switch: %s; a member takes its switchport mode, VLANs and MTU from its Port-Channel, "+
		"which fabricc does not manage, so fabricc cannot configure the port: take it out of the Port-Channel or leave the port out of the fabric", mlag)
}

// eosMLAGPortChannels reads a running configuration's MLAG Port-Channels:
// each `interface Port-ChannelN` block's `mlag ID`, and the Port-Channel
// that the `mlag configuration` block names as its `peer-link`.
func eosMLAGPortChannels(running string) (mlagID map[string]string, peer map[string]bool) {
	mlagID, peer = map[string]string{}, map[string]bool{}
	block := ""
	for _, l := range strings.Split(running, "\n") {
		f := strings.Fields(l)
		if !strings.HasPrefix(l, " ") {
			block = strings.Join(f, " ")
			continue
		}
		switch {
		case len(f) == 2 && f[0] == "mlag" && strings.HasPrefix(block, "interface Port-Channel"):
			mlagID[strings.TrimPrefix(block, "interface ")] = f[1]
		case len(f) == 2 && f[0] == "peer-link" && block == "mlag configuration":
			peer[f[1]] = true
		}
	}
	return mlagID, peer
}

// eosModelRead is the chassis model EOS prints: `show version | json`
// modelName ("DCS-7010T-48-R" in napalm's EOS fixture
// test_get_environment/issue810_7010t/show_version.json, what arista.eos eos_facts
// reports as ansible_net_model; the text form's first line names it
// too, "Arista CCS-720XP-48ZC2-F" in otpjeff/avdsnapshot, with a suffix
// catalogModel reads past).
var eosModelRead = hwModel{Command: "show version | json", Parse: eosModelName}

// eosModelName is modelName of `show version | json`, "" without it.
func eosModelName(out string) string {
	var v struct {
		ModelName string `json:"modelName"`
	}
	if json.Unmarshal([]byte(jsonPart(out)), &v) != nil {
		return ""
	}
	return v.ModelName
}
