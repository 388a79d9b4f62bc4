package docs

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// TestVLANTableCarriedOn checks the VLAN table of fabric.md: the
// switches whose ports carry each VLAN (five, then a count), how many
// ports, and how many NICs are in it, tagged or by their port's untagged
// VLAN; a VLAN nothing carries shows a dash.
func TestVLANTableCarriedOn(t *testing.T) {
	f := &model.Fabric{Name: "v", VLANs: []model.VLAN{{ID: 30, Name: "rdma"}, {ID: 31, Name: "storage"}, {ID: 40, Name: "spare"}}}
	for i := 1; i <= 7; i++ {
		f.Switches = append(f.Switches, model.Switch{Name: fmt.Sprintf("leaf%d", i), Ports: []model.Port{
			{Name: "swp1", Mode: model.ModeAccess, AccessVLAN: 30, Peer: &model.Peer{Kind: "host", Device: fmt.Sprintf("h%d", i), Port: "roce0"}},
			{Name: "swp2", Mode: model.ModeTrunk, TrunkVLANs: []int{31}, NativeVLAN: 30},
			{Name: "swp3", Mode: model.ModeRouted},
		}})
		f.Hosts = append(f.Hosts, model.Host{Name: fmt.Sprintf("h%d", i), NICs: []model.NIC{
			{Name: "roce0", Peer: &model.Peer{Kind: "switch", Device: fmt.Sprintf("leaf%d", i), Port: "swp1"}},
		}})
	}
	f.Switches[0].Ports[2] = model.Port{Name: "swp3", Mode: model.ModeTrunk, TrunkVLANs: []int{31}, Peer: &model.Peer{Kind: "host", Device: "t", Port: "roce0"}}
	f.Hosts = append(f.Hosts, model.Host{Name: "t", NICs: []model.NIC{{Name: "roce0", VLAN: 31, Peer: &model.Peer{Kind: "switch", Device: "leaf1", Port: "swp3"}}}})
	doc, err := RenderFabric(f, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := `| VLAN | name | carried on | ports | NICs |
| --: | --- | --- | --: | --: |
| 30 | rdma | leaf1, leaf2, leaf3, leaf4, leaf5 and 2 more | 14 | 7 |
| 31 | storage | leaf1, leaf2, leaf3, leaf4, leaf5 and 2 more | 8 | 1 |
| 40 | spare | - | 0 | 0 |
`
	if !strings.Contains(string(doc.Data), want) {
		i := strings.Index(string(doc.Data), "## VLANs")
		t.Errorf("fabric.md VLAN table:\n%s\nwant\n%s", string(doc.Data)[i:min(len(doc.Data), i+400)], want)
	}
}
