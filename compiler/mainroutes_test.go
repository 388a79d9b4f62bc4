package compiler

import (
	"fmt"
	"net/netip"
	"reflect"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
)

// railFabric is hosts h00.. with one routed NIC per rail, cabled to one
// leaf: NIC "railR" of host i at addr(R, i)/bits, with its derived route,
// tables numbered as finishRoutes does. skip leaves hosts out.
func railFabric(hosts, rails int, addr func(rail, host int) string, skip ...int) *model.Fabric {
	f := &model.Fabric{}
	port := 0
	for i := 0; i < hosts; i++ {
		if contains(skip, i) {
			continue
		}
		h := model.Host{Name: fmt.Sprintf("h%02d", i), OS: model.OSLinux}
		for r := 0; r < rails; r++ {
			a := addr(r, i)
			n := model.NIC{Name: fmt.Sprintf("rail%d", r), Addresses: []string{a}}
			n.Route = derivedRoute(n.Addresses)
			n.Route.Table, n.Route.Priority = model.RouteBase+r+1, model.RouteBase+r+1
			h.NICs = append(h.NICs, n)
			port++
			f.Links = append(f.Links, model.Link{
				A: model.Endpoint{Kind: "host", Device: h.Name, Port: n.Name},
				B: model.Endpoint{Kind: "switch", Device: "leaf", Port: fmt.Sprintf("swp%d", port)},
			})
		}
		f.Hosts = append(f.Hosts, h)
	}
	return f
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// prefixesOf runs mainRoutes on f and returns host's NICs' prefixes by
// NIC name.
func prefixesOf(f *model.Fabric, host string) map[string][]string {
	l := &lowering{f: f}
	l.mainRoutes()
	out := map[string][]string{}
	for _, n := range f.Host(host).NICs {
		out[n.Name] = n.Route.Prefixes
	}
	return out
}

// TestMainRoutesCollapse: a 64-host rail of /31s is one main-table prefix
// on every host (its own /31 inside it); a host missing from the rail
// leaves a gap that the prefixes keep exact; IPv6 /127s collapse alike.
func TestMainRoutesCollapse(t *testing.T) {
	v4 := func(_, i int) string { return fmt.Sprintf("10.2.0.%d/31", 2*i+1) }
	if got, want := prefixesOf(railFabric(64, 1, v4), "h07"), []string{"10.2.0.0/25"}; !reflect.DeepEqual(got["rail0"], want) {
		t.Errorf("64-host rail: %v, want %v", got["rail0"], want)
	}
	gap := []string{"10.2.0.0/29", "10.2.0.8/31", "10.2.0.12/30", "10.2.0.16/28", "10.2.0.32/27", "10.2.0.64/26"}
	if got := prefixesOf(railFabric(64, 1, v4, 5), "h07"); !reflect.DeepEqual(got["rail0"], gap) {
		t.Errorf("rail without h05: %v, want %v", got["rail0"], gap)
	}
	v6 := func(_, i int) string { return fmt.Sprintf("fd00:2::%x/127", 2*i+1) }
	if got, want := prefixesOf(railFabric(64, 1, v6), "h63"), []string{"fd00:2::/121"}; !reflect.DeepEqual(got["rail0"], want) {
		t.Errorf("64-host IPv6 rail: %v, want %v", got["rail0"], want)
	}
}

// TestMainRoutesRails: with two rails in one component each NIC carries
// its own rail's subnets, never a prefix twice; a host with only the
// first rail's NIC carries both rails through it.
func TestMainRoutesRails(t *testing.T) {
	addr := func(r, i int) string { return fmt.Sprintf("10.%d.0.%d/31", 10+r, 2*i+1) }
	f := railFabric(4, 2, addr)
	lone := model.Host{Name: "lone", OS: model.OSLinux, NICs: []model.NIC{{Name: "rail0", Addresses: []string{"10.10.0.9/31"}}}}
	lone.NICs[0].Route = derivedRoute(lone.NICs[0].Addresses)
	f.Hosts = append(f.Hosts, lone)
	f.Links = append(f.Links, model.Link{A: model.Endpoint{Kind: "host", Device: "lone", Port: "rail0"}, B: model.Endpoint{Kind: "switch", Device: "leaf", Port: "swp99"}})
	want := map[string][]string{"rail0": {"10.10.0.0/29", "10.10.0.8/31"}, "rail1": {"10.11.0.0/29"}}
	if got := prefixesOf(f, "h02"); !reflect.DeepEqual(got, want) {
		t.Errorf("h02: %v, want %v", got, want)
	}
	want = map[string][]string{"rail0": {"10.10.0.0/29", "10.11.0.0/29"}}
	if got := prefixesOf(f, "lone"); !reflect.DeepEqual(got, want) {
		t.Errorf("lone: %v, want %v", got, want)
	}
}

// TestMainRoutesByLeaf: a rail is the leaf its NICs are cabled to, not
// their NICs' order by name. Hosts h00..h03 have NIC "a" on leaf1 and "b"
// on leaf2; h04's names are the other way round ("a" on leaf2), and
// single is one NIC, named "z", on leaf2. Every host routes each leaf's
// subnets out of its own NIC on that leaf, never across the spine; single
// routes everything out of its one NIC.
func TestMainRoutesByLeaf(t *testing.T) {
	f := &model.Fabric{}
	cable := func(h *model.Host, nic, leaf, addr string, place int) {
		n := model.NIC{Name: nic, Addresses: []string{addr}}
		n.Route = derivedRoute(n.Addresses)
		if n.Route == nil { // a /32: a link-local gateway, as on a BGP-unnumbered link
			n.Route = &model.NICRoute{Source: strings.TrimSuffix(addr, "/32"), Gateway: "fe80::1"}
		}
		n.Route.Table, n.Route.Priority = model.RouteBase+place+1, model.RouteBase+place+1
		h.NICs = append(h.NICs, n)
		f.Links = append(f.Links, model.Link{
			A: model.Endpoint{Kind: "host", Device: h.Name, Port: nic},
			B: model.Endpoint{Kind: "switch", Device: leaf, Port: fmt.Sprintf("swp%d", len(f.Links)+1)},
		})
	}
	for i := 0; i < 5; i++ {
		h := model.Host{Name: fmt.Sprintf("h%02d", i), OS: model.OSLinux}
		first, second := "leaf1", "leaf2"
		if i == 4 {
			first, second = second, first
		}
		cable(&h, "a", first, fmt.Sprintf("10.%d.0.%d/31", first[4]-'0', 2*i+1), 0)
		cable(&h, "b", second, fmt.Sprintf("10.%d.0.%d/31", second[4]-'0', 2*i+1), 1)
		f.Hosts = append(f.Hosts, h)
	}
	single := model.Host{Name: "single", OS: model.OSLinux}
	cable(&single, "z", "leaf2", "10.9.0.1/32", 0)
	x := model.Host{Name: "x", OS: model.OSLinux}
	cable(&x, "a", "leaf3", "10.3.0.1/31", 0)
	cable(&x, "b", "leaf4", "10.4.0.1/31", 1)
	f.Hosts = append(f.Hosts, single, x)
	for _, leaf := range []string{"leaf1", "leaf2", "leaf3", "leaf4"} {
		f.Links = append(f.Links, model.Link{
			A: model.Endpoint{Kind: "switch", Device: leaf, Port: "swp31"},
			B: model.Endpoint{Kind: "switch", Device: "spine", Port: "swp" + leaf[4:]},
		})
	}
	want := map[string]map[string][]string{
		"h00":    {"a": {"10.1.0.0/29", "10.1.0.8/31", "10.3.0.0/31"}, "b": {"10.2.0.0/29", "10.2.0.8/31", "10.4.0.0/31", "10.9.0.1/32"}},
		"h04":    {"a": {"10.2.0.0/29", "10.3.0.0/31", "10.9.0.1/32"}, "b": {"10.1.0.0/29", "10.4.0.0/31"}},
		"single": {"z": {"10.1.0.0/29", "10.1.0.8/31", "10.2.0.0/29", "10.2.0.8/31", "10.3.0.0/31", "10.4.0.0/31"}},
		"x":      {"a": {"10.1.0.0/29", "10.2.0.8/31", "10.9.0.1/32"}, "b": {"10.1.0.8/31", "10.2.0.0/29"}},
	}
	l := &lowering{f: f}
	l.mainRoutes()
	for host, nics := range want {
		got := map[string][]string{}
		for _, n := range f.Host(host).NICs {
			got[n.Name] = n.Route.Prefixes
		}
		if !reflect.DeepEqual(got, nics) {
			t.Errorf("%s: %v, want %v", host, got, nics)
		}
	}
}

// TestMainRoutesRoutedHostsExample compiles examples/routed-hosts, where
// arch01's one NIC (roce0, 10.20.9.1/32) and smb01's (rail2,
// 10.20.2.63/31) are cabled to leaf2: every GPU server routes them out of
// its rail-2 NIC, on leaf2, not its rail-1 NIC and the spine.
func TestMainRoutesRoutedHostsExample(t *testing.T) {
	cfg, _, diags := dsl.Load("../examples/routed-hosts", dsl.Options{})
	if diags.HasErrors() {
		t.Fatalf("load: %s", diags.Error())
	}
	f, diags := Compile(cfg)
	if diags.HasErrors() {
		t.Fatalf("compile: %s", diags.Error())
	}
	rail1 := []string{"10.20.1.0/29", "10.20.1.60/30"}
	rail2 := []string{"10.20.2.0/29", "10.20.2.62/31", "10.20.9.1/32"}
	all := []string{"10.20.1.0/29", "10.20.1.60/30", "10.20.2.0/29", "10.20.2.62/31", "10.20.9.1/32"}
	want := map[string]map[string][]string{
		"gpu01":  {"rail1": rail1, "rail2": rail2},
		"gpu04":  {"rail1": rail1, "rail2": rail2},
		"arch01": {"roce0": {"10.20.1.0/29", "10.20.1.60/30", "10.20.2.0/29", "10.20.2.62/31"}},
		"stor01": {"rail1": all},
		"smb01":  {"rail2": {"10.20.1.0/29", "10.20.1.60/30", "10.20.2.0/29", "10.20.9.1/32"}},
	}
	for host, nics := range want {
		got := map[string][]string{}
		for _, n := range f.Host(host).NICs {
			got[n.Name] = n.Route.Prefixes
		}
		if !reflect.DeepEqual(got, nics) {
			t.Errorf("%s: %v, want %v", host, got, nics)
		}
	}
}

// TestCollapsePrefixes: siblings merge up as far as they go, a prefix
// inside another is dropped, and non-siblings stay apart.
func TestCollapsePrefixes(t *testing.T) {
	in := []string{"10.0.0.6/31", "10.0.0.0/30", "10.0.0.4/31", "10.0.0.1/32", "10.0.0.10/31", "10.0.1.0/24"}
	var ps []netip.Prefix
	for _, s := range in {
		ps = append(ps, netip.MustParsePrefix(s))
	}
	var got []string
	for _, p := range collapsePrefixes(ps) {
		got = append(got, p.String())
	}
	if want := []string{"10.0.0.0/29", "10.0.0.10/31", "10.0.1.0/24"}; !reflect.DeepEqual(got, want) {
		t.Errorf("collapse: %v, want %v", got, want)
	}
}
