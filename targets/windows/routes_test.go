package windows

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/compiler"
	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
)

// smb01 compiles examples/routed-hosts and returns its fabric and its
// Windows host smb01 (10.20.2.63/31 on adapter "SLOT 2 Port 1", gateway
// 10.20.2.62).
func smb01(t *testing.T) (*model.Fabric, *model.Host) {
	t.Helper()
	cfg, _, diags := dsl.Load(filepath.Join("..", "..", "examples", "routed-hosts"), dsl.Options{})
	if diags.HasErrors() {
		t.Fatalf("routed-hosts: %v", diags)
	}
	f, diags := compiler.Compile(cfg)
	if diags.HasErrors() {
		t.Fatalf("routed-hosts: %v", diags)
	}
	for i := range f.Hosts {
		if f.Hosts[i].Name == "smb01" {
			return f, &f.Hosts[i]
		}
	}
	t.Fatal("routed-hosts has no host smb01")
	return nil, nil
}

// TestRoutedHostRoutes: a Windows NIC with a route gets, per main-table
// prefix (the gpu servers' four /31s of a rail collapse to one /29,
// stor01's and bak01's /31s to 10.20.1.60/30), a read of the adapter's
// routes to the prefix in the active and the persistent store, a
// compare that -Check reports and -WhatIf shows, and outside -Check the
// routes via another next hop removed from both stores and New-NetRoute
// without -PolicyStore, which saves the route in both ("By default, a
// route is saved in both stores", Microsoft Learn, New-NetRoute). Before,
// the script set no route.
func TestRoutedHostRoutes(t *testing.T) {
	f, h := smb01(t)
	want := []string{"10.20.1.0/29", "10.20.1.60/30", "10.20.2.0/29", "10.20.9.1/32"}
	if got := h.NICs[0].Route.Prefixes; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("prefixes %v, want %v", got, want)
	}
	files, err := Render(f, h)
	if err != nil {
		t.Fatal(err)
	}
	s := string(files[0].Data)
	var block []string
	for _, p := range want {
		block = append(block,
			"$routeActive = @(Get-NetRoute -InterfaceAlias 'SLOT 2 Port 1' -DestinationPrefix '"+p+"' -PolicyStore ActiveStore -ErrorAction SilentlyContinue)",
			"$routeSaved = @(Get-NetRoute -InterfaceAlias 'SLOT 2 Port 1' -DestinationPrefix '"+p+"' -PolicyStore PersistentStore -ErrorAction SilentlyContinue)",
			"if ((Compare-State 'SLOT 2 Port 1' 'route "+p+" next hop' '10.20.2.62' (Get-RouteState $routeActive $routeSaved '10.20.2.62')) -and -not $Check) {",
			"if ($PSCmdlet.ShouldProcess('SLOT 2 Port 1', 'New-NetRoute "+p+" via 10.20.2.62')) {",
			"if ($routeActive.Count -gt 0) { $routeActive | Remove-NetRoute -Confirm:$false }",
			"$routeSaved = @(Get-NetRoute -InterfaceAlias 'SLOT 2 Port 1' -DestinationPrefix '"+p+"' -PolicyStore PersistentStore -ErrorAction SilentlyContinue)",
			"if ($routeSaved.Count -gt 0) { $routeSaved | Remove-NetRoute -Confirm:$false }",
			"New-NetRoute -InterfaceAlias 'SLOT 2 Port 1' -DestinationPrefix '"+p+"' -NextHop '10.20.2.62' | Out-Null",
			"}",
			"}")
	}
	// The routes follow the address, whose subnet holds the next hop.
	assertLines(t, s, append([]string{"New-NetIPAddress -InterfaceAlias 'SLOT 2 Port 1' -IPAddress '10.20.2.63' -PrefixLength 31 | Out-Null"}, block...))
	if n := strings.Count(s, "New-NetRoute -InterfaceAlias"); n != len(want) {
		t.Errorf("%d New-NetRoute lines, want %d", n, len(want))
	}
	assertAbsent(t, s, []string{"-PolicyStore ActiveStore | Out-Null", "New-NetRoute -InterfaceAlias 'SLOT 2 Port 1' -DestinationPrefix '10.20.2.62/31'"})
	for _, p := range checkScript(s) {
		t.Error(p)
	}
}

