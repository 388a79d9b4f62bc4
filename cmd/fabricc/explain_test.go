package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// lineOf returns the number of the first line of file that contains s.
func lineOf(t *testing.T, file, s string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, s) {
			return i + 1
		}
	}
	t.Fatalf("%s has no line with %q", file, s)
	return 0
}

// TestExplainLines explains one line of each kind in the golden build
// folders (whose manifests name the examples) and compares the whole
// output; @N stands for the line's number.
func TestExplainLines(t *testing.T) {
	t.Chdir(filepath.Join("..", ".."))
	tests := []struct {
		name, file, line, want string
	}{
		{"NVUE headroom", "golden/multivendor-clos/leaf1/leaf1.nvue.sh", "nv set qos pfc pfc-sp3-100g-1m port-buffer 95232", `golden/multivendor-clos/leaf1/leaf1.nvue.sh:@N: nv set qos pfc pfc-sp3-100g-1m port-buffer 95232

from switch leaf1, port swp1, priority group 3 (lossless, priorities 3, pool roce-lossless-ingress)
  port block                                examples/multivendor-clos/switches.hcl:57:5
  qos block                                 examples/multivendor-clos/fabric.hcl:18:1
  class "roce", from profile "nvidia-roce"  examples/multivendor-clos/fabric.hcl:19:13
  PFC headroom
    formula: SONiC Mellanox headroom (sonic-swss cfgmgr/buffer_headroom_mellanox.lua @422271e7e): xoff = ceil1K(lossless_mtu + propagation x cell_occupancy) [+2 KB small-packet compensation], xon = ceil1K(pipeline_latency), size = ceil1K(xoff + xon)
    inputs:
      speed             100G      examples/multivendor-clos/switches.hcl:61:17
      lanes             4         computed at examples/multivendor-clos/switches.hcl:52:18; not written: the fewest lanes that carry the speed on SN2700
      cable length      1 m dac   computed at examples/multivendor-clos/links.hcl:7:14
      port MTU          9,216 B   examples/multivendor-clos/switches.hcl:62:17
      lossless MTU      4,096 B   examples/multivendor-clos/fabric.hcl:20:3
      small packets     100 %     examples/multivendor-clos/fabric.hcl:20:3 (not written there: the block holding it); default: the worst case, every packet small
      cell size         96 B      computed at examples/multivendor-clos/switches.hcl:52:18; hardware table: SN2700 (Spectrum), from NVIDIA SN2000 datasheet (16 MB); sonic-buildimage platform/mellanox/asic_table.j2 MELLANOX-SPECTRUM (cell 96 B, pipeline 19 KB, mac_phy 0.8 KB)
      pipeline latency  19,456 B  computed at examples/multivendor-clos/switches.hcl:52:18; hardware table: SN2700 (Spectrum)
      MAC/PHY delay     819 B     computed at examples/multivendor-clos/switches.hcl:52:18; hardware table: SN2700 (Spectrum)
      pause quanta      394       IEEE 802.3 Annex 31B pause quanta for the port speed, as tabulated in SONiC buffer_headroom_mellanox.lua
    steps:
      peer response = pause quanta x 512 bits / 8, IEEE 802.3's worst case (NVIDIA tables: 3.8 KB)           25,216 B
      cable = 2 x length x speed / 198,000 km/s / 8                                                          127 B
      propagation = port MTU + cable + MAC/PHY delay + peer response                                         35,378 B
      cell occupancy (small packets by bytes x cells per small packet)                                       2.000
      in flight after PAUSE (SONiC xoff) = lossless MTU + propagation x cell occupancy, rounded up to 1 KiB  75,776 B
      PAUSE threshold (SONiC xon) = pipeline latency, rounded up to 1 KiB                                    19,456 B
      buffer (SONiC size) = in flight + PAUSE threshold, rounded up to 1 KiB                                 95,232 B
`},
		{"NVUE ECN", "golden/multivendor-clos/leaf1/leaf1.nvue.sh", "traffic-class 3 min-threshold 150000", `golden/multivendor-clos/leaf1/leaf1.nvue.sh:@N: nv set qos congestion-control default-global traffic-class 3 min-threshold 150000

from ECN of class "roce" (traffic class 3): mark from 150,000 B, up to 100 % at 1,500,000 B
  qos block                                        examples/multivendor-clos/fabric.hcl:18:1
  ecn of class "roce", from profile "nvidia-roce"  examples/multivendor-clos/fabric.hcl:19:13
`},
		{"EOS trunk VLANs", "golden/multivendor-clos/spine1/spine1.eos.cfg", "switchport trunk allowed vlan 101-104", `golden/multivendor-clos/spine1/spine1.eos.cfg:@N:    switchport trunk allowed vlan 101-104

from switch spine1, port Ethernet5/1: VLANs 101-104
  vlans  computed at examples/multivendor-clos/switches.hcl:29:15

from VLAN 101 "rack1"
  vlan block  examples/multivendor-clos/fabric.hcl:69:1
  id          computed at examples/multivendor-clos/fabric.hcl:73:10

from VLAN 102 "rack2"
  vlan block  examples/multivendor-clos/fabric.hcl:69:1
  id          computed at examples/multivendor-clos/fabric.hcl:73:10

from VLAN 103 "rack3"
  vlan block  examples/multivendor-clos/fabric.hcl:69:1
  id          computed at examples/multivendor-clos/fabric.hcl:73:10

from VLAN 104 "rack4"
  vlan block  examples/multivendor-clos/fabric.hcl:69:1
  id          computed at examples/multivendor-clos/fabric.hcl:73:10
`},
		{"Linux RDMA-CM ToS", "golden/multivendor-clos/gpu01/gpu01.linux.sh", "roce_cm \"$ifc\" 'RoCE v2' 106", `golden/multivendor-clos/gpu01/gpu01.linux.sh:@N:     roce_cm "$ifc" 'RoCE v2' 106 mlx5_ib "$ifc" 10.0.1.11 0000:0000:0000:0000:0000:ffff:0a00:010b

from host gpu01, nic roce0 (ConnectX-6 Dx on ens1f0np0): roce mode v2
  roce_mode  default v2 (not written; examples/multivendor-clos/hosts.hcl:11:5 is the block holding it)

from host gpu01, nic roce0 (ConnectX-6 Dx on ens1f0np0): dscp 26 (ToS 106)
  qos block                                                              examples/multivendor-clos/fabric.hcl:18:1
  dscp not written on the nic: class "roce", from profile "nvidia-roce"  examples/multivendor-clos/fabric.hcl:19:13
  ToS
    formula: ToS = DSCP x 4 + 2 (the DSCP in the upper six bits of the IP ToS byte, as RDMA-CM takes it, and ECT(0), which a switch needs to ECN-mark RoCE v2: RFC 3168, section 5)
    inputs:
      DSCP  26  the nic's dscp, above
    steps:
      ToS  106

from host gpu01, nic roce0 (ConnectX-6 Dx on ens1f0np0): addresses 10.0.1.11/24
  addresses  computed at examples/multivendor-clos/hosts.hcl:17:22
`},
		{"PowerShell default policy", "golden/demartek-lab/win-client/win-client.windows.ps1", "New-NetQosPolicy -Name 'DEFAULT'", `golden/demartek-lab/win-client/win-client.windows.ps1:@N:         New-NetQosPolicy -Name 'DEFAULT' -Default -PriorityValue8021Action 3 | Out-Null

from host win-client, nic roce0 (ConnectX-4 on Ethernet 4): priority 3
  qos block                                                                  examples/demartek-lab/fabric.hcl:19:1
  priority not written on the nic: class "roce", from profile "nvidia-roce"  examples/demartek-lab/fabric.hcl:20:13
`},
		{"fabric.md cabling row", "golden/multivendor-clos/fabric.md", "| 3 | [leaf1]", `golden/multivendor-clos/fabric.md:@N: | 3 | [leaf1](leaf1/leaf1.md) | swp3 | [gpu03](gpu03/gpu03.md) | roce0 | 100G | 4 | dac | 2 m | 9216 / 9000 |

from the cable of switch leaf1, port swp3: to host gpu03 roce0, 2 m dac
  link block  examples/multivendor-clos/links.hcl:2:1
  length      computed at examples/multivendor-clos/links.hcl:7:14

from switch leaf1, port swp3 (100G, access, MTU 9216)
  port block  examples/multivendor-clos/switches.hcl:57:5

from host gpu03, nic roce0 (ConnectX-6 Dx on ens1f0np0)
  nic block  examples/multivendor-clos/hosts.hcl:11:5
`},
		{"fixed text", "golden/multivendor-clos/leaf1/leaf1.nvue.sh", "set -euo pipefail", `golden/multivendor-clos/leaf1/leaf1.nvue.sh:@N: set -euo pipefail
  fixed text: a comment or boilerplate that does not depend on the fabric
`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n := lineOf(t, tc.file, tc.line)
			code, stdout, stderr := fabricc(t, "explain", fmt.Sprintf("%s:%d", tc.file, n))
			want := strings.ReplaceAll(tc.want, "@N", strconv.Itoa(n))
			if code != 0 || stdout != want || stderr != "" {
				t.Errorf("exit %d, stderr %q, stdout:\n%s\nwant:\n%s", code, stderr, stdout, want)
			}
		})
	}
}

