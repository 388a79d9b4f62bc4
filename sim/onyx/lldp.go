package onyx

import (
	"fmt"
	"strings"

	"github.com/fabricc/fabricc/sim/cli"
)

// lldpDefaultSince is the release from which LLDP is on by default
// (NVIDIA Onyx User Manual, Link Layer Discovery Protocol (LLDP): "From
// version 3.8.2000, LLDP is now enabled by default").
const lldpDefaultSince = "3.8.2000"

// lldpOnByDefault says whether release v starts with LLDP on.
func lldpOnByDefault(v string) bool { return cli.VersionAtLeast(v, lldpDefaultSince) }

// lldpLocal is `show lldp local | json-print`: the list of the
// mellanox.onyx fixture onyx_lldp_show.cfg, whose module onyx_lldp.py
// reads the global switch from the element with "LLDP" ("enabled" when
// on; any other value it takes for off, "disabled" here), then the
// "Local global configuration" element.
func (e *env) lldpLocal(m []string) (any, error) {
	return []any{
		map[string]any{"LLDP": enabledLower(e.st.LLDP)},
		map[string]any{"header": "Local global configuration", "Chassis sub type": "Mac Address", "Chassis id": "7c:fe:90:00:00:00",
			"System Name": e.st.Hostname, "System Description": e.sh.d.systemDescription(),
			"Supported capabilities": "B,R", "Supported capabilities enabled": "B"},
	}, nil
}

// lldpLocalText is `show lldp local` in the layout of the NVIDIA Onyx
// User Manual's example (Link Layer Discovery Protocol (LLDP), "Display
// LLDP local information"): "LLDP is Enabled", then the local global
// configuration.
func lldpLocalText(e *env, m []string) (string, error) {
	return fmt.Sprintf("\nLLDP is %s\n\nLocal global configuration\n  Chassis sub type: macAddress (4)\n  Chassis id: 7c:fe:90:00:00:00\n"+
		"  System Name: %q\n  System Description: %s\n  Supported capabilities: B,R\n  Supported capabilities enabled: B\n\n",
		enabled(e.st.LLDP), e.st.Hostname, e.sh.d.systemDescription()), nil
}

// systemDescription is the System Description TLV, in the words of the
// fixture onyx_lldp_show.cfg ("Mellanox MSN2700,MLNX-OS,SWv3.6.5000-04").
func (d *Device) systemDescription() string {
	return fmt.Sprintf("Mellanox %s,%s,SWv%s", d.opts.Model, d.productName(), d.opts.Version)
}

// lldpInterfaces is `show lldp interfaces | json-print`: per port
// {"Eth1/1": [{"Receive", "Transmit", "TLVs"}]}, each direction
// "Enabled" or "Disabled", the shape of the mellanox.onyx fixture
// onyx_lldp_interface_show.cfg that onyx_lldp_interface.py reads (its
// TLVs too). The fixture is a 3.6.5000-era dictionary; the module reads
// the same dictionary on every release, so the simulator answers it on
// every release.
func (e *env) lldpInterfaces(m []string) (any, error) {
	out := map[string]any{}
	for _, p := range e.sh.d.opts.Ports {
		port := e.st.Ports[p.Name]
		out["Eth"+p.Name] = []any{map[string]any{
			"Receive": enabled(!port.NoLLDPReceive), "Transmit": enabled(!port.NoLLDPTransmit),
			"TLVs": "PD, SN, SD, SC, MA, PFC, AP, ETS-C, ETS-R",
		}}
	}
	return out, nil
}

// lldpRemote is `show lldp interfaces ethernet remote`: per port with a
// neighbor {"Eth1/1": [{"port id subtype", "Remote chassis id", "Remote
// port-id", "Remote port description", "Remote system name", "Remote
// system description"}]}, "Not Advertised" for a TLV not sent, and
// {"Lines": ["", "No lldp remote information.", ""]} without any
// neighbor: the JSON of Cray-HPE canu's Onyx test data (the JSON API's
// answer); the json-print form is taken to be the same, and the MAC
// address subtype's wording is (no public sample).
func (e *env) lldpRemote(m []string) (any, error) {
	var out []any
	for _, p := range e.sh.d.opts.Ports {
		ns := e.sh.d.opts.Neighbors[p.Name]
		if len(ns) == 0 {
			continue
		}
		var rows []any
		for _, n := range ns {
			sub := "Interface Name (5)"
			if n.PortIDMAC {
				sub = "MAC Address (3)"
			}
			rows = append(rows, map[string]any{
				"port id subtype": sub, "Remote chassis id": advertised(n.ChassisID), "Remote port-id": advertised(n.PortID),
				"Remote port description": advertised(n.PortDescription), "Remote system name": advertised(n.SystemName),
				"Remote system description": advertised(n.SystemDescription),
			})
		}
		out = append(out, map[string]any{"Eth" + p.Name: rows})
	}
	if len(out) == 0 {
		return []any{map[string]any{"Lines": []any{"", "No lldp remote information.", ""}}}, nil
	}
	return out, nil
}

// advertised is a TLV's value as Onyx shows it: "Not Advertised" when
// the neighbor does not send it.
func advertised(s string) string {
	if strings.TrimSpace(s) == "" {
		return "Not Advertised"
	}
	return s
}
