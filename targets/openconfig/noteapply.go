package openconfig

import (
	"fmt"
	"regexp"
	"sort"

	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
)

// spectrum1 is the ASIC name of NVIDIA's first Spectrum generation
// (compiler/portmap.go), which has no gNMI under Cumulus Linux.
const spectrum1 = "Spectrum"

// writeApply says whether a gNMI Set can apply the files on this
// platform, with the vendor page, how to apply the set request, and what
// one build cannot remove.
func writeApply(b *targets.Text, sw *model.Switch) {
	b.Fixed("\n## Applying it\n\n")
	b.At("switch", sw.Name, "os_version")
	switch sw.Platform {
	case model.PlatformEOS:
		b.WriteString("EOS accepts a gNMI Set (Arista Open Management documentation, \"Management Protocols\", gRPC: " +
			"Get, Subscribe, Set and Capabilities), served once `management api gnmi` with `transport grpc default` " +
			"is configured, on port 6030 by default, in the JSON_IETF encoding these files use. " +
			"Bind the queue names first (\"Queue names on EOS\" below).\n")
	case model.PlatformCumulus:
		b.WriteString("Cumulus Linux does not accept a gNMI Set: its gNMI serves Capabilities and Subscribe only, " +
			"and its models do not include openconfig-qos, openconfig-vlan or openconfig-network-instance " +
			"(NVIDIA Cumulus Linux User Guide, \"gNMI Streaming\", RPC Methods and Supported Models). ")
		if sw.Hardware.ASIC == spectrum1 {
			b.At("switch", sw.Name, "model")
			b.WriteString("This switch has a Spectrum-1 ASIC, which has no gNMI at all (same page). ")
		}
		b.WriteString("The files state the intent in OpenConfig terms for a controller's model; " +
			"the switch itself is configured by `fabricc push`.\n")
	default:
		b.WriteString("No public NVIDIA document of a gNMI Set on Onyx was found; " +
			"treat the files as the intent in OpenConfig terms and configure the switch with `fabricc push`.\n")
	}
	b.At("switch", sw.Name)
	fmt.Fprintf(b, "\nThe JSON is the whole intent, for a merge (gNMI update) at /, which never removes anything "+
		"(gNMI specification 3.4.4): an earlier build's DSCP values, VLANs, native VLAN or description stay. "+
		"The set request file %s.openconfig-set.json (gnmic's request file format) brings the device to the fabric's state "+
		"for what fabricc owns, in one transaction (gNMI specification 3.4.3: deletes, then replaces, then updates): "+
		"it replaces each port's switched-vlan, the fabric's classifiers, forwarding groups, queues, ECN profiles, "+
		"scheduler policy and each port's /qos/interfaces entry; deletes a port's description when it has none "+
		"and a routed port's switched-vlan; and updates the rest. "+
		"Never replace / or /qos: that deletes every setting fabricc does not own.\n\n"+
		"    gnmic -a SWITCH:6030 -u USER --skip-verify -e json_ietf set --request-file SWITCH.openconfig-set.json\n\n"+
		"One build cannot know what an earlier build had and this one has not: the queues, forwarding groups "+
		"and `CLASS-ecn` profiles of classes the fabric no longer has, and the settings of ports it no longer lists. "+
		"Find them with `gnmic ... get --path /qos/queues` and delete them, e.g. "+
		"`gnmic ... set --delete '/qos/queues/queue[name=OLD]' --delete '/qos/forwarding-groups/forwarding-group[name=OLD]' "+
		"--delete '/qos/queue-management-profiles/queue-management-profile[name=OLD-ecn]'`.\n", quote.Markdown(sw.Name))
}

// writeModels lists the modules the files use and the versions they need.
func writeModels(b *targets.Text) {
	b.Fixed("\n## Models\n\n")
	b.At()
	b.WriteString("Compare these with the device's `gnmic capabilities` (gNMI specification 3.2, supported models) " +
		"before the first Set; a device missing a leaf refuses the whole request.\n\n" +
		"| module | written | needs |\n|---|---|---|\n" +
		"| openconfig-interfaces | name, type, description, enabled, mtu | checked with 3.8.1 |\n" +
		"| openconfig-if-ethernet | port-speed, enable-flow-control | checked with 2.18.0 |\n" +
		"| openconfig-vlan | switched-vlan | checked with 3.2.2 |\n" +
		"| openconfig-network-instance | the default instance's VLANs | checked with 4.7.0 |\n" +
		"| openconfig-qos | queues, forwarding groups, classifiers, scheduler policy, ECN profiles, interfaces | " +
		"0.8.0 or later (queue-id, revision 2023-02-17 \"Add queue identifier\"); checked with 2.2.0 |\n")
}

// cliName is what a class name must match to be written into an EOS CLI
// line of the note (the DSL allows no other class names).
var cliName = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)

// writeQueueNames gives, on EOS, the CLI lines that bind the JSON's
// class-named queues and forwarding groups to the traffic classes.
func writeQueueNames(b *targets.Text, q *model.QoS, sw *model.Switch) {
	if sw.Platform != model.PlatformEOS || len(q.Classes) == 0 {
		return
	}
	b.Fixed("\n## Queue names on EOS\n\n")
	b.At()
	b.WriteString("The JSON names each queue and forwarding group after its class and gives the tx-queue as queue-id. " +
		"Arista's OpenConfig queues go by names the device knows: openconfig/featureprofiles sets queue-id only " +
		"for devices with the qos_queue_requires_id deviation (not Arista) and binds other names on Arista with CLI first " +
		"(internal/cfgplugins/qos.go, NewQosInitialize: `qos tx-queue N name NAME`, `qos map traffic-class N to tx-queue N`, " +
		"`qos traffic-class N name GROUP`). fabricc's native EOS configuration does not write these; " +
		"configure them before the Set:\n\n")
	classes := append([]model.Class(nil), q.Classes...)
	sort.Slice(classes, func(i, j int) bool { return classes[i].TrafficClass < classes[j].TrafficClass })
	for _, c := range classes {
		b.At("qos", "class", c.Name)
		if !cliName.MatchString(c.Name) {
			// A line where each command would be, so that the note keeps
			// its shape; %q keeps the name on its line in the code block.
			fmt.Fprintf(b, "    ! qos tx-queue %d name: class %q has a name EOS cannot take\n    ! qos traffic-class %d name: the same\n", c.TrafficClass, c.Name, c.TrafficClass)
			continue
		}
		fmt.Fprintf(b, "    qos tx-queue %d name %s\n    qos traffic-class %d name %s\n", c.TrafficClass, c.Name, c.TrafficClass, c.Name)
	}
}
