package docs

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
)

// hostNodeLimit is the most hosts drawn one node each. Above it hosts are
// drawn as one node per group of hosts cabled to the same switches (a
// leaf's rack), labelled with their count, so a fabric of thousands of
// hosts still gives one node per switch and a few per leaf.
const hostNodeLimit = 12

// Mermaid's default limits (mermaid config schema: maxTextSize 50000,
// maxEdges 500); GitHub and GitLab render with them, so a larger diagram
// shows an error there instead of the picture.
const (
	mermaidMaxText  = 50000
	mermaidMaxEdges = 500
)

// ChartSuffix ends the name of a switch's buffer chart: leaf1.buffer.svg.
const ChartSuffix = ".buffer.svg"

// graph is the topology as Mermaid nodes and edges.
type graph struct {
	nodes []gnode
	// nodeOf maps "switch\x00name" and "host\x00name" to a node index.
	nodeOf map[string]int
	edges  map[[2]int]*gedge
}

// gnode is one node: a switch, a host or a group of hosts.
type gnode struct {
	id, label, class string
	// key is the node's key in graph.nodeOf; hosts are a group's hosts.
	key   string
	hosts []string
}

// gedge is every link between two nodes, counted by speed.
type gedge struct {
	bySpeed map[int]int
}

// writeTopology writes the Mermaid flowchart of the fabric.
func writeTopology(d *doc, f *model.Fabric) {
	d.h(2, "Topology")
	if len(f.Switches)+len(f.Hosts) == 0 {
		d.p("No devices.")
		return
	}
	text, edges := Mermaid(f)
	note := "Switches are blue (spines, with no hosts, on top), hosts green; an edge label gives the links' count and speed."
	if len(f.Hosts) > hostNodeLimit {
		note += " Hosts cabled to the same switches are drawn as one node with their count."
	}
	if len(text) > mermaidMaxText || edges > mermaidMaxEdges {
		note += fmt.Sprintf(" This diagram has %s characters and %d edges, more than Mermaid's default limits (%s characters, %d edges): "+
			"GitHub and GitLab show an error instead of the picture; render it with a raised maxTextSize and maxEdges.",
			Thousands(int64(len(text))), edges, Thousands(mermaidMaxText), mermaidMaxEdges)
	}
	d.p(note)
	d.line("```mermaid")
	if d.b.Mapped() {
		chart := targets.NewText(true)
		writeMermaid(chart, f)
		d.b.Append(chart)
	} else {
		d.b.WriteString(text)
	}
	d.b.At()
	d.line("```")
	d.line("")
}

// Mermaid returns the flowchart of f (without the code fence) and its
// number of edges: a node per switch, hosts per node or per group, one
// edge per pair of connected nodes.
func Mermaid(f *model.Fabric) (string, int) {
	b := targets.NewText(false)
	edges := writeMermaid(b, f)
	return b.String(), edges
}

// writeMermaid writes the flowchart into b and returns its number of
// edges. With a source map, a node line comes from its switch or hosts
// and an edge line from its links.
func writeMermaid(b *targets.Text, f *model.Fabric) int {
	g := buildGraph(f)
	b.WriteString("flowchart TB\n")
	for _, n := range g.nodes {
		b.At()
		if kind, name, _ := strings.Cut(n.key, "\x00"); kind != "group" {
			b.At(kind, name)
		}
		for _, h := range n.hosts {
			b.Also("host", h)
		}
		fmt.Fprintf(b, "  %s[\"%s\"]:::%s\n", n.id, n.label, n.class)
	}
	keys := make([][2]int, 0, len(g.edges))
	for k := range g.edges {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i][0] != keys[j][0] {
			return keys[i][0] < keys[j][0]
		}
		return keys[i][1] < keys[j][1]
	})
	links := edgeLinks(b, g, f)
	for _, k := range keys {
		b.At()
		for _, l := range links[k] {
			b.AlsoElement(targets.LinkElement(l.A))
		}
		fmt.Fprintf(b, "  %s ---|\"%s\"| %s\n", g.nodes[k[0]].id, edgeLabel(g.edges[k]), g.nodes[k[1]].id)
	}
	b.At()
	b.WriteString("  classDef spine fill:#cfe0f5,stroke:#1f5fa8,color:#0b2545\n")
	b.WriteString("  classDef leaf fill:#e3edf9,stroke:#1f5fa8,color:#0b2545\n")
	b.WriteString("  classDef host fill:#e4f4e4,stroke:#2e7d32,color:#113311\n")
	return len(keys)
}

