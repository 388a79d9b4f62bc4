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
func eosLAGMembers(ours map[string]bool, running string) error {
	var found []string
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
		name := quote.Visible(port)
		found = append(found, fmt.Sprintf("%s is a member of Port-Channel%s (`interface %s` then `no channel-group` takes it out)", name, quote.Visible(f[1]), name))
	}
	if len(found) == 0 {
		return nil
	}
	return fmt.Errorf("fabric ports are Port-Channel members on the switch: %s; a member takes its switchport mode, VLANs and MTU from its Port-Channel, "+
		"which fabricc does not manage, so fabricc cannot configure the port: take it out of the Port-Channel or leave the port out of the fabric, "+
		"and push again; nothing was changed", strings.Join(found, "; "))
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
