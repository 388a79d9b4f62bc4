package windows

import (
	"fmt"
	"strings"

	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
)

// writer accumulates the lines of one PowerShell script with the
// current indentation.
type writer struct {
	b      *targets.Text
	indent int
	// host names the host, for the elements of its NICs.
	host string
}

// nic says that the lines written next come from the host's NIC name,
// and from its HCL attribute attr when one is given.
func (w *writer) nic(name string, attr ...string) {
	if w.b.Mapped() {
		w.b.At(append([]string{"host", w.host, "nic", name}, attr...)...)
	}
}

// allNICs says that the lines written next come from attribute attr of
// every NIC of the host (the host-wide Windows settings follow them all).
func (w *writer) allNICs(h *model.Host, attr string) {
	w.b.At()
	if w.b.Mapped() {
		for _, n := range h.NICs {
			w.b.Also("host", h.Name, "nic", n.Name, attr)
		}
	}
}

// line writes one line at the current indentation.
func (w *writer) line(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	if s != "" {
		w.b.WriteString(strings.Repeat("    ", w.indent))
	}
	w.b.WriteString(s)
	w.b.WriteByte('\n')
}

// blank writes an empty line.
func (w *writer) blank() { w.b.WriteByte('\n') }

// comment writes each text as a "# " comment line (quote.Comment: one
// line, whatever the text holds).
func (w *writer) comment(texts ...string) {
	for _, t := range texts {
		if t == "" {
			w.line("#")
			continue
		}
		w.line("# %s", quote.Comment(t))
	}
}

// section writes a banner comment between blank lines.
func (w *writer) section(title string) {
	w.blank()
	cur := w.b.Elements()
	w.b.At()
	w.line("# ---- %s ----", quote.Comment(title))
	w.b.Set(cur)
}

// open writes a line ending in "{" and indents what follows.
func (w *writer) open(format string, args ...any) {
	w.line(format+" {", args...)
	w.indent++
}

// otherwise ends the innermost block with "} else {" and opens the
// else branch.
func (w *writer) otherwise() {
	w.indent--
	w.line("} else {")
	w.indent++
}

// close ends the innermost block.
func (w *writer) close() {
	w.indent--
	w.line("}")
}

// String returns the script written so far.
func (w *writer) String() string { return w.b.String() }

// Bytes returns what was written, without a copy.
func (w *writer) Bytes() []byte { return w.b.Bytes() }

// q quotes s as a PowerShell single-quoted string (quote.PowerShell: every
// single-quote character, U+2018-U+201B included, written twice).
func q(s string) string { return quote.PowerShell(s) }

// change writes the guarded form every change takes: compare (which
// prints the difference), and outside -Check apply it through
// ShouldProcess so -WhatIf and -Confirm work:
//
//	if ((<compare>) -and -not $Check) {
//	    if ($PSCmdlet.ShouldProcess(<target>, <action>)) {
//	        <body>
//	    }
//	}
func (w *writer) change(compare, target, action string, body ...string) {
	w.changeExpr(compare, q(target), q(action), body...)
}

// changeExpr is change with target and action given as PowerShell
// expressions rather than literal text.
func (w *writer) changeExpr(compare, target, action string, body ...string) {
	w.open("if ((%s) -and -not $Check)", compare)
	w.open("if ($PSCmdlet.ShouldProcess(%s, %s))", target, action)
	for _, b := range body {
		w.line("%s", b)
	}
	w.close()
	w.close()
}