// edgeLinks lists the links of each edge when b records a source map.
func edgeLinks(b *targets.Text, g *graph, f *model.Fabric) map[[2]int][]model.Link {
	if !b.Mapped() {
		return nil
	}
	out := map[[2]int][]model.Link{}
	for _, l := range f.Links {
		a, z := g.nodeOf[l.A.Kind+"\x00"+l.A.Device], g.nodeOf[l.B.Kind+"\x00"+l.B.Device]
		if a > z {
			a, z = z, a
		}
		out[[2]int{a, z}] = append(out[[2]int{a, z}], l)
	}
	return out
}

// buildGraph makes the nodes (spines, leaves, hosts or host groups, in
// that order) and the edges between them.
func buildGraph(f *model.Fabric) *graph {
	g := &graph{nodeOf: map[string]int{}, edges: map[[2]int]*gedge{}}
	leaves := leafSwitches(f)
	for _, tier := range []bool{false, true} {
		for _, sw := range f.Switches {
			if leaves[sw.Name] != tier {
				continue
			}
			class := yesNo(tier, "leaf", "spine")
			label := mermaid(sw.Name) + "<br>" + mermaid(string(sw.Platform)+" "+sw.OSVersion) + "<br>" + mermaid(sw.Hardware.Model)
			g.add("switch\x00"+sw.Name, "s", label, class)
		}
	}
	addHosts(g, f)
	ix := endIndex(f)
	for _, l := range f.Links {
		a, b := g.nodeOf[l.A.Kind+"\x00"+l.A.Device], g.nodeOf[l.B.Kind+"\x00"+l.B.Device]
		if a > b {
			a, b = b, a
		}
		e := g.edges[[2]int{a, b}]
		if e == nil {
			e = &gedge{bySpeed: map[int]int{}}
			g.edges[[2]int{a, b}] = e
		}
		e.bySpeed[linkSpeed(ix, l)]++
	}
	return g
}

// add appends a node whose id is prefix and its name: the device's, or
// for a host group its peers' (the part of key after the kind). An id
// made from the name, not a count, stays the same when other devices
// come or go, so a change of the fabric changes only its own lines of
// the diagram in a review diff.
func (g *graph) add(key, prefix, label, class string) {
	_, name, _ := strings.Cut(key, "\x00")
	g.nodeOf[key] = len(g.nodes)
	g.nodes = append(g.nodes, gnode{id: prefix + "_" + mermaidID(name), label: label, class: class, key: key})
}

// mermaidID writes name with only letters, digits and underscores, as a
// Mermaid node id takes them, one to one: "_" is "__", "-" "_h", "."
// "_d", a peer separator "_s" and any other byte "_xHH", so two names
// never share an id.
func mermaidID(name string) string {
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
			b.WriteByte(c)
		case c == '_':
			b.WriteString("__")
		case c == '-':
			b.WriteString("_h")
		case c == '.':
			b.WriteString("_d")
		case c == 0:
			b.WriteString("_s")
		default:
			fmt.Fprintf(&b, "_x%02X", c)
		}
	}
	return b.String()
}

// leafSwitches are the switches with at least one host cabled to them.
func leafSwitches(f *model.Fabric) map[string]bool {
	out := map[string]bool{}
	for _, l := range f.Links {
		if l.A.Kind == "switch" && l.B.Kind == "host" {
			out[l.A.Device] = true
		}
		if l.B.Kind == "switch" && l.A.Kind == "host" {
			out[l.B.Device] = true
		}
	}
	return out
}

