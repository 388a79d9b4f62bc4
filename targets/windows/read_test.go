package windows

import (
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// These tests check how the script reads the host's state and compares it
// with the model. No PowerShell runs here, so where the behaviour is
// Windows' own the test checks the rendered text against the documented
// type and value, and simulates the comparison from the rendered text.

// TestKeywordReadExactly checks that Get-Keyword matches the registry
// keyword exactly: -RegistryKeyword of Get-NetAdapterAdvancedProperty is a
// wildcard pattern (Microsoft's Example 3: -RegistryKeyword "*" gets every
// property; RegularQuery AllowGlobbing="true" in
// MSFT_NetAdapterAdvancedProperty.cmdletDefinition.cdxml), so
// '*JumboPacket' would also select any keyword ending in JumboPacket, whose
// value Set-NetAdapterAdvancedProperty (AllowGlobbing="false") never
// changes: a DIFF on every run.
func TestKeywordReadExactly(t *testing.T) {
	s := render(t, workstation())
	assertLines(t, s, []string{
		"function Get-Keyword {",
		"$property = @(Get-NetAdapterAdvancedProperty -Name $Adapter -AllProperties -ErrorAction SilentlyContinue | Where-Object { $_.RegistryKeyword -eq $Keyword })",
		"if ($property.Count -eq 0) {",
		"return 'absent'",
		"return Format-Value $property[0].RegistryValue",
	})
	assertAbsent(t, s, []string{"-RegistryKeyword $Keyword -AllProperties"})
}

// psPairs parses the entries of a PowerShell hashtable literal body of the
// form Key = 'value', separated by ";" or new lines.
var psPair = regexp.MustCompile(`([A-Za-z0-9]+) = '((?:[^']|'')*)'`)

// orderedPairs returns the keys and values of the entries in text, in order.
func orderedPairs(text string) (keys []string, values map[string]string) {
	values = map[string]string{}
	for _, m := range psPair.FindAllStringSubmatch(text, -1) {
		keys = append(keys, m[1])
		values[m[1]] = strings.ReplaceAll(m[2], "''", "'")
	}
	return keys, values
}

// policyDefaults parses $script:PolicyProperties of the prelude: the
// properties Compare-Policy reads and a policy's value when it sets none.
func policyDefaults(t *testing.T, s string) ([]string, map[string]string) {
	t.Helper()
	start := strings.Index(s, "$script:PolicyProperties = [ordered]@{")
	if start < 0 {
		t.Fatal("the script has no $script:PolicyProperties: a policy's other match conditions and actions are not compared")
	}
	end := strings.Index(s[start:], "\n}\n")
	return orderedPairs(s[start : start+end])
}

// newPolicyState is what New-NetQosPolicy leaves for the arguments of one
// rendered New-NetQosPolicy line: the unset defaults with the conditions
// and actions the arguments set, under the CIM property each parameter
// writes (MSFT_NetQosPolicy.cdxml: -Default is the Default template,
// -Cluster the Cluster template).
func newPolicyState(t *testing.T, line string, defaults map[string]string) map[string]string {
	t.Helper()
	state := map[string]string{}
	for k, v := range defaults {
		state[k] = v
	}
	f := strings.Fields(line)
	for i := 0; i < len(f); i++ {
		switch f[i] {
		case "New-NetQosPolicy", "|", "Out-Null":
		case "-Name":
			i++
		case "-Default":
			state["TemplateMatchCondition"] = "Default"
		case "-Cluster":
			state["TemplateMatchCondition"] = "Cluster"
		case "-NetDirectPortMatchCondition", "-IPProtocolMatchCondition", "-PriorityValue8021Action", "-DSCPAction":
			state[strings.TrimPrefix(f[i], "-")] = f[i+1]
			i++
		default:
			t.Fatalf("New-NetQosPolicy argument %q not simulated: %s", f[i], line)
		}
	}
	return state
}

// comparePolicy simulates Compare-Policy: every property of defaults, the
// intended value where given, else the unset one; it returns the DIFFs.
func comparePolicy(keys []string, defaults, intended, actual map[string]string) []string {
	var diffs []string
	for _, k := range keys {
		want, ok := intended[k]
		if !ok {
			want = defaults[k]
		}
		// Compare-State: -eq on two strings, which ignores case.
		if !strings.EqualFold(want, actual[k]) {
			diffs = append(diffs, k+": intended "+want+", actual "+actual[k])
		}
	}
	return diffs
}

// TestPolicyReadComparesEveryCondition simulates -Check over each rendered
// policy: a host where New-NetQosPolicy made the policy from the script's
// own arguments shows no DIFF; one property changed, one condition added
// (a destination prefix), one action added (a DSCP mark) or the network
// profile narrowed shows exactly one DIFF. The old script compared only
// the properties the policy sets, so a same-named policy that also matched
// on a prefix or a Domain profile, leaving RDMA traffic untagged, was "in
// sync".
func TestPolicyReadComparesEveryCondition(t *testing.T) {
	pcp := fcNode1()
	for i := range pcp.NICs {
		pcp.NICs[i].RoCE.Trust = model.TrustPCP
	}
	cf, ch := withCluster(fcNode1())
	scripts := map[string]string{"fc-node1 with cluster_class": renderFabric(t, cf, ch)}
	for _, h := range []model.Host{fcNode1(), workstation(), qlogicHost(), pcp} {
		scripts[h.Name+" "+string(h.NICs[0].RoCE.Trust)] = render(t, h)
	}
	for _, name := range slices.Sorted(maps.Keys(scripts)) {
		s, h := scripts[name], struct{ Name string }{name}
		keys, defaults := policyDefaults(t, s)
		for _, want := range []string{"NetworkProfile", "Precedence", "TemplateMatchCondition", "NetDirectPortMatchCondition",
			"IPProtocolMatchCondition", "IPDstPrefixMatchCondition", "AppPathNameMatchCondition", "UserMatchCondition",
			"PriorityValue8021Action", "DSCPAction", "MinBandwidthWeightAction", "ThrottleRateAction"} {
			if _, ok := defaults[want]; !ok {
				t.Errorf("%s: $script:PolicyProperties lacks %s", h.Name, want)
			}
		}
		compare := regexp.MustCompile(`^if \(\(Compare-Policy 'QoS policy ([^']+)' \$policy \(\[ordered\]@\{ (.*) \}\)\) -and -not \$Check\) \{$`)
		ls := lines(s)
		n := 0
		for i, l := range ls {
			m := compare.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			n++
			name := m[1]
			_, intended := orderedPairs(m[2])
			for k := range intended {
				if _, ok := defaults[k]; !ok {
					t.Errorf("%s policy %s: intended %s is not one of the compared properties", h.Name, name, k)
				}
			}
			newLine := ""
			for _, l2 := range ls[i:] {
				if strings.HasPrefix(l2, "New-NetQosPolicy -Name '"+name+"' ") {
					newLine = l2
					break
				}
			}
			if newLine == "" {
				t.Fatalf("%s: no New-NetQosPolicy for %s", h.Name, name)
			}
			host := newPolicyState(t, newLine, defaults)
			if d := comparePolicy(keys, defaults, intended, host); len(d) != 0 {
				t.Errorf("%s policy %s as New-NetQosPolicy made it: DIFF %v, want none", h.Name, name, d)
			}
			for _, change := range []struct{ key, value string }{
				{"PriorityValue8021Action", "6"},
				{"IPDstPrefixMatchCondition", "10.0.0.0/8"},
				{"NetworkProfile", "Domain"},
				{"ThrottleRateAction", "1000000"},
				{"AppPathNameMatchCondition", "app.exe"},
			} {
				changed := map[string]string{}
				for k, v := range host {
					changed[k] = v
				}
				changed[change.key] = change.value
				if d := comparePolicy(keys, defaults, intended, changed); len(d) != 1 {
					t.Errorf("%s policy %s with %s = %s: DIFF %v, want exactly one", h.Name, name, change.key, change.value, d)
				}
			}
			if _, marks := intended["DSCPAction"]; !marks {
				changed := map[string]string{}
				for k, v := range host {
					changed[k] = v
				}
				changed["DSCPAction"] = "46"
				if d := comparePolicy(keys, defaults, intended, changed); len(d) != 1 {
					t.Errorf("%s policy %s with a DSCP mark: DIFF %v, want exactly one", h.Name, name, d)
				}
			}
		}
		if n < 4 {
			t.Errorf("%s: %d policies compared with Compare-Policy, want 4", h.Name, n)
		}
	}
}

// TestPolicyUnsetValues checks how Get-PolicyValue tells an unset condition
// or action from a set one: from the CIM value, as Get-NetQosPolicy's list
// view does (MSFT_NetQosPolicy.Format.ps1xml: shown when not $null and not
// 0, not -1 for PriorityValue8021Action and DSCPAction), because the
// ScriptProperties of MSFT_NetQosPolicy.Types.ps1xml cast $null to 0
// ([System.SByte]) and to the empty string ([System.String]), so priority 0
// and DSCP 0 would read as unset; and that NetworkProfile and Precedence
// are compared as printed.
func TestPolicyUnsetValues(t *testing.T) {
	s := render(t, fcNode1())
	assertLines(t, s, []string{
		"function Get-PolicyValue {",
		"if ($Name -like '*MatchCondition' -or $Name -like '*Action') {",
		"$raw = $Policy.PSBase.CimInstanceProperties[$Name]",
		"$unset = '0'",
		"if ($Name -eq 'PriorityValue8021Action' -or $Name -eq 'DSCPAction') {",
		"$unset = '-1'",
		"if ($null -eq $raw -or $null -eq $raw.Value -or \"$($raw.Value)\" -eq '' -or \"$($raw.Value)\" -eq $unset) {",
		"return 'none'",
		"return Format-Value $Policy.$Name",
	})
	_, defaults := policyDefaults(t, s)
	if defaults["NetworkProfile"] != "All" || defaults["Precedence"] != "127" {
		t.Errorf("NetworkProfile %q, Precedence %q; New-NetQosPolicy makes All and 127", defaults["NetworkProfile"], defaults["Precedence"])
	}
}

// TestTrafficClassReadByExactName checks that a model class is read and
// replaced by its exact name: -Name of the DcbQos cmdlets is a wildcard
// pattern, so a class named "bulk[1]" would not find itself and "bulk*"
// would find others (the [Default] class was already read this way).
func TestTrafficClassReadByExactName(t *testing.T) {
	f := fixture(fcNode1())
	f.QoS.Classes[1].Name = "roce*[1]?"
	files, err := Render(f, &f.Hosts[0])
	if err != nil {
		t.Fatal(err)
	}
	s := string(files[0].Data)
	assertLines(t, s, []string{
		"$class = Get-NetQosTrafficClass | Where-Object { $_.Name -eq 'roce*[1]?' }",
		"if ($class) { $class | Remove-NetQosTrafficClass -Confirm:$false }",
		"New-NetQosTrafficClass -Name 'roce*[1]?' -Priority 3 -Algorithm ETS -BandwidthPercentage 50 | Out-Null",
	})
	assertAbsent(t, s, []string{"Get-NetQosTrafficClass -Name", "Remove-NetQosTrafficClass -Name"})
}

// TestForeignRemovedByObject checks that a policy or class not in the model
// is removed as the object Get- returned, not by a -Name that would read
// its name ("*", "r*") as a pattern and remove ours, or try [Default].
func TestForeignRemovedByObject(t *testing.T) {
	s := render(t, fcNode1())
	assertLines(t, s, []string{
		"foreach ($stale in @(Get-NetQosPolicy | Where-Object { $ours -notcontains $_.Name -and \"$($_.Owner)\" -notlike 'Group Policy*' -and -not (Test-KeptClusterPolicy $_ $lossless) })) {",
		"$stale | Remove-NetQosPolicy -Confirm:$false",
		"foreach ($stale in @(Get-NetQosTrafficClass | Where-Object { $ours -notcontains $_.Name })) {",
		"$stale | Remove-NetQosTrafficClass -Confirm:$false",
	})
	assertAbsent(t, s, []string{"-Name $stale.Name"})
}

// TestClassPrioritiesCompareSorted checks that a traffic class's Priority,
// a byte array (MSFT_NetQosTrafficClassSettingData: uint8 Priority[]),
// is compared in ascending order, as the model writes it: Windows
// documents no order for the array it returns.
func TestClassPrioritiesCompareSorted(t *testing.T) {
	f := fixture(fcNode1())
	f.QoS.Classes[1].Priorities = []int{3, 4}
	f.QoS.Classes[0].Priorities = []int{0, 1, 2, 5, 7}
	for i := range f.Hosts[0].NICs {
		f.Hosts[0].NICs[i].RoCE.ETS = nil
	}
	files, err := Render(f, &f.Hosts[0])
	if err != nil {
		t.Fatal(err)
	}
	assertLines(t, string(files[0].Data), []string{
		"function Compare-Properties {",
		"$value = $Object.$key",
		"if ($null -ne $value) {",
		"$value = @($value | Sort-Object)",
		"if (Compare-State $Target $key $Intended[$key] (Format-Value $value)) {",
		"if ((Compare-Properties 'traffic class roce' $class ([ordered]@{ Algorithm = 'ETS'; BandwidthPercentage = '50'; Priority = '3,4' })) -and -not $Check) {",
	})
}

// TestAddressesCompareAsIPAddress checks that addresses are compared as
// [ipaddress] values: IPAddress of MSFT_NetIPAddress is Windows' own text,
// and an IPv6 address has more than one text form (2001:db8:0:0:1:0:0:1,
// 2001:db8::1:0:0:1), so a text compare could remove the model's own
// address and add it back on every run.
func TestAddressesCompareAsIPAddress(t *testing.T) {
	h := workstation()
	h.NICs[0].Addresses = []string{"10.20.0.10/24", "2001:db8:0:0:1:0:0:1/64"}
	s := render(t, h)
	assertLines(t, s, []string{
		"foreach ($extra in @(Get-NetIPAddress -InterfaceAlias 'Ethernet 3' -ErrorAction SilentlyContinue | Where-Object { @('Manual', 'Dhcp') -contains \"$($_.PrefixOrigin)\" -and @([ipaddress]'10.20.0.10', [ipaddress]'2001:db8::1:0:0:1') -notcontains [ipaddress]$_.IPAddress })) {",
		"$extra | Remove-NetIPAddress -Confirm:$false",
		"$address = Get-NetIPAddress -InterfaceAlias 'Ethernet 3' -ErrorAction SilentlyContinue | Where-Object { [ipaddress]$_.IPAddress -eq [ipaddress]'10.20.0.10' }",
		"if ($address) { $address | Remove-NetIPAddress -Confirm:$false }",
		"$address = Get-NetIPAddress -InterfaceAlias 'Ethernet 3' -ErrorAction SilentlyContinue | Where-Object { [ipaddress]$_.IPAddress -eq [ipaddress]'2001:db8::1:0:0:1' }",
		"New-NetIPAddress -InterfaceAlias 'Ethernet 3' -IPAddress '2001:db8::1:0:0:1' -PrefixLength 64 | Out-Null",
	})
	assertAbsent(t, s, []string{"-IPAddress $extra.IPAddress", "Get-NetIPAddress -InterfaceAlias 'Ethernet 3' -IPAddress"})
}

// TestAdapterWildcardRefused checks that the target itself refuses an
// adapter name the NetAdapter cmdlets would read as a wildcard pattern
// (Get-NetAdapter -Name "E*2" gets adapters starting with E and ending in
// 2, Microsoft's Get-NetAdapter example), whatever validated the model.
func TestAdapterWildcardRefused(t *testing.T) {
	for _, name := range []string{"Ethernet*", "Ethernet [2]", "Ethernet ?"} {
		h := workstation()
		h.NICs[0].Interface = name
		f := fixture(h)
		_, err := Render(f, &f.Hosts[0])
		if err == nil || !strings.Contains(err.Error(), "wildcards") {
			t.Errorf("interface %q: error %v, want one about wildcards", name, err)
		}
	}
}

// TestPolicyNamesAreLiteral checks that no policy name the script reads
// with Get-NetQosPolicy -Name, a wildcard pattern (AllowGlobbing="true" on
// Name in MSFT_NetQosPolicy.cdxml), holds a wildcard character.
func TestPolicyNamesAreLiteral(t *testing.T) {
	names := []string{"DEFAULT", "TCP", "UDP"}
	for _, n := range appPolicyNames {
		names = append(names, n)
	}
	for _, n := range names {
		if strings.ContainsAny(n, adapterWildcards) {
			t.Errorf("policy name %q holds a wildcard character", n)
		}
	}
	assertLines(t, render(t, fcNode1()), []string{"$policy = Get-NetQosPolicy -Name 'SMB' -ErrorAction SilentlyContinue"})
}
