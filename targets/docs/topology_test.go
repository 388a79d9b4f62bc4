package docs

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// clos builds a bare model: spines x leaves at 400G, hostsPer hosts per
// leaf at 100G, and one unlinked host.
func clos(spines, leaves, hostsPer int) *model.Fabric {
	f := &model.Fabric{Name: "t"}
	for s := 1; s <= spines; s++ {
		sw := model.Switch{Name: fmt.Sprintf("spine%d", s), Platform: model.PlatformEOS, OSVersion: "4.32.2F", Hardware: model.Hardware{Model: "7050CX3-32S"}}
		for l := 1; l <= leaves; l++ {
			sw.Ports = append(sw.Ports, model.Port{Name: fmt.Sprintf("Ethernet%d/1", l), SpeedMbps: 400000})
		}
		f.Switches = append(f.Switches, sw)
	}
	for l := 1; l <= leaves; l++ {
		sw := model.Switch{Name: fmt.Sprintf("leaf%d", l), Platform: model.PlatformCumulus, OSVersion: "5.9.2", Hardware: model.Hardware{Model: "SN2700"}}
		for s := 1; s <= spines; s++ {
			sw.Ports = append(sw.Ports, model.Port{Name: fmt.Sprintf("swp%d", 30+s), SpeedMbps: 400000})
			f.Links = append(f.Links, model.Link{A: model.Endpoint{Kind: "switch", Device: sw.Name, Port: fmt.Sprintf("swp%d", 30+s)},
				B: model.Endpoint{Kind: "switch", Device: fmt.Sprintf("spine%d", s), Port: fmt.Sprintf("Ethernet%d/1", l)}})
		}
		for h := 1; h <= hostsPer; h++ {
			name := fmt.Sprintf("h%02d-%02d", l, h)
			sw.Ports = append(sw.Ports, model.Port{Name: fmt.Sprintf("swp%d", h), SpeedMbps: 100000})
			f.Hosts = append(f.Hosts, model.Host{Name: name, NICs: []model.NIC{{Name: "roce0", SpeedMbps: 100000}}})
			f.Links = append(f.Links, model.Link{A: model.Endpoint{Kind: "switch", Device: sw.Name, Port: fmt.Sprintf("swp%d", h)},
				B: model.Endpoint{Kind: "host", Device: name, Port: "roce0"}})
		}
		f.Switches = append(f.Switches, sw)
	}
	f.Hosts = append(f.Hosts, model.Host{Name: "spare"})
	return f
}

func TestMermaid(t *testing.T) {
	tests := []struct {
		name                    string
		spines, leaves, perLeaf int
		want                    string
		edges                   int
	}{
		{"hosts one node each", 1, 2, 2, `flowchart TB
  s_spine1["spine1<br>eos 4.32.2F<br>7050CX3-32S"]:::spine
  s_leaf1["leaf1<br>cumulus 5.9.2<br>SN2700"]:::leaf
  s_leaf2["leaf2<br>cumulus 5.9.2<br>SN2700"]:::leaf
  h_h01_h01["h01-01"]:::host
  h_h01_h02["h01-02"]:::host
  h_h02_h01["h02-01"]:::host
  h_h02_h02["h02-02"]:::host
  h_spare["spare"]:::host
  s_spine1 ---|"400G"| s_leaf1
  s_spine1 ---|"400G"| s_leaf2
  s_leaf1 ---|"100G"| h_h01_h01
  s_leaf1 ---|"100G"| h_h01_h02
  s_leaf2 ---|"100G"| h_h02_h01
  s_leaf2 ---|"100G"| h_h02_h02
`, 6},
		{"hosts grouped per leaf", 2, 2, 7, `flowchart TB
  s_spine1["spine1<br>eos 4.32.2F<br>7050CX3-32S"]:::spine
  s_spine2["spine2<br>eos 4.32.2F<br>7050CX3-32S"]:::spine
  s_leaf1["leaf1<br>cumulus 5.9.2<br>SN2700"]:::leaf
  s_leaf2["leaf2<br>cumulus 5.9.2<br>SN2700"]:::leaf
  g_leaf1["7 hosts<br>h01-01-07"]:::host
  g_leaf2["7 hosts<br>h02-01-07"]:::host
  g_["1 host without links<br>spare"]:::host
  s_spine1 ---|"400G"| s_leaf1
  s_spine1 ---|"400G"| s_leaf2
  s_spine2 ---|"400G"| s_leaf1
  s_spine2 ---|"400G"| s_leaf2
  s_leaf1 ---|"7 x 100G"| g_leaf1
  s_leaf2 ---|"7 x 100G"| g_leaf2
`, 6},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, edges := Mermaid(clos(tc.spines, tc.leaves, tc.perLeaf))
			got = got[:strings.Index(got, "  classDef")]
			if got != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
			if edges != tc.edges {
				t.Errorf("edges = %d, want %d", edges, tc.edges)
			}
		})
	}
}

// TestMermaidLarge: 4,096 leaves with 32 hosts each stay one node per
// switch and one per leaf's hosts; the document says the diagram is over
// Mermaid's default limits.
func TestMermaidLarge(t *testing.T) {
	f := clos(2, 4094, 32)
	text, edges := Mermaid(f)
	nodes := strings.Count(text, "\"]:::")
	if nodes != 2+4094+4094+1 || edges != 2*4094+4094 {
		t.Errorf("%d nodes, %d edges; want %d and %d", nodes, edges, 2+4094+4094+1, 2*4094+4094)
	}
	d := newDoc(false)
	writeTopology(d, f)
	if !strings.Contains(d.b.String(), "more than Mermaid's default limits (50,000 characters, 500 edges)") {
		t.Error("no note about Mermaid's limits")
	}
}

func TestNameRuns(t *testing.T) {
	tests := []struct {
		in   []string
		want string
	}{
		{[]string{"gpu01", "gpu02", "gpu03", "gpu04", "stor01", "stor02"}, "gpu01-04, stor01-02"},
		{[]string{"a", "b"}, "a, b"},
		{[]string{"n1", "n2", "n10"}, "n1-2, n10"},
		{[]string{"x09", "x10"}, "x09-10"},
		{[]string{"h7"}, "h7"},
	}
	for _, tc := range tests {
		if got := strings.Join(nameRuns(tc.in), ", "); got != tc.want {
			t.Errorf("nameRuns(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got, want := groupLabel([]string{"a1", "b", "c", "d", "e"}, false), "5 hosts<br>a1, b, c and 2 more"; got != want {
		t.Errorf("groupLabel = %q, want %q", got, want)
	}
}
