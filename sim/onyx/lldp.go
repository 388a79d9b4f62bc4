package onyx

import "strings"

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
