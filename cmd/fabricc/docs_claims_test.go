package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/inventory"
)

// The tests of this file pin claims of README.md and docs/ that are
// checked by running fabricc or by reading the types that implement them,
// so that a change to either side shows up as a failing test.

// readDoc returns a file of the repository as a string.
func readDoc(t *testing.T, name string) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}

// hclAttributes returns the attribute and block names the fabric
// language accepts: the hcl tags of the dsl types, recursively.
func hclAttributes() map[string]bool {
	names := map[string]bool{}
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || seen[t] {
			return
		}
		seen[t] = true
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag := f.Tag.Get("hcl")
			name, kind, _ := strings.Cut(tag, ",")
			if name != "" && (kind == "" || kind == "optional" || kind == "block") {
				names[name] = true
			}
			walk(f.Type)
		}
	}
	walk(reflect.TypeOf(dsl.Config{}))
	return names
}

// backticked returns the text of every `code span` of a Markdown text.
var backtickSpan = regexp.MustCompile("`([^`\n]+)`")

// TestLanguageAttributesExist keeps the attribute tables of
// docs/language.md and the language the same: every attribute or block
// a table names (and every `name = value` the text shows) is one the
// language accepts, and every attribute of the language is named.
func TestLanguageAttributesExist(t *testing.T) {
	doc := readDoc(t, filepath.Join("docs", "language.md"))
	known := hclAttributes()
	for _, required := range []string{"cnp_class", "polling_ms", "small_packet_percent", "native_vlan", "cnp_dscp"} {
		if !known[required] {
			t.Fatalf("the dsl types have no attribute %q: hclAttributes reads them wrongly", required)
		}
	}
	ident := regexp.MustCompile(`^[a-z_]+`)
	inTable := false
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(line, "| attribute") {
			inTable = true
			continue
		}
		if !strings.HasPrefix(line, "|") {
			inTable = false
			continue
		}
		if !inTable || strings.HasPrefix(line, "|---") {
			continue
		}
		cell := strings.Split(line, "|")[1]
		for _, m := range backtickSpan.FindAllStringSubmatch(cell, -1) {
			if name := ident.FindString(m[1]); !known[name] {
				t.Errorf("docs/language.md names the attribute %q, which the language does not have:\n%s", name, line)
			}
		}
	}
	assignment := regexp.MustCompile(`^([a-z_]+) = `)
	for _, m := range backtickSpan.FindAllStringSubmatch(doc, -1) {
		if a := assignment.FindStringSubmatch(m[1]); a != nil && !known[a[1]] {
			t.Errorf("docs/language.md shows `%s`, but the language has no attribute %q", m[1], a[1])
		}
	}
	words := map[string]bool{}
	for _, m := range backtickSpan.FindAllStringSubmatch(doc, -1) {
		for _, w := range regexp.MustCompile(`[a-z_]+`).FindAllString(m[1], -1) {
			words[w] = true
		}
	}
	for name := range known {
		if !words[name] {
			t.Errorf("docs/language.md never names the attribute or block `%s`", name)
		}
	}
}

// TestLanguagePortSpeeds keeps the port speed list of docs/language.md
// equal to the speeds fabricc accepts, as its error for another names
// them.
func TestLanguagePortSpeeds(t *testing.T) {
	doc := readDoc(t, filepath.Join("docs", "language.md"))
	row := regexp.MustCompile("(?m)^\\| `speed` \\| (.*?) \\|").FindStringSubmatch(doc)
	if row == nil {
		t.Fatal("docs/language.md has no port attribute row for `speed`")
	}
	var documented []string
	for _, m := range regexp.MustCompile("`\"([0-9]+[MG])\"`").FindAllStringSubmatch(row[1], -1) {
		documented = append(documented, m[1])
	}
	path := filepath.Join(t.TempDir(), "fabric.hcl")
	writeFile(t, path, "fabric \"t\" {}\n\nswitch \"s1\" {\n  platform = \"cumulus\"\n  model    = \"SN2700\"\n\n  port \"swp1\" {\n    speed = \"5G\"\n  }\n}\n")
	code, stdout, _ := fabricc(t, "validate", "--compact", path)
	m := regexp.MustCompile(`write one of ([^.]*)\.`).FindStringSubmatch(stdout)
	if code != 1 || m == nil {
		t.Fatalf("exit %d, want 1 and the list of speeds:\n%s", code, stdout)
	}
	if got, want := strings.Join(documented, ", "), m[1]; got != want {
		t.Errorf("docs/language.md, port speed, lists %s; fabricc accepts %s", got, want)
	}
}

