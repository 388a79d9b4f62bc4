package docs

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// rendered is what testdata/render/render.mjs reports of the SVG that
// Mermaid drew in Chromium.
type rendered struct {
	Nodes []struct {
		ID    string `json:"id"`
		Label string `json:"label"`
	} `json:"nodes"`
	Edges []struct {
		ID string `json:"id"`
	} `json:"edges"`
	Labels []string `json:"labels"`
}

// browserTools returns node and Chromium, or skips the test naming what
// is missing.
func browserTools(t *testing.T) (node, chromium string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the Mermaid rendering check needs Node.js and Chromium (.ci/run installs both)")
	}
	chromium = os.Getenv("CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	if _, err := os.Stat(chromium); err != nil {
		t.Skipf("%s is missing: the Mermaid rendering check needs Debian's chromium package (.ci/run installs it), or CHROMIUM=path", chromium)
	}
	return node, chromium
}

// renderDir is the folder of render.mjs; its node_modules come from
// package-lock.json (npm ci), installed here when missing.
func renderDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "render"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "mermaid", "dist", "mermaid.min.js")); err == nil {
		return dir
	}
	cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm ci in %s (mermaid, playwright-core): %v\n%s", dir, err, out)
	}
	return dir
}

// renderMermaid writes each document as fabric.md into a folder of its
// own, renders all diagrams in one Chromium and returns what each SVG
// holds. PNG and SVG go to FABRICC_SCREENSHOT_DIR/<name> when that is
// set, for a person to look at.
func renderMermaid(t *testing.T, names []string, docs [][]byte) []rendered {
	t.Helper()
	node, chromium := browserTools(t)
	dir := renderDir(t)
	root := t.TempDir()
	if keep := os.Getenv("FABRICC_SCREENSHOT_DIR"); keep != "" {
		root = keep
	}
	args := []string{filepath.Join(dir, "render.mjs")}
	for i, name := range names {
		out := filepath.Join(root, name)
		if err := os.MkdirAll(out, 0o755); err != nil {
			t.Fatal(err)
		}
		md := filepath.Join(out, "fabric.md")
		if err := os.WriteFile(md, docs[i], 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, md, out)
	}
	cmd := exec.Command(node, args...)
	cmd.Env = append(os.Environ(), "CHROMIUM="+chromium)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	data, err := cmd.Output()
	if err != nil {
		t.Fatalf("render.mjs: %v\n%s", err, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != len(names) {
		t.Fatalf("render.mjs printed %d results for %d documents:\n%s", len(lines), len(names), data)
	}
	out := make([]rendered, len(lines))
	for i, l := range lines {
		if err := json.Unmarshal([]byte(l), &out[i]); err != nil {
			t.Fatalf("render.mjs output: %v\n%s", err, l)
		}
		if st, err := os.Stat(filepath.Join(root, names[i], "topology.png")); err != nil || st.Size() == 0 {
			t.Errorf("%s: no screenshot: %v", names[i], err)
		}
	}
	return out
}

// TestMermaidInChromium renders fabric.md's diagram of every example,
// and of a fabric with hostile names, with the mermaid package in
// Chromium. Every switch has a node and every two linked switches an
// edge; hostile names stay text inside their node (no extra node, the
// name shown as written).
func TestMermaidInChromium(t *testing.T) {
	names := []string{"multivendor-clos", "demartek-lab", "homelab-40g", "hostile"}
	fabrics := make([]*model.Fabric, len(names))
	docs := make([][]byte, len(names))
	for i, ex := range names {
		if ex == "hostile" {
			fabrics[i] = hostile(t)
		} else {
			fabrics[i] = compileExample(t, ex)
		}
		doc, err := RenderFabric(fabrics[i], nil)
		if err != nil {
			t.Fatal(err)
		}
		docs[i] = doc.Data
	}
	results := renderMermaid(t, names, docs)
	for i, name := range names {
		t.Run(name, func(t *testing.T) {
			f, r := fabrics[i], results[i]
			checkDrawn(t, f, r)
			if len(f.Hosts) <= hostNodeLimit && len(r.Nodes) != len(f.Switches)+len(f.Hosts) {
				t.Errorf("%d nodes, want %d: %v", len(r.Nodes), len(f.Switches)+len(f.Hosts), r.Nodes)
			}
		})
	}
	labels := ""
	for _, n := range results[3].Nodes {
		labels += n.Label + "\n"
	}
	for _, want := range []string{`sw"]:::x --> evil["|<b>onyx`, "h](javascript:alert(1))\n"} {
		if !strings.Contains(labels, want) {
			t.Errorf("hostile labels lack %q:\n%s", want, labels)
		}
	}
}

// checkDrawn fails t with every drawing problem.
func checkDrawn(t *testing.T, f *model.Fabric, r rendered) {
	t.Helper()
	for _, p := range drawProblems(f, r) {
		t.Error(p)
	}
}

// drawProblems lists what the drawing lacks: one node per switch (label
// starting with its name and platform) and an edge between the nodes of
// every two linked switches.
func drawProblems(f *model.Fabric, r rendered) []string {
	var problems []string
	nodeOf := map[string]string{} // Mermaid node id ("s_leaf1") -> label
	for _, n := range r.Nodes {
		// "topology-flowchart-s_leaf1-2": the diagram id, "flowchart", our id (no "-" in it), a counter.
		parts := strings.Split(n.ID, "-")
		if len(parts) >= 2 {
			nodeOf[parts[len(parts)-2]] = n.Label
		}
	}
	idOf := map[string]string{}
	for _, sw := range f.Switches {
		found := 0
		for id, label := range nodeOf {
			if strings.HasPrefix(id, "s") && strings.HasPrefix(label, sw.Name+string(sw.Platform)) {
				idOf[sw.Name] = id
				found++
			}
		}
		if found != 1 {
			problems = append(problems, fmt.Sprintf("switch %s: %d nodes drawn, want 1 (nodes: %v)", sw.Name, found, nodeOf))
		}
	}
	drawn := map[string]bool{}
	for _, e := range r.Edges {
		// "topology-L_s_spine1_s_leaf1_0": the diagram id, "L", our two
		// ids (which hold underscores themselves), a counter; split the
		// middle where both halves are node ids.
		mid := e.ID[strings.Index(e.ID, "L_")+2 : strings.LastIndex(e.ID, "_")]
		for id := range nodeOf {
			if rest, ok := strings.CutPrefix(mid, id+"_"); ok && nodeOf[rest] != "" {
				drawn[id+" "+rest] = true
			}
		}
	}
	var want []string
	for _, l := range f.Links {
		if l.A.Kind != "switch" || l.B.Kind != "switch" {
			continue
		}
		a, b := idOf[l.A.Device], idOf[l.B.Device]
		if !drawn[a+" "+b] && !drawn[b+" "+a] {
			want = append(want, l.A.Device+" - "+l.B.Device)
		}
	}
	sort.Strings(want)
	if len(want) > 0 {
		problems = append(problems, fmt.Sprintf("inter-switch links without an edge: %v (edges: %v)", want, r.Edges))
	}
	if len(r.Edges) != len(r.Labels) {
		problems = append(problems, fmt.Sprintf("%d edges but %d edge labels", len(r.Edges), len(r.Labels)))
	}
	return problems
}

// TestCheckDrawn makes sure the SVG check fails on a missing switch node
// and a missing inter-switch edge, and passes a complete drawing.
func TestCheckDrawn(t *testing.T) {
	f := clos(1, 2, 1)
	full := rendered{}
	for _, n := range []struct{ id, label string }{
		{"topology-flowchart-s1-0", "spine1eos 4.32.2F7050CX3-32S"},
		{"topology-flowchart-s2-1", "leaf1cumulus 5.9.2SN2700"},
		{"topology-flowchart-s3-2", "leaf2cumulus 5.9.2SN2700"},
	} {
		full.Nodes = append(full.Nodes, struct {
			ID    string `json:"id"`
			Label string `json:"label"`
		}{n.id, n.label})
	}
	for _, id := range []string{"topology-L_s1_s2_0", "topology-L_s1_s3_0"} {
		full.Edges = append(full.Edges, struct {
			ID string `json:"id"`
		}{id})
		full.Labels = append(full.Labels, "400G")
	}
	noEdge := full
	noEdge.Edges, noEdge.Labels = full.Edges[:1], full.Labels[:1]
	noNode := full
	noNode.Nodes = full.Nodes[:2]
	for _, tc := range []struct {
		name string
		r    rendered
		fail bool
	}{{"complete", full, false}, {"edge missing", noEdge, true}, {"node missing", noNode, true}} {
		if p := drawProblems(f, tc.r); (len(p) > 0) != tc.fail {
			t.Errorf("%s: problems %q, want failure %v", tc.name, p, tc.fail)
		}
	}
}

// TestMeasuredTextIsPlain: the chart's text handler gives gonum/plot's
// own boxes, the first time and from its store, and keeps the boxes of
// one text in two sizes apart.
func TestMeasuredTextIsPlain(t *testing.T) {
	plain := text.Plain{Fonts: font.DefaultCache}
	for _, txt := range []string{"", "MiB", "switch buffer, 32.0 MiB", "grüße"} {
		for _, size := range []vg.Length{9, 12} {
			fnt := font.From(chartFont, size)
			w, h, d := plain.Box(txt, fnt)
			for round := 0; round < 2; round++ {
				if gw, gh, gd := chartText.Box(txt, fnt); gw != w || gh != h || gd != d {
					t.Errorf("%q at %v pt, round %d: box %v %v %v, gonum's %v %v %v", txt, size, round, gw, gh, gd, w, h, d)
				}
			}
		}
	}
}
