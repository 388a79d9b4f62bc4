package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/dsl"
)

// TestPathExamples: the exact walk of one host (or pair) of each example
// fabric, compared with testdata/path. The files were checked by hand
// against each fabric's model.json: the leaf port each NIC is cabled to,
// its uplinks and the spines' ports at their far ends, with each port's
// PFC priorities, trust, MTU and mode.
func TestPathExamples(t *testing.T) {
	tests := []struct {
		fabric string
		args   []string
		code   int
	}{
		{"tutorial", []string{"node1"}, 0},
		{"multivendor-clos", []string{"gpu01"}, 0},
		// Two racks' VLANs, no gateway on either NIC: no route.
		{"multivendor-clos", []string{"gpu01", "gpu05"}, 2},
		{"ai-rails", []string{"gpu01"}, 0},
		{"routed-hosts", []string{"gpu01", "arch01"}, 0},
	}
	for _, tc := range tests {
		name := tc.fabric + "-" + strings.Join(tc.args, "-")
		want, err := os.ReadFile(filepath.Join("testdata", "path", name+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		args := append([]string{"path", "--fabric", filepath.Join("..", "..", "examples", tc.fabric)}, tc.args...)
		code, stdout, stderr := fabricc(t, args...)
		if code != tc.code || stderr != "" || stdout != string(want) {
			t.Errorf("%s: exit %d (want %d), stderr %q, stdout\n%s\nwant\n%s", name, code, tc.code, stderr, stdout, want)
		}
	}
}

// TestPathMarksDisagreement: a fabric edited so that the leaves' and
// spines' uplinks have an MTU of 5000, which validate accepts (RoCE's
// 4096 B path MTU fits), marks every uplink end against the NIC's 9000
// and exits 2; --json counts the same problems.
func TestPathMarksDisagreement(t *testing.T) {
	dir := copyExample(t, filepath.Join("..", "..", "examples", "multivendor-clos"))
	sw := filepath.Join(dir, "switches.hcl")
	src, err := os.ReadFile(sw)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.NewReplacer("mtu         = 9214 # EOS's largest (IP) MTU", "mtu = 5000",
		"mtu   = 9214 # equal to the EOS spines' maximum", "mtu = 5000").Replace(string(src))
	if strings.Count(edited, "mtu = 5000") != 2 {
		t.Fatalf("the edit did not take:\n%s", edited)
	}
	writeFile(t, sw, edited)
	if code, _, stderr := fabricc(t, "validate", dir); code != 0 {
		t.Fatalf("the edited fabric does not validate: %s", stderr)
	}
	code, stdout, stderr := fabricc(t, "path", "gpu01", "--fabric", dir)
	want := `  gpu01 roce0 (ConnectX-6 Dx, ens1f0np0): RoCE v2 priority 3 DSCP 26, trust dscp, MTU 9000, PFC 3, untagged, 10.0.1.11/24
  path: leaf1 -> 2 spines: spine1, spine2
    stage       switch  port         peer                pfc  trust  mtu   vlan
    leaf        leaf1   swp1         gpu01 roce0         3    dscp   9216  access 101
!   leaf-spine  leaf1   swp31        spine1 Ethernet1/1  3    dscp   5000  routed      MTU 5000 < NIC MTU 9000
!   leaf-spine  spine1  Ethernet1/1  leaf1 swp31         3    dscp   5000  routed      MTU 5000 < NIC MTU 9000
!   leaf-spine  leaf1   swp32        spine2 Ethernet1/1  3    dscp   5000  routed      MTU 5000 < NIC MTU 9000
!   leaf-spine  spine2  Ethernet1/1  leaf1 swp32         3    dscp   5000  routed      MTU 5000 < NIC MTU 9000
4 problems (marked !) on 1 path, 5 ports
`
	if code != 2 || stderr != "" || stdout != want {
		t.Errorf("exit %d, stderr %q, stdout\n%s\nwant\n%s", code, stderr, stdout, want)
	}
	code, stdout, _ = fabricc(t, "path", "gpu01", "--fabric", dir, "--json")
	var env struct {
		Command string
		OK      bool
		Result  struct {
			Problems int
			Paths    []struct {
				Ports []struct {
					Switch, Port string
					Problems     []string
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(stdout), &env); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if code != 2 || env.Command != "path" || !env.OK || env.Result.Problems != 4 ||
		strings.Join(env.Result.Paths[0].Ports[2].Problems, ";") != "MTU 5000 < NIC MTU 9000" || env.Result.Paths[0].Ports[2].Switch != "spine1" {
		t.Errorf("--json: exit %d, %+v", code, env)
	}
}

// TestPathPFCOffOnLeafPort: the compiler refuses a leaf port with PFC
// off facing RoCE (examples/bad/pfc-off-facing-roce.hcl), so path gets
// such a port only from a model edited here: the port is marked with
// the priority, and the status is 2.
func TestPathPFCOffOnLeafPort(t *testing.T) {
	f, _, diags := compileFabric(filepath.Join("..", "..", "examples", "tutorial"), dsl.Options{})
	if f == nil {
		t.Fatal(diags)
	}
	f.Switch("leaf1").Port("swp1").PFCPriorities = []int{4}
	r := walkPath(f, []string{"node1"})
	var b strings.Builder
	if err := writePath(&b, r); err != nil {
		t.Fatal(err)
	}
	want := `  node1 roce0 (ConnectX-6 Dx, ens1f0np0): RoCE v2 priority 3 DSCP 26, trust dscp, MTU 9000, PFC 3, untagged, 10.0.10.11/24
  path: leaf1
    stage  switch  port  peer         pfc  trust  mtu   vlan
!   leaf   leaf1   swp1  node1 roce0  4    dscp   9216  access 10  PFC off for priority 3
1 problem (marked !) on 1 path, 1 port
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	if err := pathStatus(r); err != changesPending {
		t.Errorf("status %v, want exit status 2", err)
	}
}

// TestPathBadInput: an unknown host names the closest, or the hosts; a
// fabric that does not compile prints validate's diagnostic; each exits
// 1, as does a wrong command line (2 is "a port disagrees").
func TestPathBadInput(t *testing.T) {
	tutorial := filepath.Join("..", "..", "examples", "tutorial")
	bad := filepath.Join("..", "..", "examples", "bad", "pfc-off-facing-roce.hcl")
	tests := []struct {
		args   []string
		stderr string
	}{
		{[]string{"path", "nod1", "--fabric", tutorial}, "fabricc: fabric \"tutorial\" has no host \"nod1\"; did you mean \"node1\"?\n"},
		{[]string{"path", "node1", "storage", "--fabric", tutorial}, "fabricc: fabric \"tutorial\" has no host \"storage\"; its hosts are node1, node2\n"},
		{[]string{"path", "--fabric", tutorial}, "fabricc: path needs HOST [TO_HOST]. Usage: fabricc path HOST [TO_HOST]\nRun 'fabricc path --help' for usage.\n"},
		{[]string{"path", "node1", "node1", "--fabric", tutorial}, "fabricc: HOST and TO_HOST are both \"node1\"; give two hosts, or one to walk its NICs to the top of the Clos\nRun 'fabricc path --help' for usage.\n"},
		{[]string{"path", "node1", "--fabric", filepath.Join(tutorial, "nope")}, "fabricc: " + filepath.Join(tutorial, "nope") + " does not exist; give a .hcl file or a folder of .hcl files\nRun 'fabricc path --help' for usage.\n"},
	}
	for _, tc := range tests {
		code, stdout, stderr := fabricc(t, tc.args...)
		if code != 1 || stdout != "" || stderr != tc.stderr {
			t.Errorf("%q: exit %d, stdout %q, stderr\n%s\nwant\n%s", tc.args, code, stdout, stderr, tc.stderr)
		}
	}
	code, _, stderr := fabricc(t, "path", "gpu1", "--fabric", bad)
	_, _, validate := fabricc(t, "validate", bad)
	diag, _, _ := strings.Cut(validate, "\n1 error")
	if code != 1 || !strings.HasPrefix(stderr, diag) || !strings.HasSuffix(stderr, "does not compile (1 error, 0 warnings); no path walked\n") {
		t.Errorf("bad fabric: exit %d, stderr\n%s\nvalidate says\n%s", code, stderr, validate)
	}
}

// TestPathUncabled: a NIC the fabric cables to nothing is named.
func TestPathUncabled(t *testing.T) {
	code, stdout, _ := fabricc(t, "path", "gpu1", "--fabric", filepath.Join("..", "..", "examples", "bad", "warn-nic-not-cabled.hcl"))
	if code != 0 || !strings.Contains(stdout, "\ngpu1 roce1: not cabled (the fabric gives it no link)\nok: 1 path,") {
		t.Errorf("exit %d\n%s", code, stdout)
	}
}

// TestPathBackToBack: NICs cabled straight to each other have a path
// with no switch port (examples/homelab-40g).
func TestPathBackToBack(t *testing.T) {
	homelab := filepath.Join("..", "..", "examples", "homelab-40g")
	code, stdout, _ := fabricc(t, "path", "nas", "workstation", "--fabric", homelab)
	want := `  nas mlxen0 (ConnectX-3 Pro, mlxen0): RoCE v2 priority 3 DSCP 26, trust pcp, MTU 9000, PFC 3, VLAN 20, 10.20.0.1/24
  workstation qsfp1 (ConnectX-3 Pro, Ethernet 3): RoCE v2 priority 3 DSCP 26, trust pcp, MTU 9000, PFC 3, VLAN 20, 10.20.0.10/24
  path: no switch: cabled straight to each other
ok: 1 path, no switch port on it
`
	if code != 0 || stdout != want {
		t.Errorf("exit %d\n%s\nwant\n%s", code, stdout, want)
	}
	if code, stdout, _ = fabricc(t, "path", "nas", "--fabric", homelab); code != 0 || !strings.Contains(stdout, "\n  path: no switch: cabled straight to workstation qsfp1\n") {
		t.Errorf("exit %d\n%s", code, stdout)
	}
}

// TestPathCompletesHosts: HOST completes with the fabric's host names.
func TestPathCompletesHosts(t *testing.T) {
	_, stdout, _ := fabricc(t, "__complete", "path", "--fabric", filepath.Join("..", "..", "examples", "tutorial"), "")
	if !strings.HasPrefix(stdout, "node1\nnode2\n:4\n") {
		t.Errorf("completion:\n%s", stdout)
	}
}

// TestPathReviewDoc: the walk docs/review.md quotes is the command's
// output.
func TestPathReviewDoc(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "review.md"))
	if err != nil {
		t.Fatal(err)
	}
	const command = "$ fabricc path gpu01 --fabric examples/multivendor-clos\n"
	_, quoted, ok := strings.Cut(string(doc), command)
	quoted, _, ok2 := strings.Cut(quoted, "```\n")
	if !ok || !ok2 {
		t.Fatalf("docs/review.md does not quote %q in a code block", command)
	}
	_, stdout, _ := fabricc(t, "path", "gpu01", "--fabric", filepath.Join("..", "..", "examples", "multivendor-clos"))
	if quoted != stdout {
		t.Errorf("docs/review.md quotes\n%s\nfabricc path prints\n%s", quoted, stdout)
	}
}

// TestPathPairUncabled: between two hosts where the second has no NIC
// cabled to a switch (the tutorial without node2's link), no path joins
// them: the uncabled host is named as a problem, marked !, the exit
// status is 2 and --json counts it, whichever host is given first.
func TestPathPairUncabled(t *testing.T) {
	dir := copyExample(t, filepath.Join("..", "..", "examples", "tutorial"))
	file := filepath.Join(dir, "fabric.hcl")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	link := "link {\n  a      = \"leaf1:swp2\"\n  b      = \"node2:roce0\"\n  length = 3\n}\n"
	nic := "    addresses = [\"10.0.10.12/24\"]\n"
	edited := strings.Replace(strings.Replace(string(src), link, "", 1), nic, nic+"    speed     = \"100G\"\n", 1)
	if strings.Contains(edited, "node2:roce0") || !strings.Contains(edited, "speed     = \"100G\"") {
		t.Fatalf("the edit did not take:\n%s", edited)
	}
	writeFile(t, file, edited)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"node1", "node2"}, `node2 roce0: not cabled (the fabric gives it no link)
! no path: node2 has no NIC cabled to a switch
1 problem (marked !): no path joins node1 and node2
`},
		{[]string{"node2", "node1"}, `node2 roce0: not cabled (the fabric gives it no link)
! no path: node2 has no NIC cabled to a switch
1 problem (marked !): no path joins node2 and node1
`},
	} {
		code, stdout, stderr := fabricc(t, append([]string{"path", "--fabric", dir}, tc.args...)...)
		if code != 2 || stderr != "" || stdout != tc.want {
			t.Errorf("%q: exit %d, stderr %q, stdout\n%s\nwant\n%s", tc.args, code, stderr, stdout, tc.want)
		}
	}
	code, stdout, _ := fabricc(t, "path", "--fabric", dir, "node1", "node2", "--json")
	var env struct {
		OK     bool
		Result struct {
			Paths       []json.RawMessage
			Uncabled    []string
			Unreachable []string
			Problems    int
		}
	}
	if err := json.Unmarshal([]byte(stdout), &env); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if code != 2 || !env.OK || env.Result.Problems != 1 || len(env.Result.Paths) != 0 ||
		strings.Join(env.Result.Uncabled, ";") != "node2 roce0" || strings.Join(env.Result.Unreachable, ";") != "no path: node2 has no NIC cabled to a switch" {
		t.Errorf("--json: exit %d, %+v", code, env)
	}
}

// TestPathBridgedLeafToLeaf: two NICs in one VLAN and subnet on two
// leaves that a trunk joins carrying that VLAN (multivendor-clos's
// leaf1 swp8 to leaf2 swp8, which carry every rack VLAN) are bridged
// across the trunk, not routed through the spines, whose links are
// routed: the walk takes the two leaf ports and both ends of the
// trunk. The model is edited here to put gpu05 in gpu01's VLAN 101 and
// subnet.
func TestPathBridgedLeafToLeaf(t *testing.T) {
	f, _, diags := compileFabric(filepath.Join("..", "..", "examples", "multivendor-clos"), dsl.Options{})
	if f == nil {
		t.Fatal(diags)
	}
	f.Switch("leaf2").Port("swp1").AccessVLAN = 101
	f.Host("gpu05").NICs[0].Addresses = []string{"10.0.1.15/24"}
	r := walkPath(f, []string{"gpu01", "gpu05"})
	var b strings.Builder
	if err := writePath(&b, r); err != nil {
		t.Fatal(err)
	}
	want := `  gpu01 roce0 (ConnectX-6 Dx, ens1f0np0): RoCE v2 priority 3 DSCP 26, trust dscp, MTU 9000, PFC 3, untagged, 10.0.1.11/24
  gpu05 roce0 (ConnectX-6 Dx, ens1f0np0): RoCE v2 priority 3 DSCP 26, trust dscp, MTU 9000, PFC 3, untagged, 10.0.1.15/24
  path: leaf1 -> leaf2 (bridged in VLAN 101)
    stage      switch  port  peer         pfc  trust  mtu   vlan
    leaf       leaf1   swp1  gpu01 roce0  3    dscp   9216  access 101
    leaf-leaf  leaf1   swp8  leaf2 swp8   3    dscp   9216  trunk 101-104 native 101
    leaf-leaf  leaf2   swp8  leaf1 swp8   3    dscp   9216  trunk 101-104 native 101
    leaf       leaf2   swp1  gpu05 roce0  3    dscp   9216  access 101
ok: 1 path, 4 ports: every port agrees with its NIC
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}
