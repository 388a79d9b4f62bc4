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
// stor01's and bak01's /31s to 10.20.1.60/30), one Set-FabricRoute line
// after its address, whose subnet holds the next hop, and the host-wide
// step after the adapters lists the prefixes the fabric routes on the
// adapter, for Remove-StaleFabricRoute to keep. Before, each prefix took
// ten lines of reads, compare, removals and New-NetRoute, and no route
// was ever removed.
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
	assertLines(t, s, []string{
		"New-NetIPAddress -InterfaceAlias 'SLOT 2 Port 1' -IPAddress '10.20.2.63' -PrefixLength 31 | Out-Null",
		"Set-FabricRoute -InterfaceAlias 'SLOT 2 Port 1' -DestinationPrefix '10.20.1.0/29' -NextHop '10.20.2.62'",
		"Set-FabricRoute -InterfaceAlias 'SLOT 2 Port 1' -DestinationPrefix '10.20.1.60/30' -NextHop '10.20.2.62'",
		"Set-FabricRoute -InterfaceAlias 'SLOT 2 Port 1' -DestinationPrefix '10.20.2.0/29' -NextHop '10.20.2.62'",
		"Set-FabricRoute -InterfaceAlias 'SLOT 2 Port 1' -DestinationPrefix '10.20.9.1/32' -NextHop '10.20.2.62'",
		"}",
		"",
		"# ---- routes the fabric no longer has ----",
		"$fabricRoutes = @{}",
		"$fabricRoutes['SLOT 2 Port 1'] = @('10.20.1.0/29', '10.20.1.60/30', '10.20.2.0/29', '10.20.9.1/32')",
		"Remove-StaleFabricRoute $fabricRoutes",
		"# ---- end ----",
	})
	if n := strings.Count(s, "\n    Set-FabricRoute -InterfaceAlias "); n != len(want) {
		t.Errorf("%d Set-FabricRoute lines, want %d", n, len(want))
	}
	// The ten-line step per prefix is gone; New-NetRoute is written once,
	// in Set-FabricRoute, and no route to the NIC's own subnet is added.
	assertAbsent(t, s, []string{"$routeActive", "New-NetRoute -InterfaceAlias 'SLOT 2 Port 1'", "-DestinationPrefix '10.20.2.62/31'"})
	if n := strings.Count(s, "New-NetRoute -InterfaceAlias"); n != 1 {
		t.Errorf("%d New-NetRoute lines, want the one in Set-FabricRoute", n)
	}
	for _, p := range checkScript(s) {
		t.Error(p)
	}
}

// TestDroppedRouteNotKept: a second build of smb01 whose NIC routes one
// prefix fewer leaves that prefix out of the list Remove-StaleFabricRoute
// keeps, so the run removes the route it recorded for it; a build with
// no route on the NIC keeps none of its routes and still runs the step.
func TestDroppedRouteNotKept(t *testing.T) {
	f, h := smb01(t)
	h.NICs[0].Route.Prefixes = []string{"10.20.1.0/29", "10.20.2.0/29", "10.20.9.1/32"}
	files, err := Render(f, h)
	if err != nil {
		t.Fatal(err)
	}
	s := string(files[0].Data)
	assertLines(t, s, []string{
		"$fabricRoutes = @{}",
		"$fabricRoutes['SLOT 2 Port 1'] = @('10.20.1.0/29', '10.20.2.0/29', '10.20.9.1/32')",
		"Remove-StaleFabricRoute $fabricRoutes",
	})
	assertAbsent(t, s, []string{"'10.20.1.60/30'"})

	h.NICs[0].Route = nil
	files, err = Render(f, h)
	if err != nil {
		t.Fatal(err)
	}
	s = string(files[0].Data)
	assertLines(t, s, []string{
		"# ---- routes the fabric no longer has ----",
		"$fabricRoutes = @{}",
		"Remove-StaleFabricRoute $fabricRoutes",
	})
	assertAbsent(t, s, []string{"$fabricRoutes['", "Set-FabricRoute -InterfaceAlias '"})
	for _, p := range checkScript(s) {
		t.Error(p)
	}
}