// TestLanguageQoSDefaults keeps the defaults of the qos table of
// docs/language.md equal to what the compiler fills in: the headroom
// assumptions, the PFC watchdog, and the CNP class (the profile's cnp
// class; none without a profile).
func TestLanguageQoSDefaults(t *testing.T) {
	doc := readDoc(t, filepath.Join("docs", "language.md"))
	const switchAndHost = `
switch "s1" {
  platform = "cumulus"
  model    = "SN2700"

  port "swp1" {
    speed = "100G"
  }
}

host "h1" {
  os = "linux"

  nic "n0" {
    model     = "ConnectX-6 Dx"
    interface = "ens1"
    addresses = ["10.0.0.2/24"]
  }
}

link {
  a      = "s1:swp1"
  b      = "h1:n0"
  length = 3
}
`
	const noProfile = `
qos {
  profile = "none"

  class "roce" {
    priority  = 3
    dscp      = [26]
    lossless  = true
    bandwidth = 50

    ecn {
      min = "150KB"
      max = "1500KB"
    }
  }

  class "rest" {
    priority  = 0
    default   = true
    bandwidth = 50
  }
}
`
	type model struct {
		QoS struct {
			CNPClass string `json:"cnp_class"`
			Headroom struct {
				LosslessMTU  int `json:"lossless_mtu_bytes"`
				SmallPackets int `json:"small_packet_percent"`
			} `json:"headroom"`
		} `json:"qos"`
		Switches []struct {
			Watchdog struct {
				Enabled   bool   `json:"enabled"`
				Action    string `json:"action"`
				TimeoutMs int    `json:"timeout_ms"`
				PollingMs int    `json:"polling_interval_ms"`
				RestoreMs int    `json:"restore_ms"`
			} `json:"pfc_watchdog"`
		} `json:"switches"`
	}
	build := func(name, fabric string) model {
		t.Helper()
		dir := t.TempDir()
		path := filepath.Join(dir, name+".hcl")
		writeFile(t, path, fabric)
		out := filepath.Join(dir, "out")
		if code, _, stderr := fabricc(t, "build", path, "-o", out); code != 0 {
			t.Fatalf("%s: exit %d:\n%s", name, code, stderr)
		}
		src, err := os.ReadFile(filepath.Join(out, "model.json"))
		if err != nil {
			t.Fatal(err)
		}
		var m model
		if err := json.Unmarshal(src, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	profile := build("profile", "fabric \"t\" {}\n"+switchAndHost)
	none := build("none", "fabric \"t\" {}\n"+noProfile+switchAndHost)
	if profile.QoS.CNPClass != "cnp" || none.QoS.CNPClass != "" {
		t.Errorf("cnp_class: %q with the profile, %q without; the docs say the profile's cnp class and none",
			profile.QoS.CNPClass, none.QoS.CNPClass)
	}
	if row := rowOf(doc, "| `cnp_class` | the class congestion notification packets ride in"); !strings.HasSuffix(row, " | the profile's `cnp` class; none without a profile |") {
		t.Errorf("docs/language.md, qos, cnp_class row does not end with the default the compiler applies (the profile's cnp class; none without a profile):\n%s", row)
	}
	h := profile.QoS.Headroom
	if want := fmt.Sprintf("`lossless_mtu` (%d; 64-9216), `small_packet_percent` (%d; 0-100)", h.LosslessMTU, h.SmallPackets); !strings.Contains(doc, want) {
		t.Errorf("docs/language.md, qos, headroom, lacks %q", want)
	}
	w := profile.Switches[0].Watchdog
	if !w.Enabled {
		t.Fatal("the PFC watchdog is off by default; docs/language.md says it is on")
	}
	if want := fmt.Sprintf("`enabled` (true), `action` (\"drop\" or \"no-drop\"; %q), `timeout_ms` (%d), `polling_ms` (%d), `restore_ms` (%d)",
		w.Action, w.TimeoutMs, w.PollingMs, w.RestoreMs); !strings.Contains(doc, want) {
		t.Errorf("docs/language.md, qos, pfc_watchdog, lacks %q", want)
	}
	if want := fmt.Sprintf("the PFC watchdog is on (%s, %d ms)", w.Action, w.TimeoutMs); !strings.Contains(strings.Join(strings.Fields(doc), " "), want) {
		t.Errorf("docs/language.md, Defaults per platform, lacks %q", want)
	}
}

// TestREADMEInventory parses the inventory shown in the README (a switch
// and a host), and keeps it naming every attribute an inventory takes and
// the defaults the inventory package applies.
func TestREADMEInventory(t *testing.T) {
	readme := readDoc(t, "README.md")
	var example string
	for _, m := range hclBlock.FindAllStringSubmatch(readme, -1) {
		if strings.HasPrefix(m[1], "known_hosts = ") {
			example = m[1]
		}
	}
	if example == "" {
		t.Fatal("README.md shows no inventory (an hcl block starting with known_hosts)")
	}
	inv, _, diags := inventory.Parse([]byte(example), filepath.Join(t.TempDir(), "inventory.hcl"))
	if diags.HasErrors() {
		t.Fatalf("README.md's inventory does not parse: %s", diags.Error())
	}
	if len(inv.Devices) != 2 || inv.Device("spine1") == nil || inv.Device("spine1").Port != inventory.DefaultPort {
		t.Fatalf("README.md's inventory: a switch and a host, spine1 on the default port: %+v", inv.Devices)
	}
	if h := inv.Device("gpu01"); h == nil || h.Platform != "linux" || !h.Sudo {
		t.Errorf("README.md's inventory shows no Linux host checked through sudo: %+v", h)
	}
	schema := readDoc(t, filepath.Join("inventory", "inventory.go"))
	named := map[string]bool{}
	for _, m := range regexp.MustCompile(`hcl:"([a-z_]+),optional"`).FindAllStringSubmatch(schema, -1) {
		if named[m[1]] {
			continue
		}
		named[m[1]] = true
		if !regexp.MustCompile(`\b` + m[1] + `\b`).MatchString(example) {
			t.Errorf("README.md's inventory never names the attribute %s", m[1])
		}
	}
	for _, want := range []string{
		fmt.Sprintf("(default %d)", inventory.DefaultPort),
		fmt.Sprintf("default %ds; connect_timeout %ds, device_timeout %dm",
			int(inventory.DefaultCommandTimeout.Seconds()), int(inventory.DefaultConnectTimeout.Seconds()), int(inventory.DefaultDeviceTimeout.Minutes())),
		"(default ~/.ssh/known_hosts)",
	} {
		if !strings.Contains(example, want) {
			t.Errorf("README.md's inventory lacks %q", want)
		}
	}
}

// TestExplainExamples keeps the explain output shown in docs/review.md
// (its lines in order; a line "..." stands for lines left out, a line
// ending " ..." for the rest of that line) and the README's description
// of it equal to what fabricc explain prints for that line of a build of
// examples/multivendor-clos.
func TestExplainExamples(t *testing.T) {
	t.Chdir(filepath.Join("..", ".."))
	review, err := os.ReadFile(filepath.Join("docs", "review.md"))
	if err != nil {
		t.Fatal(err)
	}
	// explainLine is the line docs/review.md and README explain: the
	// first lossless port's port-buffer in examples/multivendor-clos.
	const explainLine = "107"
	const command = "$ fabricc explain out/leaf1/leaf1.nvue.sh:" + explainLine + "\n"
	var example string
	for _, b := range regexp.MustCompile("(?s)\n```\n(.*?)```").FindAllStringSubmatch(string(review), -1) {
		if strings.HasPrefix(b[1], command) {
			example = strings.TrimPrefix(b[1], command)
		}
	}
	if example == "" {
		t.Fatalf("docs/review.md has no example starting %q", command)
	}
	out := filepath.Join(t.TempDir(), "out")
	if code, _, stderr := fabricc(t, "build", filepath.Join("examples", "multivendor-clos"), "-o", out); code != 0 {
		t.Fatalf("build: exit %d:\n%s", code, stderr)
	}
	code, stdout, stderr := fabricc(t, "explain", filepath.Join(out, "leaf1", "leaf1.nvue.sh")+":"+explainLine)
	if code != 0 {
		t.Fatalf("explain: exit %d:\n%s", code, stderr)
	}
	stdout = strings.ReplaceAll(stdout, out+string(filepath.Separator), "out/")
	got := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	next := 0
	for _, line := range strings.Split(strings.TrimSuffix(example, "\n"), "\n") {
		if strings.TrimSpace(line) == "..." {
			continue
		}
		prefix, elided := strings.CutSuffix(line, " ...")
		found := false
		for ; next < len(got) && !found; next++ {
			found = got[next] == line || elided && strings.HasPrefix(got[next], prefix)
		}
		if !found {
			t.Errorf("docs/review.md shows the line\n%s\nwhich fabricc explain does not print there; it prints:\n%s", line, stdout)
			break
		}
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, claim := range []struct{ readme, output string }{
		{"`fabricc explain out/leaf1/leaf1.nvue.sh:107` prints", "out/leaf1/leaf1.nvue.sh:107: "},
		{"(switch leaf1, port swp1, priority group 3)", "from switch leaf1, port swp1, priority group 3 "},
		{"(`switches.hcl:61:17` for the speed", "examples/multivendor-clos/switches.hcl:61:17\n"},
		{"`links.hcl:7:14` for the cable length)", "examples/multivendor-clos/links.hcl:7:14\n"},
	} {
		if !strings.Contains(strings.Join(strings.Fields(string(readme)), " "), claim.readme) {
			t.Errorf("README.md no longer says %q", claim.readme)
		}
		if !strings.Contains(stdout, claim.output) {
			t.Errorf("README.md says %q, but fabricc explain does not print %q:\n%s", claim.readme, claim.output, stdout)
		}
	}
	for _, source := range []struct{ what, place string }{{"speed ", "switches.hcl:61:17"}, {"cable length ", "links.hcl:7:14"}} {
		if !regexp.MustCompile(`(?m)^ +` + source.what + `.* examples/multivendor-clos/` + regexp.QuoteMeta(source.place) + `$`).MatchString(stdout) {
			t.Errorf("fabricc explain does not give %s as the place of the %s:\n%s", source.place, source.what, stdout)
		}
	}
}

// rowOf is the line of doc that starts with prefix, "" when none does.
func rowOf(doc, prefix string) string {
	for line := range strings.Lines(doc) {
		if strings.HasPrefix(line, prefix) {
			return strings.TrimSuffix(line, "\n")
		}
	}
	return ""
}
