package verify

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Tests that pin the LLDP readers of lldp.go where a one-token mutation
// (review mutants4) left every earlier test passing.

// canuOnyxLLDP is the whole answer of Onyx's JSON API to `show lldp
// interfaces ethernet remote`, status and command around "data", as
// Cray-HPE canu's test data (lldp_json_mellanox) has it: two port
// channel members with neighbors, one port whose neighbor advertises
// nothing, one with only its port ID subtype.
const canuOnyxLLDP = `{
    "status": "OK",
    "executed_command": "show lldp interfaces ethernet remote",
    "status_message": "",
    "data": [
        {"Eth1/1 (Po100)": [{"port id subtype": "Interface Name (5)", "Remote chassis id": "aa:bb:cc:dd:ee:ff",
            "Remote system description": "Test Switch 3", "Remote port-id": "Eth1/11",
            "Remote port description": "sw-leaf03", "Remote system name": "sw-leaf03"}]},
        {"Eth1/2 (Po100)": [{"port id subtype": "Interface Name (5)", "Remote chassis id": "11:22:33:44:55:66",
            "Remote system description": "Test Switch 4", "Remote port-id": "ethernet1/1/12",
            "Remote port description": "sw-leaf04", "Remote system name": "sw-leaf04"}]},
        {"Eth1/3 (Po100)": [{"port id subtype": "Interface Name (5)", "Remote chassis id": "Not Advertised",
            "Remote system description": "Not Advertised", "Remote port-id": "Not Advertised",
            "Remote port description": "Not Advertised", "Remote system name": "Not Advertised"}]},
        {"Eth1/4 (Po100)": [{"port id subtype": "Interface Name (5)", "Remote port-id": "Not Advertised"}]}
    ]
}`

