package eos

import (
	"fmt"
	"strings"

	"github.com/fabricc/fabricc/sim/cli"
)

// lldpTTL is the Time To Live LLDP neighbors advertise (tx-interval 30
// s times tx-hold 4, the default).
const lldpTTL = 120

// lldpNeighbors is `show lldp neighbors`: the list form napalm's EOS
// driver and arista.eos's eos_facts read (napalm fixture
// test_get_lldp_neighbors/normal/show_lldp_neighbors.json), a MAC
// address in EOS's dotted form. The text table is (no public sample).
func (d *Device) lldpNeighbors() (any, string, error) {
	list := []any{}
	var b strings.Builder
	fmt.Fprintf(&b, "Last table change time   : 0:00:10 ago\nNumber of table inserts  : %d\nNumber of table deletes  : 0\n"+
		"Number of table drops    : 0\nNumber of table age-outs : 0\n\n", d.neighborCount())
	fmt.Fprintf(&b, "%-13s %-24s %-19s %s\n%s\n", "Port", "Neighbor Device ID", "Neighbor Port ID", "TTL",
		"------------- ------------------------ ------------------- ---")
	for _, p := range d.opts.Ports {
		for _, n := range d.opts.Neighbors[p.Name] {
			port := n.PortID
			if n.PortIDMAC {
				port = cli.DottedMAC(port)
			}
			list = append(list, map[string]any{"port": p.Name, "neighborDevice": n.SystemName, "neighborPort": port, "ttl": lldpTTL})
			fmt.Fprintf(&b, "%-13s %-24s %-19s %d\n", shortName(p.Name), n.SystemName, port, lldpTTL)
		}
	}
	j := map[string]any{"lldpNeighbors": list, "tablesAgeOuts": 0, "tablesDeletes": 0, "tablesDrops": 0,
		"tablesInserts": d.neighborCount(), "tablesLastChangeTime": float64(d.booted.Unix())}
	return j, b.String(), nil
}

// lldpDetail is `show lldp neighbors detail`: every port, each with the
// list of its neighbors (the fields of napalm's fixture
// test_get_lldp_neighbors_detail and ANTA's VerifyLLDPNeighbors test
// data): an interface name as Port ID is quoted in "interfaceId" and
// plain in "interfaceId_v2". The text form is (no public sample).
func (d *Device) lldpDetail() (any, string, error) {
	ports := map[string]any{}
	var b strings.Builder
	for _, p := range d.opts.Ports {
		infos := []any{}
		ns := d.opts.Neighbors[p.Name]
		if len(ns) > 0 {
			fmt.Fprintf(&b, "Interface %s detected %d LLDP neighbors:\n\n", p.Name, len(ns))
		}
		for _, n := range ns {
			idType, id, v2 := "interfaceName", `"`+n.PortID+`"`, n.PortID
			if n.PortIDMAC {
				idType, id = "macAddress", cli.DottedMAC(n.PortID)
				v2 = id
			}
			chassis := cli.DottedMAC(n.ChassisID)
			infos = append(infos, map[string]any{
				"chassisIdType": "macAddress", "chassisId": chassis, "systemName": n.SystemName,
				"systemDescription": n.SystemDescription, "ttl": lldpTTL,
				"neighborDiscoveryTime": float64(d.booted.Unix()), "lastChangeTime": float64(d.booted.Unix()),
				"systemCapabilities":  map[string]any{"bridge": true, "router": true},
				"managementAddresses": []any{},
				"neighborInterfaceInfo": map[string]any{"interfaceIdType": idType, "interfaceId": id, "interfaceId_v2": v2,
					"interfaceDescription": n.PortDescription, "maxFrameSize": 0, "vlanNames": map[string]any{},
					"unknownTlvs": []any{}, "unknownOrgDefinedTlvs": []any{}},
			})
			fmt.Fprintf(&b, "  Neighbor %s/%s, age 10 seconds\n  - Port ID     : %s\n  - Port Description: %q\n  - System Name: %q\n\n",
				chassis, id, id, n.PortDescription, n.SystemName)
		}
		ports[p.Name] = map[string]any{"lldpNeighborInfo": infos}
	}
	return map[string]any{"lldpNeighbors": ports}, b.String(), nil
}

func (d *Device) neighborCount() int {
	n := 0
	for _, ns := range d.opts.Neighbors {
		n += len(ns)
	}
	return n
}

// shortName is EOS's short interface name in tables ("Et1/1").
func shortName(name string) string {
	if r, ok := strings.CutPrefix(name, "Ethernet"); ok {
		return "Et" + r
	}
	return name
}