// TestExplainJSON: --json prints the explanation as the result of the
// shared envelope.
func TestExplainJSON(t *testing.T) {
	t.Chdir(filepath.Join("..", ".."))
	file := "golden/multivendor-clos/leaf1/leaf1.nvue.sh"
	n := lineOf(t, file, "traffic-class 3 min-threshold 150000")
	code, stdout, _ := fabricc(t, "explain", "--json", fmt.Sprintf("%s:%d", file, n))
	var env struct {
		Command string
		OK      bool
		Result  struct {
			File     string
			Line     int
			Text     string
			Fixed    bool `json:"fixed_text"`
			Elements []struct {
				Path    []string
				Sources []struct {
					What  string
					Range struct {
						Filename string
						Start    struct{ Line, Column int }
					}
					Written bool
				}
			}
		}
	}
	dec := json.NewDecoder(strings.NewReader(stdout))
	if err := dec.Decode(&env); err != nil || dec.More() {
		t.Fatalf("stdout is not one JSON object (%v):\n%s", err, stdout)
	}
	r := env.Result
	if code != 0 || env.Command != "explain" || !env.OK || r.File != file || r.Line != n || r.Fixed ||
		r.Text != "nv set qos congestion-control default-global traffic-class 3 min-threshold 150000" || len(r.Elements) != 1 {
		t.Fatalf("exit %d, envelope %+v", code, env)
	}
	el := r.Elements[0]
	if strings.Join(el.Path, "/") != "qos/class/roce/ecn" || len(el.Sources) != 2 {
		t.Fatalf("element %+v", el)
	}
	s := el.Sources[1]
	if s.What != `ecn of class "roce", from profile "nvidia-roce"` || s.Range.Filename != "examples/multivendor-clos/fabric.hcl" ||
		s.Range.Start.Line != 19 || s.Range.Start.Column != 13 || !s.Written {
		t.Errorf("source %+v", s)
	}
}

