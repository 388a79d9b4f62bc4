package compiler

import "github.com/fabricc/fabricc/model"

// roceFlow says which switch-to-switch links RoCE traffic can cross. RoCE
// flows between RoCE NICs, so it crosses a link only if RoCE NICs sit on
// both of its sides. A link on a cycle has the whole cabled component on
// both sides; a bridge (a link whose removal splits its component) has
// the NICs of each half on its own side. A dead-end switch, a lossy
// storage island hung off the fabric, receives no RoCE even though it is
// cabled to RoCE NICs.
type roceFlow struct {
	id map[string]int // node key (switchNode, nicNode) -> index
	// edges by link index: the two node indexes.
	edges [][2]int
	adj   [][]int // link indexes by node
	roce  []int   // RoCE NICs at each node (0 or 1)
	// side holds, for each bridge, the node on its child side, the RoCE
	// NICs on that side and in the whole component.
	side map[int]bridgeSide
	// linkOf is the link index of each switch end "switch\x00port".
	linkOf map[string]int
}

// bridgeSide is one bridge's child node and RoCE counts.
type bridgeSide struct {
	child, inChild, total int
}

// newRoCEFlow finds the bridges of the cabling and the RoCE NICs on each
// of their sides (Tarjan's bridge algorithm, one depth-first pass).
func newRoCEFlow(f *model.Fabric) *roceFlow {
	r := &roceFlow{id: map[string]int{}, side: map[int]bridgeSide{}, linkOf: map[string]int{}}
	node := func(e model.Endpoint) int {
		k := endpointNode(e)
		i, ok := r.id[k]
		if !ok {
			i = len(r.adj)
			r.id[k] = i
			r.adj = append(r.adj, nil)
			r.roce = append(r.roce, 0)
		}
		return i
	}
	for li, l := range f.Links {
		a, b := node(l.A), node(l.B)
		r.edges = append(r.edges, [2]int{a, b})
		r.adj[a] = append(r.adj[a], li)
		r.adj[b] = append(r.adj[b], li)
		for _, e := range []model.Endpoint{l.A, l.B} {
			if e.Kind == "switch" {
				r.linkOf[e.Device+"\x00"+e.Port] = li
			}
		}
	}
	for _, h := range f.Hosts {
		for _, n := range h.NICs {
			if i, ok := r.id[nicNode(h.Name, n.Name)]; ok && n.Transport == model.TransportRoCE {
				r.roce[i] = 1
			}
		}
	}
	r.findBridges()
	return r
}

// findBridges runs the depth-first search over every component.
func (r *roceFlow) findBridges() {
	n := len(r.adj)
	disc, low, sub := make([]int, n), make([]int, n), make([]int, n)
	for i := range disc {
		disc[i] = -1
	}
	time := 0
	var found []int // bridges of the current component
	var dfs func(u, via int)
	dfs = func(u, via int) {
		disc[u], low[u], sub[u] = time, time, r.roce[u]
		time++
		for _, e := range r.adj[u] {
			if e == via {
				continue
			}
			v := r.edges[e][0]
			if v == u {
				v = r.edges[e][1]
			}
			if disc[v] >= 0 {
				low[u] = min(low[u], disc[v])
				continue
			}
			dfs(v, e)
			sub[u] += sub[v]
			low[u] = min(low[u], low[v])
			if low[v] > disc[u] {
				r.side[e] = bridgeSide{child: v, inChild: sub[v]}
				found = append(found, e)
			}
		}
	}
	for s := 0; s < n; s++ {
		if disc[s] >= 0 {
			continue
		}
		found = found[:0]
		dfs(s, -1)
		for _, e := range found {
			b := r.side[e]
			b.total = sub[s]
			r.side[e] = b
		}
	}
}

// reachesPort reports whether RoCE traffic can arrive at switch port
// sw:port from its peer over the port's link: RoCE NICs on the peer's
// side and on the port's side. A port without a link reports false.
func (r *roceFlow) reachesPort(sw, port string) bool {
	li, ok := r.linkOf[sw+"\x00"+port]
	if !ok {
		return false
	}
	b, bridge := r.side[li]
	if !bridge {
		return true // on a cycle: the whole component is on both sides
	}
	self := r.id[switchNode(sw)]
	peerSide, ownSide := b.inChild, b.total-b.inChild
	if b.child == self {
		peerSide, ownSide = ownSide, peerSide
	}
	return peerSide > 0 && ownSide > 0
}
