package cumulus

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/sim/cli"
)

// The rules `nv config apply` enforces on the whole configuration, which
// no single `nv set` can check: one lossless traffic pool, and an egress
// scheduler whose DWRR shares sum to 100 or less. The reasons are the
// simulator's words (no public capture of NVUE's for these rules); the
// rules are the Cumulus Linux 5.9 user guide's, and the refusal's form is
// NVUE's (see invalidConfig).

// roceDefaults fills in what `nv set qos roce` means: RoCE on, in
// lossless mode unless a mode is set (Cumulus Linux user guide, RDMA
// over Converged Ethernet - RoCE: "NVUE defaults to roce mode lossless.
// The command nv set qos roce and nv set qos roce mode lossless are
// equivalent"; "If you enable mode lossy, configuring nv set qos roce
// without a mode does not change the RoCE mode"). RoCE on is `enable:
// on` up to 5.14 and `state: enabled` from 5.15 (NVUE Command
// Reference, QoS, `nv set qos roce state`).
func roceDefaults(t tree, version string) {
	qos, ok := t["qos"].(tree)
	if !ok {
		return
	}
	roce, ok := qos["roce"].(tree)
	if !ok {
		return
	}
	if since(version, enabledKeywords) {
		setDefault(roce, "state", "enabled")
	} else {
		setDefault(roce, "enable", "on")
	}
	setDefault(roce, "mode", "lossless")
}

// roceMode is the RoCE mode the configuration turns on, "" for none.
func roceMode(t tree) string {
	roce, ok := child2(t, "qos", "roce")
	if !ok || roce["enable"] == "off" || roce["state"] == "disabled" {
		return ""
	}
	if m, ok := roce["mode"].(string); ok {
		return m
	}
	return "lossless"
}

// losslessPools lists the lossless traffic pools the configuration
// uses: default-lossless or roce-lossless with switch priorities, and
// the roce-lossless pool RoCE lossless mode puts switch priority 3 in
// (RoCE page, "Default RoCE Configuration": lossless mode maps switch
// priority 3 to the RoCE lossless pool).
func losslessPools(t tree) []string {
	var out []string
	pools, _ := child2(t, "qos", "traffic-pool")
	for _, name := range []string{"default-lossless", "roce-lossless"} {
		p, _ := pools[name].(tree)
		if sp, _ := p["switch-priority"].(tree); len(sp) > 0 {
			out = append(out, name+" (qos traffic-pool "+name+")")
		}
	}
	if m := roceMode(t); strings.HasPrefix(m, "lossless") && !slices.ContainsFunc(out, func(s string) bool { return strings.HasPrefix(s, "roce-lossless") }) {
		out = append(out, "roce-lossless (qos roce mode "+m+")")
	}
	return out
}

// defaultShare is the egress scheduler's factory DWRR share of a traffic
// class: 12 % for queues 0, 2, 4, 6 and 13 % for 1, 3, 5, 7 (Cumulus Linux
// 5.9 user guide, Quality of Service, "Egress Scheduler"). A class a
// profile leaves out keeps it.
func defaultShare(tc int) int { return 12 + tc%2 }

// schedulerSum is the sum of a scheduler profile's DWRR bw-percent over
// traffic classes 0-7, each class it leaves out at its default share.
func schedulerSum(profile tree) int {
	tcs, _ := profile["traffic-class"].(tree)
	sum := 0
	for tc := 0; tc < 8; tc++ {
		c, ok := tcs[strconv.Itoa(tc)].(tree)
		switch {
		case !ok:
			sum += defaultShare(tc)
		case c["mode"] == "strict":
		default:
			if v, ok := c["bw-percent"].(int); ok {
				sum += v
			} else {
				sum += defaultShare(tc)
			}
		}
	}
	return sum
}

// invalidConfig is NVUE's answer to an apply it refuses: "Invalid config
// [rev_id: N]", then each reason on its own line, indented by two
// (CumulusNetworks/docs knowledge base, "NVUE Fails to Apply
// Configuration After Upgrade": "Invalid config [rev_id: 4]" / "  Config
// invalid at interface.swp1.link.breakout: ..."; Cumulus Linux user
// guide, NVUE Snippets: "Invalid config [rev_id: 8]" and the snippet
// reasons). No "Error:" comes with it.
func invalidConfig(rev int, reasons ...string) string {
	return fmt.Sprintf("Invalid config [rev_id: %d]\n  %s", rev, strings.Join(reasons, "\n  "))
}

// checkApply is what `nv config apply` refuses in the configuration t:
// a second lossless pool (user guide, Quality of Service, "Traffic
// Pools": "You can only have a single lossless pool configured on the
// switch at a time") and a scheduler profile over 100 % ("Egress
// Scheduler": "The combined total of values you assign to bw_percent
// must be less than or equal to 100"). "" when it takes t; otherwise the
// reason, which apply puts in NVUE's form (invalidConfig).
func checkApply(t tree) string {
	if pools := losslessPools(t); len(pools) > 1 {
		return "Config invalid at qos.traffic-pool: only a single lossless pool can be configured on the switch at a time; the configuration has " +
			strings.Join(pools, " and ") + ": unset one (nv unset qos roce, or nv unset qos traffic-pool <pool> switch-priority)"
	}
	scheds, _ := child2(t, "qos", "egress-scheduler")
	for _, name := range cli.SortedKeys(scheds) {
		p, _ := scheds[name].(tree)
		if sum := schedulerSum(p); sum > 100 {
			return fmt.Sprintf("Config invalid at qos.egress-scheduler.%s: the bw-percent of its dwrr traffic classes sum to %d (a class left unset keeps its default 12 or 13); the total must be 100 or less", name, sum)
		}
	}
	return ""
}

// autoSave reports whether `nv config apply` of configuration t also
// saves it to startup.yaml: on by default from autoSaveByDefault's
// release (releases), off before unless `system config auto-save enable
// on`; `enable off` (5.9) or `state disabled` (5.13 and later) turns it
// off.
func autoSave(version string, t tree) bool {
	as, _ := child2(t, "system", "config", "auto-save")
	switch {
	case as["enable"] == "off" || as["state"] == "disabled":
		return false
	case as["enable"] == "on" || as["state"] == "enabled":
		return true
	}
	return since(version, autoSaveByDefault)
}
