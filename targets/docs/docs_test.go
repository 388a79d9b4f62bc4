package docs

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/compiler"
	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
)

// compileExample compiles examples/<name> into its model.
func compileExample(t testing.TB, name string) *model.Fabric {
	t.Helper()
	cfg, _, diags := dsl.Load(filepath.Join("..", "..", "examples", name), dsl.Options{})
	if diags.HasErrors() {
		t.Fatalf("loading %s: %v", name, diags)
	}
	f, diags := compiler.Compile(cfg)
	if diags.HasErrors() {
		t.Fatalf("compiling %s: %v", name, diags)
	}
	return f
}

func TestEscapeRules(t *testing.T) {
	tests := []struct {
		in, md, mermaid string
	}{
		{"leaf1", "leaf1", "leaf1"},
		{"a|b", `a\|b`, "a#124;b"},
		{"<script>x</script>", `\<script\>x\</script\>`, "#60;script#62;x#60;/script#62;"},
		{"`rm -rf`", "\\`rm -rf\\`", "#96;rm -rf#96;"},
		{`say "hi"`, `say "hi"`, "say #34;hi#34;"},
		{"[x](http://e)", `\[x\](http://e)`, "#91;x#93;(http://e)"},
		{"line\nbreak", `line\\nbreak`, "line#92;nbreak"},
		{"rtl\u202eevil", `rtl\\u202eevil`, "rtl#92;u202eevil"},
		{"**bold** _i_ #h &amp; ~s~ !", `\*\*bold\*\* \_i\_ \#h \&amp; \~s\~ \!`, "#42;#42;bold#42;#42; _i_ #35;h #38;amp#59; #126;s#126; #33;"},
		{"grüße", "grüße", "gr#252;#223;e"},
		{"%% comment", "%% comment", "#37;#37; comment"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			if got := md(tc.in); got != tc.md {
				t.Errorf("md(%q) = %q, want %q", tc.in, got, tc.md)
			}
			if got := mermaid(tc.in); got != tc.mermaid {
				t.Errorf("mermaid(%q) = %q, want %q", tc.in, got, tc.mermaid)
			}
		})
	}
	if got, want := linkPath("a b", "c)d.md"), "a%20b/c%29d.md"; got != want {
		t.Errorf("linkPath = %q, want %q", got, want)
	}
	if got, want := link("javascript:alert(1)", "javascript:alert(1).md"), "[javascript:alert(1)](javascript%3Aalert%281%29.md)"; got != want {
		t.Errorf("link = %q, want %q", got, want)
	}
	if got, want := link("x](y", "x](y", "x](y.md"), `[x\](y](x%5D%28y/x%5D%28y.md)`; got != want {
		t.Errorf("link = %q, want %q", got, want)
	}
}