// TestOnyxNeighborsInTheJSONAPIAnswer: the neighbors are found inside the
// JSON API's wrapper ("status", "executed_command", "data"), keyed by
// the local port with its port channel, and a neighbor that advertises
// nothing is no neighbor.
func TestOnyxNeighborsInTheJSONAPIAnswer(t *testing.T) {
	got, err := ParseOnyxNeighbors([]byte(canuOnyxLLDP))
	if err != nil {
		t.Fatal(err)
	}
	want := Neighbors{
		"1/1": {{SystemName: "sw-leaf03", PortID: "Eth1/11", PortDescription: "sw-leaf03"}},
		"1/2": {{SystemName: "sw-leaf04", PortID: "ethernet1/1/12", PortDescription: "sw-leaf04"}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("neighbors (-want +got):\n%s", d)
	}
}

// TestOnyxKeysThatAreNotPorts: only "Eth" followed by a slot number
// ("Eth1/5", NVIDIA Onyx User Manual, Ethernet interfaces) names a
// local port; another key that starts with "Eth" is neither a port nor
// a reason to fail.
func TestOnyxKeysThatAreNotPorts(t *testing.T) {
	row := `[{"port id subtype": "Interface Name (5)", "Remote port-id": "Ethernet7", "Remote system name": "spine1"}]`
	got, err := ParseOnyxNeighbors([]byte(`{"Eth": ` + row + `, "Ethz1": ` + row + `, "Eth ": ` + row + `, "Eth1/5": ` + row + `}`))
	if err != nil {
		t.Fatal(err)
	}
	want := Neighbors{"1/5": {{SystemName: "spine1", PortID: "Ethernet7"}}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("neighbors (-want +got):\n%s", d)
	}
}

// TestOnyxTextFormPortIDNotAdvertised: in the text form the port ID
// line carries its subtype ("Remote port-id : Not Advertised ; port id
// subtype: ..."); a port ID not advertised is no port ID, as in the
// split form.
func TestOnyxTextFormPortIDNotAdvertised(t *testing.T) {
	got, err := ParseOnyxNeighbors([]byte(`{"Eth1/1": [{"Remote port-id": "Not Advertised ; port id subtype: Local (7)", "Remote system name": "gpu01"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := Neighbors{"1/1": {{SystemName: "gpu01"}}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("neighbors (-want +got):\n%s", d)
	}
}

// TestNeighborParseErrorsNameTheCommand: output that is not the JSON of
// the command (an error the switch printed instead) is an error that
// names the command whose output it was.
func TestNeighborParseErrorsNameTheCommand(t *testing.T) {
	for cmd, parse := range map[string]func([]byte) (Neighbors, error){
		"show lldp neighbors detail | json: ":                 ParseEOSNeighbors,
		"show lldp interfaces ethernet remote | json-print: ": ParseOnyxNeighbors,
		"nv show interface lldp-detail -o json: ":             ParseNVUENeighbors,
	} {
		ns, err := parse([]byte("% Invalid input"))
		if err == nil || !strings.HasPrefix(err.Error(), cmd) || ns != nil {
			t.Errorf("%s: %v, %v; want an error starting %q", cmd, ns, err, cmd)
		}
	}
}

// TestEOSNeighborWithoutSystemName: the System Name TLV is optional
// (IEEE 802.1AB, 8.5.6); a neighbor that sends only its Port ID (a
// NIC's own LLDP agent) is still a neighbor, and one with no
// "interfaceIdType" is a MAC address only when its Port ID is written
// as one.
func TestEOSNeighborWithoutSystemName(t *testing.T) {
	got, err := ParseEOSNeighbors([]byte(`{"lldpNeighbors": {
        "Ethernet3/1": {"lldpNeighborInfo": [{"neighborInterfaceInfo": {"interfaceIdType": "interfaceName", "interfaceId": "\"ens1f0\""}}]},
        "Ethernet4/1": {"lldpNeighborInfo": [{"systemName": "gpu02", "neighborInterfaceInfo": {"interfaceId": "\"ens1f1\""}}]},
        "Ethernet5/1": {"lldpNeighborInfo": [{"systemName": "gpu03", "neighborInterfaceInfo": {"interfaceId": "0c42.a100.0003"}}]}
    }}`))
	if err != nil {
		t.Fatal(err)
	}
	want := Neighbors{
		"Ethernet3/1": {{PortID: "ens1f0"}},
		"Ethernet4/1": {{SystemName: "gpu02", PortID: "ens1f1"}},
		"Ethernet5/1": {{SystemName: "gpu03", PortID: "0c42.a100.0003", PortIDMAC: true}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("neighbors (-want +got):\n%s", d)
	}
}

// TestNVUENeighborWithoutPortType: an NVUE neighbor whose port has no
// "type" is a MAC address only when its port name is written as one;
// "type" says it otherwise ("ifname", "mac": lldpd's port ID subtypes).
func TestNVUENeighborWithoutPortType(t *testing.T) {
	got, err := ParseNVUENeighbors([]byte(`{
        "swp1": {"lldp": {"neighbor": {"spine1": {"chassis": {"system-name": "spine1"}, "port": {"name": "swp31"}}}}},
        "swp3": {"lldp": {"neighbor": {"gpu01": {"chassis": {"system-name": "gpu01"}, "port": {"name": "0c:42:a1:00:00:01", "description": "ens1f0"}}}}},
        "swp4": {"lldp": {"neighbor": {"gpu02": {"chassis": {"system-name": "gpu02"}, "port": {"name": "ens1f1", "type": "ifname"}}}}}
    }`))
	if err != nil {
		t.Fatal(err)
	}
	want := Neighbors{
		"swp1": {{SystemName: "spine1", PortID: "swp31"}},
		"swp3": {{SystemName: "gpu01", PortID: "0c:42:a1:00:00:01", PortIDMAC: true, PortDescription: "ens1f0"}},
		"swp4": {{SystemName: "gpu02", PortID: "ens1f1"}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("neighbors (-want +got):\n%s", d)
	}
}

// TestOnyxNeighborWithoutSubtype: a row that carries no "port id
// subtype" (Onyx prints it on the port-id line in the text form, or
// not at all) takes a port ID written as a MAC address (a Linux host's
// lldpd by default, lldpcli(8) "configure lldp portidsubtype") for one,
// so the host's cable is checked by its port description.
func TestOnyxNeighborWithoutSubtype(t *testing.T) {
	got, err := ParseOnyxNeighbors([]byte(`{"Eth1/3": [{"Remote port-id": "0c:42:a1:00:00:01", "Remote port description": "ens1f0", "Remote system name": "gpu01"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := Neighbors{"1/3": {{SystemName: "gpu01", PortID: "0c:42:a1:00:00:01", PortIDMAC: true, PortDescription: "ens1f0"}}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("neighbors (-want +got):\n%s", d)
	}
}