// TestExplainRefuses: a file changed by hand, a folder whose fabric
// changed since the build (stale), files explain does not take, and bad
// command lines are refused with a message naming the file; a hostile
// file name is printed escaped.
func TestExplainRefuses(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", "homelab-40g", "fabric.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	writeFabric(t, "fab", string(src))
	if code, _, stderr := fabricc(t, "build", "fab", "-o", "out"); code != 0 {
		t.Fatalf("build: %s", stderr)
	}
	line := lineOf(t, "out/nas/nas.md", "| mlxen0 |")
	explainNAS := fmt.Sprintf("out/nas/nas.md:%d", line)
	if code, stdout, stderr := fabricc(t, "explain", explainNAS); code != 0 || !strings.Contains(stdout, "from host nas, nic mlxen0") {
		t.Fatalf("explain before any change: exit %d\n%s%s", code, stdout, stderr)
	}
	stale := strings.Replace(string(src), "length = 50\n", "length = 60\n", 1)
	if stale == string(src) {
		t.Fatal("the homelab fabric has no \"length = 50\" to change")
	}
	writeFabric(t, "fab", stale)
	if err := os.WriteFile("stray.md", []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	hostile := "out/nas/x\x1b[31m.md"
	if err := os.WriteFile(hostile, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"stale", []string{explainNAS}, 1, "fabricc: out/nas/nas.md is stale: building fab now gives another nas/nas.md than the build that wrote the folder " +
			"(the fabric or fabricc changed since, or the -var, --var-file or --large given here differ from the build's, which manifest.json records); run fabricc build again\n"},
		{"stale with --fabric too", []string{"--fabric", "fab", explainNAS}, 1, "fabricc: out/nas/nas.md is stale: "},
		{"model.json", []string{"out/model.json:2"}, 1, "fabricc: out/model.json is the compiled model (or its index), written whole by fabricc, not by a target; explain a line of a device file or fabric.md\n"},
		{"manifest.json", []string{"out/manifest.json:3"}, 1, "fabricc: out/manifest.json is the compiled model (or its index), written whole by fabricc, not by a target; explain a line of a device file or fabric.md\n"},
		{"not in a build folder", []string{"stray.md:1"}, 1, "fabricc: stray.md is not in a folder fabricc build wrote: no manifest.json next to it or one folder up\n"},
		{"hostile name", []string{hostile + ":1"}, 1, "fabricc: out/nas/x\\x1b[31m.md is not listed in its folder's manifest.json; explain works on the files fabricc build wrote\n"},
		{"no line", []string{"out/nas/nas.md"}, 2, "fabricc: \"out/nas/nas.md\": give FILE:LINE, such as out/leaf1/leaf1.nvue.sh:79\n"},
		{"line 0", []string{"out/nas/nas.md:0"}, 2, "fabricc: \"out/nas/nas.md:0\": the line must be a number from 1, as in out/leaf1/leaf1.nvue.sh:79\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := fabricc(t, append([]string{"explain"}, tc.args...)...)
			if code != tc.code || stdout != "" || !strings.HasPrefix(stderr, tc.stderr) || strings.ContainsRune(stderr, 0x1b) {
				t.Errorf("exit %d (want %d), stdout %q, stderr:\n%s\nwant it to start with:\n%s", code, tc.code, stdout, stderr, tc.stderr)
			}
		})
	}
	// Rebuilt, the folder is explained again; a hand edit is refused.
	if err := os.Remove(hostile); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := fabricc(t, "build", "fab", "-o", "out"); code != 0 {
		t.Fatalf("build: %s", stderr)
	}
	if code, _, stderr := fabricc(t, "explain", explainNAS); code != 0 {
		t.Fatalf("explain after the rebuild: exit %d: %s", code, stderr)
	}
	if err := os.WriteFile("out/nas/nas.md", []byte("edited\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := fabricc(t, "explain", explainNAS)
	want := "fabricc: out/nas/nas.md was changed after fabricc build wrote it (its SHA-256 differs from manifest.json); build the folder again\n"
	if code != 1 || stderr != want {
		t.Errorf("hand-edited file: exit %d, stderr %q, want %q", code, stderr, want)
	}
}

// TestExplainClassAttributeFromProfile: a class block that writes neither
// priority nor lossless is not credited with the NIC's PFC priorities as
// if it wrote them: the class block is named as not written there, and
// the profile that gives the priority follows.
func TestExplainClassAttributeFromProfile(t *testing.T) {
	dir := t.TempDir()
	fab := filepath.Join(dir, "fabric")
	if err := os.MkdirAll(fab, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"fabric.hcl", "switches.hcl", "hosts.hcl", "links.hcl"} {
		src, err := os.ReadFile(filepath.Join(clos, name))
		if err != nil {
			t.Fatal(err)
		}
		if name == "fabric.hcl" {
			src = []byte(strings.Replace(string(src), "  profile = \"nvidia-roce\"\n",
				"  profile = \"nvidia-roce\"\n  class \"roce\" {\n    bandwidth = 60\n  }\n  class \"default\" {\n    bandwidth = 40\n  }\n", 1))
		}
		if err := os.WriteFile(filepath.Join(fab, name), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "out")
	if code, _, stderr := fabricc(t, "build", fab, "-o", out); code != 0 {
		t.Fatalf("build: exit %d\n%s", code, stderr)
	}
	script := filepath.Join(out, "gpu01", "gpu01.linux.sh")
	code, stdout, stderr := fabricc(t, "explain", fmt.Sprintf("%s:%d", script, lineOf(t, script, "mlnx_pfc \"$ifc\" 0,0,0,1,0,0,0,0")))
	// Paths are printed relative to the working directory.
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`\n  pfc_priorities not written on the nic: class "roce"  \S*/fabric/fabric\.hcl:20:3 \(not written there: the block holding it\)\n`),
		regexp.MustCompile(`\n  class "roce" priority, from profile "nvidia-roce"    \S*/fabric/fabric\.hcl:19:13\n`),
	} {
		if code != 0 || !want.MatchString(stdout) {
			t.Errorf("exit %d, stdout lacks %q:\n%s%s", code, want, stdout, stderr)
		}
	}
}