// prelude is the fixed part of every script after the param block: the
// error policy, the counters and the helper functions the steps call.
const prelude = `$ErrorActionPreference = 'Stop'
$script:Differences = 0
$script:Restart = @()
$script:NotInEffect = 0

# Exit status: 0 done (or, with -Check, the host matches), 1 -Check found
# differences, 2 the script stopped on an error or refused this host,
# 3 an apply run ended with a change not in effect (an adapter restart
# left to do, an IP MTU not reached). A terminating error anywhere in the
# script, in its functions too, reaches this trap ("a list of statements to
# run when a terminating error occurs", Microsoft, about_Trap), which
# prints it and exits 2, so a pipeline tells an unfinished run from
# differences.
trap {
    Write-Host ('fabricc: error: {0}' -f $_)
    exit 2
}

# Compare-State prints one line per difference, "DIFF" under -Check and
# "CHANGE" otherwise, and returns $true when intended and actual differ.
function Compare-State {
    param([string]$Target, [string]$What, [string]$Intended, [string]$Actual)
    if ($Intended -eq $Actual) {
        return $false
    }
    $script:Differences++
    $verb = 'CHANGE'
    if ($Check) {
        $verb = 'DIFF'
    }
    Write-Host ('{0} {1}: {2}: intended {3}, actual {4}' -f $verb, $Target, $What, $Intended, $Actual)
    return $true
}

# Format-Value prints a property the way the steps compare it: 'none'
# when unset, lists joined with commas. "$_" formats with the invariant
# culture whatever the host's (PowerShell issue 6989), so numbers compare
# alike on every Windows.
function Format-Value {
    param($Value)
    if ($null -eq $Value) {
        return 'none'
    }
    return (@($Value) | ForEach-Object { "$_" }) -join ','
}

# Get-RouteState is the next hop of an adapter's routes to one prefix as
# the script compares it: $Intended when the active store (the routes in
# use) and the persistent store (those restored at boot) each hold one
# route, via $Intended compared as an address (NextHop is Windows' own text
# of it, MSFT_NetRoute), else the next hops each store holds.
function Get-RouteState {
    param([object[]]$Active, [object[]]$Persistent, [string]$Intended)
    $want = [ipaddress]$Intended
    $inUse = @($Active | ForEach-Object { [ipaddress]$_.NextHop })
    $atBoot = @($Persistent | ForEach-Object { [ipaddress]$_.NextHop })
    if ($inUse.Count -eq 1 -and $atBoot.Count -eq 1 -and $inUse[0] -eq $want -and $atBoot[0] -eq $want) {
        return $Intended
    }
    return ('{0} (after a reboot: {1})' -f (Format-NextHops $inUse), (Format-NextHops $atBoot))
}

# Format-NextHops prints next hops joined with commas, 'none' for none.
function Format-NextHops {
    param([object[]]$Hops)
    if ($Hops.Count -eq 0) {
        return 'none'
    }
    return ($Hops | ForEach-Object { "$_" }) -join ','
}

# A Windows route carries no mark of who made it (MSFT_NetRoute has no
# owner field, Get-NetRoute), so the routes this script adds are recorded
# under one registry key it owns, HKLM\SOFTWARE\fabricc\NetRoute: a value
# per adapter, named by its interface alias, whose strings (REG_MULTI_SZ)
# are 'PREFIX NEXTHOP METRIC', one per route. A later run removes a
# recorded route the fabric no longer has, and only while both stores still
# hold it as recorded. HKLM\SOFTWARE rather than a file under
# $env:ProgramData: by default only administrators and SYSTEM may write
# there, so no other user can record a route for the script to remove. The
# key is opened in the 64-bit view, the same key from a 32-bit PowerShell
# (RegistryKey.OpenBaseKey, RegistryView.Registry64), and values are read,
# written and deleted by their exact name (RegistryKey.GetValue, SetValue,
# DeleteValue), where the registry provider's -Name takes wildcards.
$script:RouteRecordKey = 'SOFTWARE\fabricc\NetRoute'

# Open-RouteRecord opens the record's key, created when $Writable, else
# $null when no run has recorded a route.
function Open-RouteRecord {
    param([bool]$Writable)
    $machine = [Microsoft.Win32.RegistryKey]::OpenBaseKey([Microsoft.Win32.RegistryHive]::LocalMachine, [Microsoft.Win32.RegistryView]::Registry64)
    if ($Writable) {
        return $machine.CreateSubKey($script:RouteRecordKey)
    }
    return $machine.OpenSubKey($script:RouteRecordKey)
}

# Get-RouteRecord returns an adapter's recorded routes, 'PREFIX NEXTHOP
# METRIC' each, from the open record $Key.
function Get-RouteRecord {
    param($Key, [string]$Adapter)
    if ($null -eq $Key) {
        return @()
    }
    return @($Key.GetValue($Adapter, @()))
}

# Set-RouteRecord records the route to $Prefix on $Adapter as the script's,
# via $NextHop with metric $Metric, or, with an empty $NextHop, forgets it.
function Set-RouteRecord {
    param([string]$Adapter, [string]$Prefix, [string]$NextHop, [string]$Metric)
    $key = Open-RouteRecord $true
    $entries = @(@(Get-RouteRecord $key $Adapter) | Where-Object { ($_ -split ' ')[0] -ne $Prefix })
    if ($NextHop -ne '') {
        $entries += ('{0} {1} {2}' -f $Prefix, $NextHop, $Metric)
    }
    if ($entries.Count -eq 0) {
        $key.DeleteValue($Adapter, $false)
    } else {
        $key.SetValue($Adapter, [string[]]@($entries | Sort-Object), [Microsoft.Win32.RegistryValueKind]::MultiString)
    }
    $key.Close()
}

# Get-AdapterRoutes returns an adapter's routes to one prefix in one policy
# store: ActiveStore, the routes in use, or PersistentStore, those restored
# at boot (Get-NetRoute, -PolicyStore).
function Get-AdapterRoutes {
    param([string]$Adapter, [string]$Prefix, [string]$Store)
    return @(Get-NetRoute -InterfaceAlias $Adapter -DestinationPrefix $Prefix -PolicyStore $Store -ErrorAction SilentlyContinue)
}

# Remove-AdapterRoutes removes an adapter's routes to one prefix, $Active
# read from the active store before, then those the persistent store still
# holds (Remove-NetRoute, -PolicyStore), each store only when it holds a
# route, so that Remove-NetRoute never runs without one to act on.
function Remove-AdapterRoutes {
    param([string]$Adapter, [string]$Prefix, [object[]]$Active)
    if ($Active.Count -gt 0) {
        $Active | Remove-NetRoute -Confirm:$false
    }
    $saved = @(Get-AdapterRoutes $Adapter $Prefix 'PersistentStore')
    if ($saved.Count -gt 0) {
        $saved | Remove-NetRoute -Confirm:$false
    }
}

# Set-FabricRoute makes an adapter's route to one prefix go via $NextHop in
# both stores: it compares (-Check reports the difference), and outside
# -Check, through ShouldProcess (-WhatIf, -Confirm), removes the adapter's
# routes to the prefix from both stores and adds the route with New-NetRoute,
# which without -PolicyStore saves it in both ("By default, a route is saved
# in both stores", New-NetRoute, -PolicyStore), so it survives a reboot. It
# then records the route, with the metric Windows gave it (RouteMetric,
# Get-NetRoute), as the script's. A route already as intended is left, and
# not recorded: it may be someone else's.
function Set-FabricRoute {
    [CmdletBinding(SupportsShouldProcess = $true)]
    param([string]$InterfaceAlias, [string]$DestinationPrefix, [string]$NextHop)
    $active = @(Get-AdapterRoutes $InterfaceAlias $DestinationPrefix 'ActiveStore')
    $saved = @(Get-AdapterRoutes $InterfaceAlias $DestinationPrefix 'PersistentStore')
    $actual = Get-RouteState $active $saved $NextHop
    if ((Compare-State $InterfaceAlias ('route ' + $DestinationPrefix + ' next hop') $NextHop $actual) -and -not $Check) {
        if ($PSCmdlet.ShouldProcess($InterfaceAlias, ('New-NetRoute {0} via {1}' -f $DestinationPrefix, $NextHop))) {
            Remove-AdapterRoutes $InterfaceAlias $DestinationPrefix $active
            New-NetRoute -InterfaceAlias $InterfaceAlias -DestinationPrefix $DestinationPrefix -NextHop $NextHop | Out-Null
            $made = @(Get-AdapterRoutes $InterfaceAlias $DestinationPrefix 'ActiveStore') + @(Get-AdapterRoutes $InterfaceAlias $DestinationPrefix 'PersistentStore')
            Set-RouteRecord $InterfaceAlias $DestinationPrefix $NextHop (Format-Value $made[0].RouteMetric)
        }
    }
}

# Test-StoreRoute says whether one store's routes of an adapter to a prefix
# are none or exactly the recorded route (next hop compared as an address,
# and metric).
function Test-StoreRoute {
    param([object[]]$Routes, [string]$NextHop, [string]$Metric)
    if ($Routes.Count -eq 0) {
        return $true
    }
    return ($Routes.Count -eq 1 -and [ipaddress]$Routes[0].NextHop -eq [ipaddress]$NextHop -and (Format-Value $Routes[0].RouteMetric) -eq $Metric)
}

# Test-RecordedRoute says what became of a recorded route: 'gone' when
# neither store holds a route of the adapter to the prefix, 'same' when
# each holds none or exactly the recorded one, else 'changed'.
function Test-RecordedRoute {
    param([object[]]$Active, [object[]]$Persistent, [string]$NextHop, [string]$Metric)
    if ($Active.Count -eq 0 -and $Persistent.Count -eq 0) {
        return 'gone'
    }
    if ((Test-StoreRoute $Active $NextHop $Metric) -and (Test-StoreRoute $Persistent $NextHop $Metric)) {
        return 'same'
    }
    return 'changed'
}

# Remove-StaleFabricRoute removes from both stores each recorded route the
# fabric no longer has ($Keep maps an interface alias to the prefixes the
# fabric routes on it), while it is as recorded (Remove-NetRoute,
# -PolicyStore), and forgets it; -Check reports it. A recorded route that
# changed since (another next hop, metric or route) is someone's now: it is
# left, with a warning, and forgotten. Nothing is written under -Check or
# -WhatIf.
function Remove-StaleFabricRoute {
    [CmdletBinding(SupportsShouldProcess = $true)]
    param([System.Collections.IDictionary]$Keep)
    $key = Open-RouteRecord $false
    if ($null -eq $key) {
        return
    }
    $adapters = @($key.GetValueNames() | Sort-Object)
    foreach ($adapter in $adapters) {
        foreach ($entry in @(Get-RouteRecord $key $adapter)) {
            $fields = @($entry -split ' ')
            if ($fields.Count -ne 3) {
                Write-Warning ("fabricc: the route record of adapter '{0}' holds '{1}', not 'PREFIX NEXTHOP METRIC'; it is left (HKLM\{2})." -f $adapter, $entry, $script:RouteRecordKey)
                continue
            }
            $prefix = $fields[0]
            $hop = $fields[1]
            $metric = $fields[2]
            if (@($Keep[$adapter]) -contains $prefix) {
                continue
            }
            $active = @(Get-AdapterRoutes $adapter $prefix 'ActiveStore')
            $saved = @(Get-AdapterRoutes $adapter $prefix 'PersistentStore')
            $state = Test-RecordedRoute $active $saved $hop $metric
            if ($state -eq 'changed') {
                Write-Warning ("fabricc: route {0} on adapter '{1}' is no longer in the fabric, but it changed since this script added it via {2} (metric {3}); it is left, and no longer the script's." -f $prefix, $adapter, $hop, $metric)
            }
            if ($state -eq 'same' -and (Compare-State $adapter ('route ' + $prefix) 'absent' ('via ' + $hop + ', added by this script')) -and -not $Check) {
                if ($PSCmdlet.ShouldProcess($adapter, ('Remove-NetRoute {0} via {1} (no longer in the fabric)' -f $prefix, $hop))) {
                    Remove-AdapterRoutes $adapter $prefix $active
                    Set-RouteRecord $adapter $prefix '' ''
                }
            }
            if ($state -ne 'same' -and -not $Check -and -not $WhatIfPreference) {
                Set-RouteRecord $adapter $prefix '' ''
            }
        }
    }
    $key.Close()
}

# Compare-Properties compares the named properties of one object (a traffic
# class) with their intended values. A list (a class's priorities, a byte
# array) compares in ascending order, whatever order Windows returns it in.
function Compare-Properties {
    param([string]$Target, $Object, [System.Collections.IDictionary]$Intended)
    if ($null -eq $Object) {
        return (Compare-State $Target 'presence' 'present' 'absent')
    }
    $differs = $false
    foreach ($key in $Intended.Keys) {
        $value = $Object.$key
        if ($null -ne $value) {
            $value = @($value | Sort-Object)
        }
        if (Compare-State $Target $key $Intended[$key] (Format-Value $value)) {
            $differs = $true
        }
    }
    return $differs
}

# The properties of a NetQos policy -Check compares, with the value of a
# policy that sets none of them: every match condition and action of
# MSFT_NetQosPolicySettingData (MSFT_NetQosPolicy.Types.ps1xml in the NetQos
# module), 'none' where unset; NetworkProfile All and Precedence 127, which
# New-NetQosPolicy gives a policy that names neither ("If this parameter is
# not specified, then the QoS policy will be effective when a computer is
# connected on any type of connection", "If not specified, then the default
# value is 127", New-NetQosPolicy). A policy of our name with one more
# condition (a destination prefix, a network profile) matches less traffic,
# and one more action (a DSCP mark, a throttle) changes it, so both differ.
$script:PolicyProperties = [ordered]@{
    NetworkProfile = 'All'; Precedence = '127'
    TemplateMatchCondition = 'none'; UserMatchCondition = 'none'; AppPathNameMatchCondition = 'none'
    JobObjectMatchCondition = 'none'; NetDirectPortMatchCondition = 'none'; IPProtocolMatchCondition = 'none'
    IPPortMatchCondition = 'none'; IPSrcPrefixMatchCondition = 'none'; IPSrcPortStartMatchCondition = 'none'
    IPSrcPortEndMatchCondition = 'none'; IPDstPrefixMatchCondition = 'none'; IPDstPortStartMatchCondition = 'none'
    IPDstPortEndMatchCondition = 'none'; URIMatchCondition = 'none'
    PriorityValue8021Action = 'none'; DSCPAction = 'none'; MinBandwidthWeightAction = 'none'; ThrottleRateAction = 'none'
}

# Get-PolicyValue returns one property of a NetQos policy as Get-NetQosPolicy
# prints it (enum names such as Default and TCP), or 'none' for a match
# condition or action the policy does not set. Unset is read from the CIM
# value, where Get-NetQosPolicy's own list view reads it: $null, empty, 0, and
# -1 for PriorityValue8021Action and DSCPAction, whose 0 is a priority and a
# DSCP (MSFT_NetQosPolicy.Format.ps1xml; Set-NetQosPolicy takes -1 for them).
# A property the host's Windows does not have reads as 'none'.
function Get-PolicyValue {
    param($Policy, [string]$Name)
    if ($Name -like '*MatchCondition' -or $Name -like '*Action') {
        $raw = $Policy.PSBase.CimInstanceProperties[$Name]
        $unset = '0'
        if ($Name -eq 'PriorityValue8021Action' -or $Name -eq 'DSCPAction') {
            $unset = '-1'
        }
        if ($null -eq $raw -or $null -eq $raw.Value -or "$($raw.Value)" -eq '' -or "$($raw.Value)" -eq $unset) {
            return 'none'
        }
    }
    return Format-Value $Policy.$Name
}

# Test-KeptClusterPolicy says whether a policy the model lacks is kept as
# the failover cluster's: one made with New-NetQosPolicy -Cluster (its
# ByCluster parameter set, template Cluster) whose priority, if it sets one,
# is not one of the model's lossless priorities, so it cannot move traffic
# into the lossless class. Used only when the model names no cluster class
# (host cluster_class): such a policy is then the administrator's.
function Test-KeptClusterPolicy {
    param($Policy, [int[]]$Lossless)
    if ((Get-PolicyValue $Policy 'TemplateMatchCondition') -ne 'Cluster') {
        return $false
    }
    $priority = Get-PolicyValue $Policy 'PriorityValue8021Action'
    return ($priority -eq 'none' -or $Lossless -notcontains [int]$priority)
}

# The port each built-in filter of New-NetQosPolicy the script uses
# matches ("Each of them matches a well-known TCP port", iSCSI (3260),
# New-NetQosPolicy). Microsoft shows a template policy read back as the
# template alone, with no IPProtocol or IPPort ("Template : SMB",
# New-NetQosPolicy Examples 1 and 5, Get-NetQosPolicy Example 1), so -Check
# expects Template iSCSI; no public capture shows a -iSCSI policy read
# back, so one that reads back as the port the filter matches (IPProtocol
# TCP, IPPort 3260, with or without the template) is taken as the same
# policy, not made again on every run.
$script:TemplatePorts = @{
    iSCSI = [ordered]@{ IPProtocolMatchCondition = 'TCP'; IPPortMatchCondition = '3260' }
}

# Get-ReadBackForm returns what Compare-Policy expects of a policy:
# $Intended, or, where $Intended names a template of $script:TemplatePorts
# and the policy holds that template's port, $Intended with the port, and
# with no template where the policy has none.
function Get-ReadBackForm {
    param($Policy, [System.Collections.IDictionary]$Intended)
    if (-not $Intended.Contains('TemplateMatchCondition')) {
        return $Intended
    }
    $ports = $script:TemplatePorts[$Intended['TemplateMatchCondition']]
    if ($null -eq $ports) {
        return $Intended
    }
    foreach ($key in $ports.Keys) {
        if ((Get-PolicyValue $Policy $key) -ne $ports[$key]) {
            return $Intended
        }
    }
    $form = [ordered]@{}
    foreach ($key in $Intended.Keys) {
        $form[$key] = $Intended[$key]
    }
    foreach ($key in $ports.Keys) {
        $form[$key] = $ports[$key]
    }
    if ((Get-PolicyValue $Policy 'TemplateMatchCondition') -eq 'none') {
        $form['TemplateMatchCondition'] = 'none'
    }
    return $form
}

# Compare-Policy compares every property of $script:PolicyProperties of one
# NetQos policy with its intended value: the one given (in the form the
# policy reads back in, Get-ReadBackForm), else the unset one.
function Compare-Policy {
    param([string]$Target, $Policy, [System.Collections.IDictionary]$Intended)
    if ($null -eq $Policy) {
        return (Compare-State $Target 'presence' 'present' 'absent')
    }
    $Intended = Get-ReadBackForm $Policy $Intended
    $differs = $false
    foreach ($key in $script:PolicyProperties.Keys) {
        $want = $script:PolicyProperties[$key]
        if ($Intended.Contains($key)) {
            $want = $Intended[$key]
        }
        if (Compare-State $Target $key $want (Get-PolicyValue $Policy $key)) {
            $differs = $true
        }
    }
    return $differs
}

# Get-Keyword returns the value of an adapter's advanced property by
# registry keyword, hidden ones included, or 'absent'. RegistryValue is a
# string array (MSFT_NetAdapterAdvancedPropertySettingData, "string
# RegistryValue[]"), printed joined. The keyword is matched exactly, not
# through -RegistryKeyword: that parameter of Get-NetAdapterAdvancedProperty
# is a wildcard pattern (its Example 3, -RegistryKeyword "*", gets every
# property), so a standardized keyword, which starts with '*', would also
# select every keyword ending in the rest of its name, values that
# Set-NetAdapterAdvancedProperty, matching exactly, would never change.
function Get-Keyword {
    param([string]$Adapter, [string]$Keyword)
    $property = @(Get-NetAdapterAdvancedProperty -Name $Adapter -AllProperties -ErrorAction SilentlyContinue | Where-Object { $_.RegistryKeyword -eq $Keyword })
    if ($property.Count -eq 0) {
        return 'absent'
    }
    return Format-Value $property[0].RegistryValue
}

# Set-Keyword sets an advanced property by registry keyword, creating it
# as a string (REG_SZ) value when the driver has not written it: some keys
# exist only once set (the WinOF DSCP keys "must be set manually and will
# be added to the miniport registry", WinOF User Manual 5.50 §4.1.11.7).
# A standardized keyword (one starting with *) or VlanID is never created:
# the drivers of physical adapters list them (WinOF-2 User Manual 1.21
# §3.4, WinOF User Manual 5.50 §4.6), so an adapter without one is not the
# adapter the model describes, and a value written there would do nothing
# while -Check read it back as a match.
# Both cmdlets restart the adapter unless given -NoRestart ("Indicates that
# the cmdlet does not restart the network adapter after completing the
# operation", Set-NetAdapterAdvancedProperty and
# New-NetAdapterAdvancedProperty); the step that calls Set-Keyword queues
# the adapter for the restarts at the end.
function Set-Keyword {
    param([string]$Adapter, [string]$Keyword, [string]$Value)
    if ((Get-Keyword $Adapter $Keyword) -eq 'absent') {
        if ($Keyword -like '[*]*' -or $Keyword -eq 'VlanID') {
            throw ("fabricc: adapter '{0}' has no {1} advanced property, which a physical Ethernet adapter's driver has; it is another kind of adapter (a Hyper-V or team adapter?). Describe the physical RDMA adapter in the fabric." -f $Adapter, $Keyword)
        }
        New-NetAdapterAdvancedProperty -Name $Adapter -RegistryKeyword $Keyword -RegistryValue $Value -RegistryDataType REG_SZ -NoRestart | Out-Null
    } else {
        Set-NetAdapterAdvancedProperty -Name $Adapter -RegistryKeyword $Keyword -RegistryValue $Value -AllProperties -NoRestart
    }
}

# Get-IpMtu returns the IP MTU Windows runs on an adapter, NlMtu of its
# IPv4 or IPv6 interface (Get-NetIPInterface), or 'absent'.
function Get-IpMtu {
    param([string]$Adapter, [string]$Family)
    $interface = @(Get-NetIPInterface -InterfaceAlias $Adapter -AddressFamily $Family -ErrorAction SilentlyContinue)
    if ($interface.Count -eq 0) {
        return 'absent'
    }
    return Format-Value $interface[0].NlMtu
}

# Wait-IpMtu reads the IP MTU after an adapter restart, giving the driver up
# to 10 seconds to report the model's MTU (at once when it already does).
function Wait-IpMtu {
    param([string]$Adapter, [string]$Family, [string]$Mtu)
    $actual = Get-IpMtu $Adapter $Family
    for ($i = 0; $i -lt 10 -and $actual -ne $Mtu; $i++) {
        Start-Sleep -Seconds 1
        $actual = Get-IpMtu $Adapter $Family
    }
    return $actual
}

# Select-JumboPacket returns the *JumboPacket an adapter should have: the
# frame size, MTU + 14, unless the adapter already has *JumboPacket equal
# to the MTU and Windows runs that MTU on it: a driver that counts the frame
# without the Ethernet header, which the repair after the restart set, and
# which is then kept rather than changed back on every run.
function Select-JumboPacket {
    param([string]$Adapter, [string]$Family, [string]$Mtu, [string]$Frame)
    if ((Get-Keyword $Adapter '*JumboPacket') -eq $Mtu -and (Get-IpMtu $Adapter $Family) -eq $Mtu) {
        return $Mtu
    }
    return $Frame
}

# Get-IpMtuAdvice says what an IP MTU that differs from the model's means:
# NlMtu equal to *JumboPacket means the driver counts the frame without
# the Ethernet header, so *JumboPacket must be the MTU itself.
function Get-IpMtuAdvice {
    param([string]$Adapter, [string]$Mtu, [string]$Actual)
    if ($Actual -eq 'absent') {
        return 'the adapter has no IP interface of that family, so the IP MTU could not be read.'
    }
    $jumbo = Get-Keyword $Adapter '*JumboPacket'
    if ($Actual -eq $jumbo) {
        return ("NlMtu {0} equals *JumboPacket {1}: the driver counts the frame without the Ethernet header; set *JumboPacket to {2}, the MTU (a run without -Check does)." -f $Actual, $jumbo, $Mtu)
    }
    return ("NlMtu {0} with *JumboPacket {1} is not the driver's frame counting; check the IP interface (Set-NetIPInterface -NlMtuBytes sets the IP MTU by hand) and the adapter's *JumboPacket." -f $Actual, $jumbo)
}

# Compare-IpMtu compares, under -Check, the IP MTU Windows runs on an
# adapter with the model's MTU: a DIFF line with both values, then the fix.
function Compare-IpMtu {
    param([string]$Adapter, [string]$Family, [string]$Mtu, [string]$Actual)
    if ($Actual -eq 'absent') {
        Write-Warning ("fabricc: adapter '{0}' has no {1} interface, so the IP MTU Windows runs (NlMtu) was not compared with the model's {2}." -f $Adapter, $Family, $Mtu)
        return $false
    }
    if (-not (Compare-State $Adapter ('IP MTU (NlMtu, ' + $Family + ')') $Mtu $Actual)) {
        return $false
    }
    Write-Host ('  fix: ' + (Get-IpMtuAdvice $Adapter $Mtu $Actual))
    return $true
}

# Get-Display returns an adapter's advanced property by display name, as
# Device Manager shows it, or 'absent'.
function Get-Display {
    param([string]$Adapter, [string]$DisplayName)
    $property = Get-NetAdapterAdvancedProperty -Name $Adapter -DisplayName $DisplayName -ErrorAction SilentlyContinue
    if ($null -eq $property) {
        return 'absent'
    }
    return Format-Value $property.DisplayValue
}

# Get-RegistryDword returns a driver-wide registry value, or 'absent'.
function Get-RegistryDword {
    param([string]$Path, [string]$Name)
    $item = Get-ItemProperty -Path $Path -Name $Name -ErrorAction SilentlyContinue
    if ($null -eq $item) {
        return 'absent'
    }
    return Format-Value $item.$Name
}

# Set-RegistryDword writes a driver-wide DWORD, creating the key if needed.
function Set-RegistryDword {
    param([string]$Path, [string]$Name, [int]$Value)
    if (-not (Test-Path -Path $Path)) {
        New-Item -Path $Path -Force | Out-Null
    }
    New-ItemProperty -Path $Path -Name $Name -Value $Value -PropertyType DWord -Force | Out-Null
}

# Restart-AdapterAndWait restarts one adapter ("restarts a network adapter
# by disabling and then re-enabling" it, Microsoft, Restart-NetAdapter) and
# waits up to 60 seconds for it to come back: Status Up (Get-NetAdapter),
# then, where SMB is installed, its interface RDMA-capable to the SMB client
# (Get-SmbClientNetworkInterface, RdmaCapable). It returns $false, with a
# warning, when the adapter did not come back, so the caller restarts no
# other adapter: on a node with two RDMA paths one always stays up.
function Restart-AdapterAndWait {
    param([string]$Adapter)
    Write-Host ('fabricc: restarting adapter {0}' -f $Adapter)
    Restart-NetAdapter -Name $Adapter
    $smb = $null -ne (Get-Command -Name Get-SmbClientNetworkInterface -ErrorAction SilentlyContinue)
    for ($i = 0; $i -lt 60; $i++) {
        $state = Get-NetAdapter -Name $Adapter -ErrorAction SilentlyContinue
        if ($state -and "$($state.Status)" -eq 'Up') {
            if (-not $smb) {
                return $true
            }
            $rdma = @(Get-SmbClientNetworkInterface -ErrorAction SilentlyContinue | Where-Object { $_.InterfaceIndex -eq $state.ifIndex -and $_.RdmaCapable })
            if ($rdma.Count -gt 0) {
                return $true
            }
        }
        Start-Sleep -Seconds 1
    }
    Write-Warning ("fabricc: adapter '{0}' is not Up with RDMA 60 seconds after its restart; no further adapter is restarted. Check it (Get-NetAdapter, Get-SmbClientNetworkInterface), then run the script again." -f $Adapter)
    return $false
}

# Compare-AdapterQos compares, under -Check, what the adapter runs with
# the model: Get-NetAdapterQos gets "the operational traffic class and flow
# control configurations" of an adapter with QoS enabled, which need not be
# the host's NetQos settings ("The traffic classes are not necessarily
# configured as-is on a network adapter", Get-NetQosTrafficClass). They are
# read from OperationalSettings (MSFT_NetAdapterQosSettingData), an
# MSFT_NetAdapter_QosSettings: PriorityFlowControlEnableArray (PFC per
# priority), PriorityAssignmentTable (the traffic class of each priority)
# and BandwidthAssignmentTable (each traffic class's bandwidth).
# $Bandwidth maps a priority to the ETS bandwidth its class should get.
function Compare-AdapterQos {
    param([string]$Adapter, [string]$Pfc, [System.Collections.IDictionary]$Bandwidth)
    $qos = Get-NetAdapterQos -Name $Adapter -ErrorAction SilentlyContinue
    if (-not $qos -or -not $qos.Enabled) {
        return $false
    }
    $ops = $qos.OperationalSettings
    if ($null -eq $ops -or $null -eq $ops.PriorityFlowControlEnableArray) {
        Write-Warning ("fabricc: adapter '{0}' reports no operational QoS (Get-NetAdapterQos OperationalSettings); what it runs was not compared." -f $Adapter)
        return $false
    }
    $on = @()
    for ($p = 0; $p -lt 8; $p++) {
        if ($ops.PriorityFlowControlEnableArray[$p]) {
            $on += $p
        }
    }
    $actual = 'none'
    if ($on.Count -gt 0) {
        $actual = $on -join ','
    }
    $differs = Compare-State $Adapter 'operational PFC priorities (Get-NetAdapterQos)' $Pfc $actual
    foreach ($p in $Bandwidth.Keys) {
        $tc = $ops.PriorityAssignmentTable[[int]$p]
        $bw = Format-Value $ops.BandwidthAssignmentTable[[int]$tc]
        if (Compare-State $Adapter ('operational bandwidth of priority ' + $p + ' (Get-NetAdapterQos)') $Bandwidth[$p] $bw) {
            $differs = $true
        }
    }
    return $differs
}
`