// TestRouteFunctions: Set-FabricRoute compares the adapter's routes to
// the prefix in both stores (Get-RouteState), and outside -Check, through
// ShouldProcess, removes them from both stores, adds the route with
// New-NetRoute without -PolicyStore, which saves it in both ("By default,
// a route is saved in both stores", Microsoft Learn, New-NetRoute), and
// records it with the metric Windows gave it. Remove-StaleFabricRoute
// removes a recorded route the fabric no longer keeps only when each store
// holds none or exactly the recorded one (Test-StoreRoute: next hop as an
// address, metric), reports it under -Check, and writes nothing under
// -Check or -WhatIf. The record is one registry value per adapter, by
// exact name, in the 64-bit view.
func TestRouteFunctions(t *testing.T) {
	s := render(t, workstation())
	assertLines(t, s, []string{
		"$script:RouteRecordKey = 'SOFTWARE\\fabricc\\NetRoute'",
		"function Open-RouteRecord {",
		"$machine = [Microsoft.Win32.RegistryKey]::OpenBaseKey([Microsoft.Win32.RegistryHive]::LocalMachine, [Microsoft.Win32.RegistryView]::Registry64)",
		"return $machine.CreateSubKey($script:RouteRecordKey)",
		"return $machine.OpenSubKey($script:RouteRecordKey)",
		"function Get-RouteRecord {",
		"return @($Key.GetValue($Adapter, @()))",
		"function Set-RouteRecord {",
		"$entries = @(@(Get-RouteRecord $key $Adapter) | Where-Object { ($_ -split ' ')[0] -ne $Prefix })",
		"$entries += ('{0} {1} {2}' -f $Prefix, $NextHop, $Metric)",
		"$key.DeleteValue($Adapter, $false)",
		"$key.SetValue($Adapter, [string[]]@($entries | Sort-Object), [Microsoft.Win32.RegistryValueKind]::MultiString)",
		"function Get-AdapterRoutes {",
		"return @(Get-NetRoute -InterfaceAlias $Adapter -DestinationPrefix $Prefix -PolicyStore $Store -ErrorAction SilentlyContinue)",
		"function Remove-AdapterRoutes {",
		"if ($Active.Count -gt 0) {",
		"$Active | Remove-NetRoute -Confirm:$false",
		"$saved = @(Get-AdapterRoutes $Adapter $Prefix 'PersistentStore')",
		"if ($saved.Count -gt 0) {",
		"$saved | Remove-NetRoute -Confirm:$false",
		"function Set-FabricRoute {",
		"[CmdletBinding(SupportsShouldProcess = $true)]",
		"param([string]$InterfaceAlias, [string]$DestinationPrefix, [string]$NextHop)",
		"$active = @(Get-AdapterRoutes $InterfaceAlias $DestinationPrefix 'ActiveStore')",
		"$saved = @(Get-AdapterRoutes $InterfaceAlias $DestinationPrefix 'PersistentStore')",
		"$actual = Get-RouteState $active $saved $NextHop",
		"if ((Compare-State $InterfaceAlias ('route ' + $DestinationPrefix + ' next hop') $NextHop $actual) -and -not $Check) {",
		"if ($PSCmdlet.ShouldProcess($InterfaceAlias, ('New-NetRoute {0} via {1}' -f $DestinationPrefix, $NextHop))) {",
		"Remove-AdapterRoutes $InterfaceAlias $DestinationPrefix $active",
		"New-NetRoute -InterfaceAlias $InterfaceAlias -DestinationPrefix $DestinationPrefix -NextHop $NextHop | Out-Null",
		"$made = @(Get-AdapterRoutes $InterfaceAlias $DestinationPrefix 'ActiveStore') + @(Get-AdapterRoutes $InterfaceAlias $DestinationPrefix 'PersistentStore')",
		"Set-RouteRecord $InterfaceAlias $DestinationPrefix $NextHop (Format-Value $made[0].RouteMetric)",
		"function Test-StoreRoute {",
		"if ($Routes.Count -eq 0) {",
		"return $true",
		"return ($Routes.Count -eq 1 -and [ipaddress]$Routes[0].NextHop -eq [ipaddress]$NextHop -and (Format-Value $Routes[0].RouteMetric) -eq $Metric)",
		"function Test-RecordedRoute {",
		"if ($Active.Count -eq 0 -and $Persistent.Count -eq 0) {",
		"return 'gone'",
		"if ((Test-StoreRoute $Active $NextHop $Metric) -and (Test-StoreRoute $Persistent $NextHop $Metric)) {",
		"return 'same'",
		"return 'changed'",
		"function Remove-StaleFabricRoute {",
		"[CmdletBinding(SupportsShouldProcess = $true)]",
		"param([System.Collections.IDictionary]$Keep)",
		"$key = Open-RouteRecord $false",
		"if ($null -eq $key) {",
		"$adapters = @($key.GetValueNames() | Sort-Object)",
		"foreach ($adapter in $adapters) {",
		"foreach ($entry in @(Get-RouteRecord $key $adapter)) {",
		"$fields = @($entry -split ' ')",
		"if ($fields.Count -ne 3) {",
		"Write-Warning (\"fabricc: the route record of adapter '{0}' holds '{1}', not 'PREFIX NEXTHOP METRIC'; it is left (HKLM\\{2}).\" -f $adapter, $entry, $script:RouteRecordKey)",
		"continue",
		"if (@($Keep[$adapter]) -contains $prefix) {",
		"continue",
		"$state = Test-RecordedRoute $active $saved $hop $metric",
		"if ($state -eq 'same' -and (Compare-State $adapter ('route ' + $prefix) 'absent' ('via ' + $hop + ', added by this script')) -and -not $Check) {",
		"if ($PSCmdlet.ShouldProcess($adapter, ('Remove-NetRoute {0} via {1} (no longer in the fabric)' -f $prefix, $hop))) {",
		"Remove-AdapterRoutes $adapter $prefix $active",
		"Set-RouteRecord $adapter $prefix '' ''",
		"if ($state -ne 'same' -and -not $Check -and -not $WhatIfPreference) {",
		"Set-RouteRecord $adapter $prefix '' ''",
	})
	// A host without routes gets no route step, but the removal step.
	assertAbsent(t, s, []string{"Set-FabricRoute -InterfaceAlias '", "$fabricRoutes['"})
	assertLines(t, s, []string{"$fabricRoutes = @{}", "Remove-StaleFabricRoute $fabricRoutes"})
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
}