// TestEscapeASCII: every printable ASCII character stays as it is in
// visible text, and in Markdown too unless it is special, where it gets
// its backslash; DEL and the controls are shown as escapes.
func TestEscapeASCII(t *testing.T) {
	for c := byte(' '); c <= '~'; c++ {
		s := "a" + string(c) + "b"
		want := s
		if strings.IndexByte(mdSpecial, c) >= 0 {
			want = "a\\" + string(c) + "b"
		}
		if got := md(s); got != want {
			t.Errorf("md(%q) = %q, want %q", s, got, want)
		}
		if got := visible(s); got != s {
			t.Errorf("visible(%q) = %q", s, got)
		}
	}
	for raw, shown := range map[string]string{"\x7f": `\x7f`, "\x00": `\x00`, "\t": `\t`, "\r": `\r`} {
		// visible shows it as an escape, whose backslash md escapes
		if got, want := md("a"+raw), `a\`+shown; got != want {
			t.Errorf("md(%q) = %q, want %q", "a"+raw, got, want)
		}
	}
}

func TestFormats(t *testing.T) {
	tests := []struct{ got, want string }{
		{Bytes(43008), "43,008 B"},
		{Bytes(16777216), "16,777,216 B"},
		{Bytes(-4096), "-4,096 B"},
		{Bytes(999), "999 B"},
		{Speed(100000), "100G"},
		{Speed(2500), "2500M"},
		{Speed(0), "-"},
		{Meters(0.5), "0.5 m"},
		{Meters(300), "300 m"},
		{Percent(61), "61 %"},
		{Percent(47.3), "47.3 %"},
		{Ranges([]int{0, 1, 2, 4, 5, 7}), "0-2, 4, 5, 7"},
		{Ranges([]int{3}), "3"},
		{Ranges(nil), "none"},
		{MiB(16777216), "16.0 MiB"},
	}
	for i, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%d: got %q, want %q", i, tc.got, tc.want)
		}
	}
}

// hostile renames devices, ports and descriptions of the compiled
// demartek-lab fabric to strings that try to break out of Markdown and
// Mermaid, as a hand-built model could (the language refuses some).
func hostile(t *testing.T) *model.Fabric {
	f := compileExample(t, "demartek-lab")
	sw := &f.Switches[0]
	old := sw.Name
	sw.Name = `sw"]:::x --> evil["|<b>`
	sw.Ports[0].Description = "to `host` | <img src=x onerror=alert(1)>\n# heading"
	h := &f.Hosts[0]
	oldHost := h.Name
	h.Name = "h](javascript:alert(1))"
	for i := range f.Links {
		for _, e := range []*model.Endpoint{&f.Links[i].A, &f.Links[i].B} {
			switch e.Device {
			case old:
				e.Device = sw.Name
			case oldHost:
				e.Device = h.Name
			}
		}
	}
	for i := range sw.Ports {
		if p := sw.Ports[i].Peer; p != nil && p.Device == oldHost {
			p.Device = h.Name
		}
	}
	f.Name = "fab\r\nric"
	return f
}

func TestHostileStrings(t *testing.T) {
	f := hostile(t)
	fd, err := RenderFabric(f, []Warning{{Summary: "w|<x>", Detail: "d`e`", Place: Place{File: "a|b.hcl", Line: 3, Column: 4},
		Related: []Place{{Label: "[l](u)", File: "c.hcl", Line: 1, Column: 2}}}})
	if err != nil {
		t.Fatal(err)
	}
	sw, err := RenderSwitch(f, &f.Switches[0])
	if err != nil {
		t.Fatal(err)
	}
	text := string(fd.Data) + string(sw[0].Data)
	for _, bad := range []string{"<b>", "<img", "](javascript", "\r", "\n# heading", "`host`", "w|<x>", `"]:::x`} {
		unescaped := regexp.MustCompile(`(^|[^\\])` + regexp.QuoteMeta(bad))
		if unescaped.MatchString(text) {
			t.Errorf("raw %q reached the documents", bad)
		}
	}
	for _, want := range []string{
		"# Fabric fab\\\\r\\\\nric\n",
		`  s_sw_x22_x5D_x3A_x3A_x3Ax_x20_h_h_x3E_x20evil_x5B_x22_x7C_x3Cb_x3E["sw#34;#93;:::x --#62; evil#91;#34;#124;#60;b#62;<br>onyx 3.6.4006<br>SN2410"]:::leaf` + "\n",
		`  h_h_x5D_x28javascript_x3Aalert_x281_x29_x29["h#93;(javascript:alert(1))"]:::host` + "\n",
		"1. **w\\|\\<x\\>** at a\\|b.hcl:3:4\n",
		"   d\\`e\\`\n",
		"   - \\[l\\](u): c.hcl:1:2\n",
		"| 1/1 | to \\`host\\` \\| \\<img src=x onerror=alert(1)\\>\\\\n\\# heading |",
		"| [h\\](javascript:alert(1))](h%5D%28javascript%3Aalert%281%29%29/h%5D%28javascript%3Aalert%281%29%29.md) |",
		"[h\\](javascript:alert(1))](../h%5D%28javascript%3Aalert%281%29%29/h%5D%28javascript%3Aalert%281%29%29.md)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("documents lack %q", want)
		}
	}
	// Every table row keeps its column count: no cell was split by "|".
	checkTables(t, text)
}

