package verify

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
)

// Neighbor is one LLDP neighbor a switch has learned on one of its ports
// (IEEE 802.1AB: the System Name, Port ID and Port Description TLVs).
type Neighbor struct {
	// SystemName is the neighbor's System Name; "" when it sends none.
	SystemName string `json:"system_name"`
	// PortID is the neighbor's Port ID; PortIDMAC says its subtype is a
	// MAC address (lldpd's default on Linux hosts), not an interface
	// name.
	PortID    string `json:"port_id"`
	PortIDMAC bool   `json:"port_id_mac,omitempty"`
	// PortDescription is the neighbor's Port Description; "" when it
	// sends none.
	PortDescription string `json:"port_description,omitempty"`
}

// Neighbors are a switch's LLDP neighbors by local port, in the model's
// port names ("1/1" on Onyx, "Ethernet1/1", "swp1").
type Neighbors map[string][]Neighbor

func (ns Neighbors) add(port string, n Neighbor) {
	if n.SystemName == "" && n.PortID == "" {
		return // a row with nothing advertised says nothing about the cable
	}
	ns[port] = append(ns[port], n)
}

// macPattern is a MAC address as the three platforms print one:
// "0c:42:a1:00:00:01", "0c-42-a1-00-00-01" or EOS's "0c42.a100.0001".
var macPattern = regexp.MustCompile(`^([0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}$|^([0-9A-Fa-f]{4}\.){2}[0-9A-Fa-f]{4}$`)

// ParseEOSNeighbors reads EOS `show lldp neighbors detail | json`: the
// object "lldpNeighbors" holds every port, each with the list
// "lldpNeighborInfo" of its neighbors ("systemName" and
// "neighborInterfaceInfo" with "interfaceIdType", "interfaceId",
// "interfaceId_v2" and "interfaceDescription"). Shape from ANTA's
// VerifyLLDPNeighbors and its unit test data, napalm's EOS driver
// (get_lldp_neighbors_detail) and its test fixtures: "interfaceId" of
// an interface name is quoted ("\"Ethernet1\""), which napalm strips;
// releases with "interfaceId_v2" carry it unquoted, as ANTA reads it.
// Captured samples read in TestEOSNeighborsCaptured: napalm
// test/eos/mocked_data/test_get_lldp_neighbors_detail/issue1153/
// show_lldp_neighbors__detail.json, and an NVIDIA capture with
// interfaceId_v2.
func ParseEOSNeighbors(data []byte) (Neighbors, error) {
	var out struct {
		LLDPNeighbors map[string]struct {
			Info []struct {
				SystemName string `json:"systemName"`
				Interface  struct {
					IDType      string `json:"interfaceIdType"`
					ID          string `json:"interfaceId"`
					IDv2        string `json:"interfaceId_v2"`
					Description string `json:"interfaceDescription"`
				} `json:"neighborInterfaceInfo"`
			} `json:"lldpNeighborInfo"`
		} `json:"lldpNeighbors"`
	}
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, fmt.Errorf("show lldp neighbors detail | json: %w", err)
	}
	ns := Neighbors{}
	for port, p := range out.LLDPNeighbors {
		for _, i := range p.Info {
			id := i.Interface.IDv2
			if id == "" {
				id = strings.Trim(i.Interface.ID, `"`)
			}
			mac := i.Interface.IDType == "macAddress" || i.Interface.IDType == "" && macPattern.MatchString(id)
			ns.add(port, Neighbor{SystemName: i.SystemName, PortID: id, PortIDMAC: mac, PortDescription: i.Interface.Description})
		}
	}
	return ns, nil
}

// onyxNotAdvertised is what Onyx prints for a TLV the neighbor does not
// send; onyxNA is the N\A (JSON "N\\A") it prints for an empty value
// (ska-sa switch_exporter, src/switch_exporter/switch.py, written
// against MLNX-OS switches, skips both for "Remote port description";
// the mellanox.onyx fixture onyx_interfaces_show.cfg has "Description":
// "N\\A").
const (
	onyxNotAdvertised = "Not Advertised"
	onyxNA            = `N\A`
)