// TestRouteHostileAlias: an adapter alias with quote characters, a
// PowerShell subexpression and a curly quote reaches the route lines only
// as one single-quoted string (quote.PowerShell), both in Set-FabricRoute
// and as the key of the kept list.
func TestRouteHostileAlias(t *testing.T) {
	h := workstation()
	h.NICs[0].Interface = "Eth'; $(Remove-Item C:\\) #\u2019x"
	h.NICs[0].Route = &model.NICRoute{Gateway: "10.20.0.1", Source: "10.20.0.10", Prefixes: []string{"10.30.0.0/16"}}
	s := render(t, h)
	alias := "'Eth''; $(Remove-Item C:\\) #\u2019\u2019x'"
	assertLines(t, s, []string{
		"Set-FabricRoute -InterfaceAlias " + alias + " -DestinationPrefix '10.30.0.0/16' -NextHop '10.20.0.1'",
		"$fabricRoutes[" + alias + "] = @('10.30.0.0/16')",
	})
	for _, p := range checkScript(s) {
		t.Error(p)
	}
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
		"Set-FabricRoute -InterfaceAlias 'Ethernet 3' -DestinationPrefix '2001:db8:30::/48' -NextHop 'fe80::1'",
		"$fabricRoutes['Ethernet 3'] = @('2001:db8:30::/48')",
	})
}