// addHosts adds one node per host, or above hostNodeLimit one node per
// group of hosts cabled to the same set of switches. A host cabled to
// another host keeps its own node so the host-to-host edge can be drawn.
func addHosts(g *graph, f *model.Fabric) {
	peers := map[string][]string{}
	hostPeer := map[string]bool{}
	for _, l := range f.Links {
		for _, e := range [][2]model.Endpoint{{l.A, l.B}, {l.B, l.A}} {
			if e[0].Kind != "host" {
				continue
			}
			if e[1].Kind == "host" {
				hostPeer[e[0].Device] = true
				continue
			}
			peers[e[0].Device] = appendUnique(peers[e[0].Device], e[1].Device)
		}
	}
	groups := map[string][]string{}
	var order []string
	for _, h := range f.Hosts {
		if len(f.Hosts) <= hostNodeLimit || hostPeer[h.Name] {
			g.add("host\x00"+h.Name, "h", mermaid(h.Name), "host")
			continue
		}
		ps := append([]string(nil), peers[h.Name]...)
		sort.Strings(ps)
		key := strings.Join(ps, "\x00")
		if _, ok := groups[key]; !ok {
			order = append(order, key)
		}
		groups[key] = append(groups[key], h.Name)
	}
	for _, key := range order {
		names := groups[key]
		label := groupLabel(names, key == "")
		idx := len(g.nodes)
		g.add("group\x00"+key, "g", label, "host")
		g.nodes[idx].hosts = names
		for _, n := range names {
			g.nodeOf["host\x00"+n] = idx
		}
	}
}

// groupLabel is "6 hosts<br>gpu01-04, stor01-02".
func groupLabel(names []string, unlinked bool) string {
	label := strconv.Itoa(len(names)) + " hosts"
	if len(names) == 1 {
		label = "1 host"
	}
	if unlinked {
		label += " without links"
	}
	runs := nameRuns(names)
	more := ""
	if len(runs) > maxRuns {
		more = fmt.Sprintf(" and %d more", len(runs)-maxRuns)
		runs = runs[:maxRuns]
	}
	for i := range runs {
		runs[i] = mermaid(runs[i])
	}
	return label + "<br>" + strings.Join(runs, ", ") + more
}

// maxRuns is the most name runs a host group label lists.
const maxRuns = 3

// nameRuns writes names (sorted) with runs of consecutive numbered names
// collapsed: gpu01, gpu02, gpu03, stor01 -> "gpu01-03", "stor01".
func nameRuns(names []string) []string {
	var out []string
	for i := 0; i < len(names); {
		prefix, n, width := splitNumber(names[i])
		j := i
		for width > 0 && j+1 < len(names) {
			p, m, w := splitNumber(names[j+1])
			if p != prefix || w != width || m != n+(j+1-i) {
				break
			}
			j++
		}
		if j == i {
			out = append(out, names[i])
		} else {
			_, last, _ := splitNumber(names[j])
			out = append(out, fmt.Sprintf("%s-%0*d", names[i], width, last))
		}
		i = j + 1
	}
	return out
}

// splitNumber splits "gpu07" into "gpu", 7 and the digit count 2; a name
// without trailing digits gives width 0.
func splitNumber(name string) (string, int, int) {
	k := len(name)
	for k > 0 && name[k-1] >= '0' && name[k-1] <= '9' {
		k--
	}
	digits := name[k:]
	if digits == "" || len(digits) > 9 {
		return name, 0, 0
	}
	n, _ := strconv.Atoi(digits)
	return name[:k], n, len(digits)
}

// appendUnique appends s unless list holds it.
func appendUnique(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// linkSpeed is the speed of a link: its switch end's, else its first
// host end's.
func linkSpeed(ix ends, l model.Link) int {
	a, b := ix.of(l.A), ix.of(l.B)
	if l.A.Kind != "switch" && l.B.Kind == "switch" {
		return b.speed
	}
	return a.speed
}

// edgeLabel is "100G", "4 x 100G" or "2 x 100G, 1 x 25G" (fastest
// first).
func edgeLabel(e *gedge) string {
	speeds := make([]int, 0, len(e.bySpeed))
	for s := range e.bySpeed {
		speeds = append(speeds, s)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(speeds)))
	var parts []string
	for _, s := range speeds {
		if n := e.bySpeed[s]; n > 1 || len(speeds) > 1 {
			parts = append(parts, strconv.Itoa(n)+" x "+Speed(s))
		} else {
			parts = append(parts, Speed(s))
		}
	}
	return strings.Join(parts, ", ")
}