// checkTables asserts that every row of every table has as many
// unescaped cell separators as the table's header.
func checkTables(t *testing.T, text string) {
	t.Helper()
	sep := regexp.MustCompile(`(^|[^\\])\|`)
	cols := -1
	for _, line := range strings.Split(text, "\n") {
		if !strings.HasPrefix(line, "|") {
			cols = -1
			continue
		}
		n := len(sep.FindAllString(line, -1))
		if cols < 0 {
			cols = n
		} else if n != cols {
			t.Errorf("row has %d separators, header %d: %s", n, cols, line)
		}
	}
}

func TestDeterministic(t *testing.T) {
	for _, ex := range []string{"multivendor-clos", "demartek-lab"} {
		f := compileExample(t, ex)
		for i := range f.Switches {
			a, err := RenderSwitch(f, &f.Switches[i])
			if err != nil {
				t.Fatal(err)
			}
			b, _ := RenderSwitch(compileExample(t, ex), &f.Switches[i])
			for j := range a {
				if !bytes.Equal(a[j].Data, b[j].Data) {
					t.Errorf("%s %s: two renders differ", ex, a[j].Name)
				}
			}
			svg := string(a[1].Data)
			if strings.Contains(svg, "id=") || strings.Contains(svg, "20"+"26") {
				t.Errorf("%s: chart has an id or a date", a[1].Name)
			}
		}
	}
}

func TestChartContent(t *testing.T) {
	f := compileExample(t, "multivendor-clos")
	sw := f.Switch("leaf1")
	svg, err := BufferChart(sw)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		">leaf1: buffer budget, SN2700 Spectrum, 13.3 MiB</text>",
		">ingress lossless</text>", ">roce-lossless-ingress</text>", ">12.5 % used: 938.0 KiB</text>",
		">headroom kept for cables up to 300 m</text>", ">switch buffer, 13.3 MiB</text>",
	} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("chart lacks %q", want)
		}
	}
	sw.Name = "<x>&"
	svg, _ = BufferChart(sw)
	if !strings.Contains(string(svg), ">&lt;x&gt;&amp;: buffer budget") {
		t.Errorf("chart title not escaped")
	}
}