// ParseOnyxNeighbors reads Onyx `show lldp interfaces ethernet remote |
// json-print`: per local port ("Eth1/1", "Eth1/1 (Po100)" for a member
// of a port channel) a list of neighbor objects with "Remote system
// name", "Remote port-id", "port id subtype" ("Interface Name (5)"),
// "Remote port description", each "Not Advertised" when not sent; a
// switch without neighbors prints {"Lines": ["", "No lldp remote
// information.", ""]}. The keys and values are those of Cray-HPE canu,
// which reads the same command through Onyx's JSON API, and of its test
// data; the NVIDIA Onyx User Manual ("Link Layer Discovery Protocol")
// shows the text form. The json-print form is taken to be the JSON API's
// "data", as for the other commands mellanox.onyx reads with
// json-print; fabricc has seen no json-print sample of this command, nor
// the wording of a MAC address subtype (read here as any subtype naming
// "mac", or IEEE 802.1AB's number 3).
func ParseOnyxNeighbors(data []byte) (Neighbors, error) {
	var raw any
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("show lldp interfaces ethernet remote | json-print: %w", err)
	}
	ns := Neighbors{}
	walkOnyxPorts(raw, func(port string, rows []any) {
		for _, r := range rows {
			if row, ok := r.(map[string]any); ok {
				ns.add(port, onyxNeighbor(row))
			}
		}
	})
	return ns, nil
}

// walkOnyxPorts calls visit with the rows of each port key ("Eth1/1",
// "Eth1/1 (Po100)") found in v, by the model's port name, at whatever
// depth of lists and dictionaries the JSON API's answer holds it.
func walkOnyxPorts(v any, visit func(port string, rows []any)) {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			walkOnyxPorts(e, visit)
		}
	case map[string]any:
		for k, e := range x {
			port, ok := onyxLocalPort(k)
			if !ok {
				walkOnyxPorts(e, visit)
				continue
			}
			rows, _ := e.([]any)
			visit(port, rows)
		}
	}
}

// onyxLocalPort turns "Eth1/1" or "Eth1/1 (Po100)" into the model's
// "1/1".
func onyxLocalPort(key string) (string, bool) {
	rest, ok := strings.CutPrefix(key, "Eth")
	if !ok {
		return "", false
	}
	f := strings.Fields(rest)
	if len(f) == 0 || f[0][0] < '0' || f[0][0] > '9' {
		return "", false
	}
	return f[0], true
}

func onyxNeighbor(row map[string]any) Neighbor {
	val := func(k string) string {
		s := strings.TrimSpace(str(row[k]))
		if s == onyxNotAdvertised || s == onyxNA {
			return ""
		}
		return s
	}
	sub := strings.ToLower(val("port id subtype"))
	id := val("Remote port-id")
	// The text form prints the subtype on the port-id line ("Remote
	// port-id : Eth1/11 ; port id subtype: Interface Name (5)", the
	// pattern ska-sa switch_exporter's _REMOTE_PORT_ID_RE reads); a
	// json-print that keeps the line whole is read the same way.
	if v, s, ok := strings.Cut(id, ";"); ok {
		if k, subtype, ok := strings.Cut(s, ":"); ok && strings.TrimSpace(strings.ToLower(k)) == "port id subtype" {
			id = strings.TrimSpace(v)
			if sub == "" {
				sub = strings.ToLower(strings.TrimSpace(subtype))
			}
		}
	}
	if id == onyxNotAdvertised || id == onyxNA {
		id = ""
	}
	mac := strings.Contains(sub, "mac") || strings.Contains(sub, "(3)") || sub == "" && macPattern.MatchString(id)
	return Neighbor{SystemName: val("Remote system name"), PortID: id, PortIDMAC: mac, PortDescription: val("Remote port description")}
}