// TestExplainBuildInputs: manifest.json records the build's -var,
// --var-file and --large, and explain evaluates the fabric with them
// when it is given none: a device that exists only under the build's
// variables is explained, and its file is not called stale.
// hostsFabric has var.hosts hosts, each cabled to leaf1.
const hostsFabric = `fabric "vars" {}

variable "hosts" {
  type    = number
  default = 1
}

switch "leaf1" {
  platform = "cumulus"
  model    = "SN3420"
  port "swp1-4" {
    speed = "25G"
  }
}

dynamic "host" {
  for_each = range(var.hosts)
  labels   = ["h${host.value}"]
  content {
    os = "linux"
    nic "roce0" {
      model     = "ConnectX-5"
      interface = "ens1f0"
      addresses = ["10.0.0.${host.value + 1}/24"]
    }
  }
}

dynamic "link" {
  for_each = range(var.hosts)
  content {
    a = "leaf1:swp${link.value + 1}"
    b = "h${link.value}:roce0"
    length = 2
  }
}
`

func TestExplainBuildInputs(t *testing.T) {
	t.Chdir(t.TempDir())
	writeFabric(t, "fab", hostsFabric)
	if err := os.WriteFile("three.tfvars", []byte("hosts = 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := fabricc(t, "build", "--var-file", "three.tfvars", "--large", "fab", "-o", "out"); code != 0 {
		t.Fatalf("build: %s", stderr)
	}
	var m struct {
		Inputs map[string]any `json:"inputs"`
	}
	data, err := os.ReadFile("out/manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if len(fmt.Sprint(m.Inputs["sources_sha256"])) != 64 {
		t.Errorf("manifest inputs record no SHA-256 of the sources: %v", m.Inputs)
	}
	delete(m.Inputs, "sources_sha256")
	if want := map[string]any{"var_files": []any{"../three.tfvars"}, "large": true}; fmt.Sprint(m.Inputs) != fmt.Sprint(want) {
		t.Errorf("manifest inputs = %v, want %v", m.Inputs, want)
	}
	line := fmt.Sprintf("out/h2/h2.md:%d", lineOf(t, "out/h2/h2.md", "| roce0 |"))
	if code, stdout, stderr := fabricc(t, "explain", line); code != 0 || !strings.Contains(stdout, "from host h2, nic roce0") {
		t.Fatalf("explain with the recorded inputs: exit %d\n%s%s", code, stdout, stderr)
	}
	code, _, stderr := fabricc(t, "explain", "-var", "hosts=1", line)
	if want := "fabricc: out/h2/h2.md is stale: building fab now gives no h2/h2.md (the fabric has no switch or host \"h2\"), unlike the build that wrote the folder"; code != 1 || !strings.HasPrefix(stderr, want) {
		t.Errorf("explain with other variables: exit %d\n%s\nwant the start\n%s", code, stderr, want)
	}

	// A build folder from elsewhere whose manifest names a file outside
	// the fabric's folder as a var file: explain does not read it (its
	// lines would be quoted in the diagnostics).
	secret := filepath.Join(t.TempDir(), "shadow")
	if err := os.WriteFile(secret, []byte("root:$6$SECRETHASH:19000:0:99999:7:::\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	hostile := strings.Replace(string(data), `"../three.tfvars"`, strconv.Quote(secret), 1)
	if hostile == string(data) {
		t.Fatal("the manifest records no var file to replace")
	}
	if err := os.WriteFile("out/manifest.json", []byte(hostile), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := fabricc(t, "explain", line)
	want := "fabricc: manifest.json records the var file " + secret + ", outside "
	if code != 1 || !strings.HasPrefix(stderr, want) || strings.Contains(stdout+stderr, "SECRETHASH") {
		t.Errorf("explain of a manifest naming an outside var file: exit %d\n%s%s\nwant the start\n%s", code, stdout, stderr, want)
	}
}

// FABRICC_VAR_name sets a variable as Terraform's TF_VAR_name does:
// under var files and -var, an undeclared name ignored; the build
// records the settings it used, and explain uses them without the
// environment.
func TestVariablesFromEnvironment(t *testing.T) {
	t.Chdir(t.TempDir())
	writeFabric(t, "fab", hostsFabric)
	t.Setenv("FABRICC_VAR_hosts", "3")
	t.Setenv("FABRICC_VAR_racks", "9")
	if code, _, stderr := fabricc(t, "build", "fab", "-o", "out"); code != 0 {
		t.Fatalf("build: %s", stderr)
	}
	var m struct {
		Inputs struct {
			EnvVars map[string]string `json:"env_vars"`
		} `json:"inputs"`
	}
	data, err := os.ReadFile("out/manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"hosts": "3"}; !reflect.DeepEqual(m.Inputs.EnvVars, want) {
		t.Errorf("manifest env_vars = %v, want %v", m.Inputs.EnvVars, want)
	}
	os.Unsetenv("FABRICC_VAR_hosts")
	line := fmt.Sprintf("out/h2/h2.md:%d", lineOf(t, "out/h2/h2.md", "| roce0 |"))
	if code, stdout, stderr := fabricc(t, "explain", line); code != 0 || !strings.Contains(stdout, "from host h2, nic roce0") {
		t.Errorf("explain with the recorded environment: exit %d\n%s%s", code, stdout, stderr)
	}
	t.Setenv("FABRICC_VAR_hosts", "3")
	if err := os.WriteFile("two.tfvars", []byte("hosts = 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"--var-file", "two.tfvars"}, {"-var", "hosts=2"}} {
		code, stdout, stderr := fabricc(t, append([]string{"validate", "--json", "fab"}, args...)...)
		if code != 0 || !strings.Contains(stdout, `"hosts": 2`) {
			t.Errorf("validate %v with FABRICC_VAR_hosts=3: exit %d, want 2 hosts\n%s%s", args, code, stdout, stderr)
		}
	}
	t.Setenv("FABRICC_VAR_hosts", "three")
	code, stdout, _ := fabricc(t, "validate", "--compact", "fab")
	if want := "error: Invalid value for variable: FABRICC_VAR_hosts=three: a number is required.\n"; code != 1 || stdout != want {
		t.Errorf("a wrong-typed FABRICC_VAR_: exit %d\n%s\nwant %q", code, stdout, want)
	}
}