func TestPools(t *testing.T) {
	f := compileExample(t, "multivendor-clos")
	var got []string
	for _, u := range Pools(f.Switch("leaf3")) {
		got = append(got, fmt.Sprintf("%s %s %d %d %d %v", u.Pool.Direction, u.Pool.Name, u.Pool.SizeBytes, u.DemandBytes, u.PlannedBytes, u.PercentUsed))
	}
	// Demand: 10 ports x 10,240 B lossy PG; the sum of the ten PG3
	// sizes at the worst-case (100 % small packets) headroom; 10 ports x
	// (TC0 + TC6) x 9,216 B; 10 x 1,500 B. The lossless pool is planned
	// for 10 x 169,984 B, the headroom at 300 m (lossless_mtu 4096).
	want := []string{
		"ingress lossy-default 6074532 102400 102400 1.7",
		"ingress roce-lossless 7671972 966656 1699840 12.6",
		"egress lossy-default 6156452 184320 184320 3",
		"egress roce-lossless 13945824 15000 15000 0.1",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("pools:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestEOSProfileNote checks that the budget of an EOS switch with an MMU
// queue profile says how its one "ingress headroom" compares with the
// per-port headroom the budget counts, under the per-port reading the
// sources support (Arista TOI tag mmu: ingress settings at port level and
// priority-group level; AVD: headroom only at the profile's port level):
// the value is the largest port's bytes in flight, and if each port with a
// lossless group holds it the switch holds value x ports. The expected
// figures are worked out here from the ports, not taken from the output.
func TestEOSProfileNote(t *testing.T) {
	f := compileExample(t, "multivendor-clos")
	sw := f.Switch("spine1")
	if sw.Platform != model.PlatformEOS || sw.Hardware.ASIC != "Trident3" {
		t.Fatalf("spine1 is %s on %s; the test needs EOS on Trident3", sw.Platform, sw.Hardware.ASIC)
	}
	var most, own int64
	var mostPort string
	ports := 0
	for _, p := range sw.Ports {
		var sum int64
		lossless := false
		for _, pg := range p.PriorityGroups {
			if pg.Lossless {
				sum += pg.XoffBytes
				lossless = true
			}
		}
		if !lossless {
			continue
		}
		ports++
		own += sum
		if sum > most {
			most, mostPort = sum, p.Name
		}
	}
	if ports == 0 {
		t.Fatal("spine1 has no lossless group")
	}
	wants := []string{
		fmt.Sprintf("one ingress headroom for the whole platform, %s, the need of %s;", Bytes(most), mostPort),
		fmt.Sprintf("If each of the %d ports with a lossless group reserves it, that is %s against %s of their own bytes in flight.",
			ports, Bytes(most*int64(ports)), Bytes(own)),
		"Assumed: the value is per port",
		"Not documented: whether EOS reserves it on every front-panel port or only on PFC ports, or takes it from a shared headroom pool.",
		"Check on the switch: `show platform trident mmu queue status`.",
	}
	fab, err := RenderFabric(f, nil)
	if err != nil {
		t.Fatal(err)
	}
	files, err := RenderSwitch(f, sw)
	if err != nil {
		t.Fatal(err)
	}
	var dev string
	for _, file := range files {
		if strings.HasSuffix(file.Name, ".md") {
			dev = string(file.Data)
		}
	}
	for name, text := range map[string]string{"fabric.md": string(fab.Data), "spine1.md": dev} {
		for _, want := range wants {
			if !strings.Contains(text, want) {
				t.Errorf("%s lacks %q", name, want)
			}
		}
	}
	if strings.Contains(string(fab.Data), "EOS MMU queue profile of leaf1") {
		t.Error("fabric.md has an EOS profile note for leaf1, a Cumulus switch")
	}

	// Jericho-based EOS switches have no MMU queue profile: no note.
	sw.Hardware.ASIC = "Jericho2"
	if note := eosProfileNote(sw); note != "" {
		t.Errorf("note on a Jericho2 switch: %q", note)
	}
}

// TestFabricSaysWhereCNPsGo: the traffic-class intro of fabric.md names
// the CNP class, or, in a fabric without one, says that the NICs keep the
// firmware marking and which class the switches give it.
func TestFabricSaysWhereCNPsGo(t *testing.T) {
	for _, tc := range []struct{ path, want string }{
		{"tutorial", "Every switch port and host NIC uses these classes. RoCE data rides class roce, DCQCN congestion notification packets (CNP) ride class cnp; the classes start from the built-in profile nvidia-roce.\n"},
		{filepath.Join("bad", "warn-no-cnp-class.hcl"), "Every switch port and host NIC uses these classes. RoCE data rides class rdma, DCQCN congestion notification packets (CNP) keep the NICs' firmware marking, DSCP 48 and priority 6 (the fabric has no CNP class), which DSCP-trusting ports put in class other.\n"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			cfg, _, diags := dsl.Load(filepath.Join("..", "..", "examples", tc.path), dsl.Options{})
			if diags.HasErrors() {
				t.Fatalf("loading: %v", diags)
			}
			f, diags := compiler.Compile(cfg)
			if diags.HasErrors() {
				t.Fatalf("compiling: %v", diags)
			}
			file, err := RenderFabric(f, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(file.Data), "\n"+tc.want) {
				t.Errorf("fabric.md lacks the line %q", tc.want)
			}
		})
	}
}