// ParseNVUENeighbors reads NVUE `nv show interface lldp-detail -o json`:
// each interface's "lldp" object holds "neighbor", keyed by the
// neighbor's name, each with "chassis" ("system-name") and "port"
// ("name", "type": "ifname", "mac" or another lldpd port ID type,
// "description"). Object paths from the NVUE Command Reference, LLDP,
// `nv show interface <interface-id> lldp neighbor <neighbor-id>`
// (Cumulus Linux 5.1 and later); the same nesting under each interface
// is what napalm's NVUE Cumulus driver reads from `nv show interface
// lldp-detail -o json` (chassis system-name, port name and
// description). NVIDIA's reference prints that command's text form
// only; a Cumulus Linux 5.6.0 capture of `nv show interface -o json`
// (the same "lldp" object per interface) is read in
// TestNVUENeighborsCaptured.
func ParseNVUENeighbors(data []byte) (Neighbors, error) {
	var ifs map[string]struct {
		LLDP struct {
			Neighbor map[string]struct {
				Chassis struct {
					SystemName string `json:"system-name"`
				} `json:"chassis"`
				Port struct {
					Name        string `json:"name"`
					Type        string `json:"type"`
					Description string `json:"description"`
				} `json:"port"`
			} `json:"neighbor"`
		} `json:"lldp"`
	}
	if err := json.Unmarshal(data, &ifs); err != nil {
		return nil, fmt.Errorf("nv show interface lldp-detail -o json: %w", err)
	}
	ns := Neighbors{}
	for port, i := range ifs {
		for _, n := range i.LLDP.Neighbor {
			mac := n.Port.Type == "mac" || n.Port.Type == "" && macPattern.MatchString(n.Port.Name)
			ns.add(port, Neighbor{SystemName: n.Chassis.SystemName, PortID: n.Port.Name, PortIDMAC: mac, PortDescription: n.Port.Description})
		}
	}
	return ns, nil
}

// ApplyOnyxLLDP reads whether the switch runs LLDP into s: `show lldp
// local | json-print` into State.LLDP, `show lldp interfaces |
// json-print` into each port's Port.LLDP (the ports s has from the
// running configuration). The shapes are those the mellanox.onyx
// collection reads: onyx_lldp.py takes the global switch from the
// element with the key "LLDP" ("enabled" when on, its fixture
// onyx_lldp_show.cfg a list of such elements), onyx_lldp_interface.py
// each port's "Receive" and "Transmit" ("Enabled", "Disabled") from its
// entry "Eth1/1" (fixture onyx_lldp_interface_show.cfg). An output that
// is empty or has no such key leaves the setting unread, and then it is
// not compared.
func ApplyOnyxLLDP(s *State, local, interfaces []byte) error {
	if len(strings.TrimSpace(string(local))) > 0 {
		var raw any
		if err := json.Unmarshal(local, &raw); err != nil {
			return fmt.Errorf("show lldp local | json-print: %w", err)
		}
		if v, ok := onyxFind(raw, "LLDP"); ok {
			s.LLDP = onOff(strings.EqualFold(strings.TrimSpace(str(v)), "enabled"))
		}
	}
	if len(strings.TrimSpace(string(interfaces))) == 0 {
		return nil
	}
	var raw any
	if err := json.Unmarshal(interfaces, &raw); err != nil {
		return fmt.Errorf("show lldp interfaces | json-print: %w", err)
	}
	for port, row := range onyxPortRows(raw) {
		if p := s.Ports[port]; p != nil {
			p.LLDP = onyxPortLLDP(row)
		}
	}
	return nil
}

// onyxFind is the value of the first key named key in v, depth first.
func onyxFind(v any, key string) (any, bool) {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			if f, ok := onyxFind(e, key); ok {
				return f, true
			}
		}
	case map[string]any:
		if f, ok := x[key]; ok {
			return f, true
		}
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if f, ok := onyxFind(x[k], key); ok {
				return f, true
			}
		}
	}
	return nil, false
}

// onyxPortRows are the first row of each port ("Eth1/1", or "Eth1/1
// (Po100)" for a member of a port channel) in v, by the model's port
// name, whether v is the dictionary of the fixture or a list of such
// dictionaries.
func onyxPortRows(v any) map[string]map[string]any {
	out := map[string]map[string]any{}
	walkOnyxPorts(v, func(port string, rows []any) {
		if len(rows) > 0 {
			if row, ok := rows[0].(map[string]any); ok {
				out[port] = row
			}
		}
	})
	return out
}

// onyxPortLLDP is a port's LLDP in Port.LLDP's words; "" when the row
// says neither direction.
func onyxPortLLDP(row map[string]any) string {
	rx, rxOK := row["Receive"]
	tx, txOK := row["Transmit"]
	if !rxOK || !txOK {
		return ""
	}
	in := strings.EqualFold(strings.TrimSpace(str(rx)), "enabled")
	out := strings.EqualFold(strings.TrimSpace(str(tx)), "enabled")
	switch {
	case in && out:
		return "on"
	case in:
		return "transmit off"
	case out:
		return "receive off"
	}
	return "off"
}

// onOff is "on" or "off".
func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}