// TestRouteStateReadsBothStores: the compare's actual value is the one
// Get-RouteState gives, which is the intended next hop only when each
// store holds one route to the prefix on the adapter and its NextHop
// equals the intended one as an [ipaddress] (NextHop is Windows' own
// text of the address, MSFT_NetRoute), else both stores' next hops.
func TestRouteStateReadsBothStores(t *testing.T) {
	s := render(t, workstation())
	assertLines(t, s, []string{
		"function Get-RouteState {",
		"param([object[]]$Active, [object[]]$Persistent, [string]$Intended)",
		"$want = [ipaddress]$Intended",
		"$inUse = @($Active | ForEach-Object { [ipaddress]$_.NextHop })",
		"$atBoot = @($Persistent | ForEach-Object { [ipaddress]$_.NextHop })",
		"if ($inUse.Count -eq 1 -and $atBoot.Count -eq 1 -and $inUse[0] -eq $want -and $atBoot[0] -eq $want) {",
		"return $Intended",
		"}",
		"return ('{0} (after a reboot: {1})' -f (Format-NextHops $inUse), (Format-NextHops $atBoot))",
	})
	// A host without routes gets no route step.
	assertAbsent(t, s, []string{"Get-NetRoute -InterfaceAlias", "New-NetRoute -InterfaceAlias"})
}

// TestRouteRefused: a next hop or prefix that is not an IP address or
// CIDR prefix never reaches the script, nor does an IPv4 prefix via an
// IPv6 next hop, for which New-NetRoute documents no form.
func TestRouteRefused(t *testing.T) {
	for _, tc := range []struct {
		route model.NICRoute
		want  string
	}{
		{model.NICRoute{Gateway: "10.20.0.1'; Remove-Item C:\\", Prefixes: []string{"10.30.0.0/16"}}, "not an IP address"},
		{model.NICRoute{Gateway: "10.20.0.1", Prefixes: []string{"10.30.0.0/16' -NextHop '1.1.1.1"}}, "not a CIDR prefix"},
		{model.NICRoute{Gateway: "10.20.0.1", Prefixes: []string{"10.30.0.1/16"}}, "host bits clear"},
		{model.NICRoute{Gateway: "fe80::1", Prefixes: []string{"10.30.0.0/16"}}, "another address family"},
	} {
		h := workstation()
		r := tc.route
		h.NICs[0].Route = &r
		f := fixture(h)
		_, err := Render(f, &f.Hosts[0])
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("route %+v: error %v, want one saying %q", tc.route, err, tc.want)
		}
	}
}

// TestRouteIPv6NextHop: an IPv6 NIC routes its IPv6 prefixes via its
// link-local next hop, which New-NetRoute takes with the interface alias
// that scopes it.
func TestRouteIPv6NextHop(t *testing.T) {
	h := workstation()
	h.NICs[0].Addresses = []string{"2001:db8:20::10/127"}
	h.NICs[0].Route = &model.NICRoute{Gateway: "fe80::1", Source: "2001:db8:20::10", Prefixes: []string{"2001:db8:30::/48"}}
	s := render(t, h)
	assertLines(t, s, []string{
		"if ((Compare-State 'Ethernet 3' 'route 2001:db8:30::/48 next hop' 'fe80::1' (Get-RouteState $routeActive $routeSaved 'fe80::1')) -and -not $Check) {",
		"New-NetRoute -InterfaceAlias 'Ethernet 3' -DestinationPrefix '2001:db8:30::/48' -NextHop 'fe80::1' | Out-Null",
	})
}
