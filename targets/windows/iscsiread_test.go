package windows

import (
	"regexp"
	"strings"
	"testing"
)

// templatePorts parses $script:TemplatePorts of the prelude: the port
// each built-in filter matches, by template.
func templatePorts(t *testing.T, s string) map[string]map[string]string {
	t.Helper()
	start := strings.Index(s, "$script:TemplatePorts = @{")
	if start < 0 {
		t.Fatal("the script has no $script:TemplatePorts: a -iSCSI policy read back as its port is a DIFF on every run")
	}
	end := strings.Index(s[start:], "\n}\n")
	out := map[string]map[string]string{}
	entry := regexp.MustCompile(`(?m)^\s*([A-Za-z]+) = \[ordered\]@\{ (.*) \}$`)
	for _, m := range entry.FindAllStringSubmatch(s[start:start+end], -1) {
		_, out[m[1]] = orderedPairs(m[2])
	}
	return out
}

// readBackForm simulates Get-ReadBackForm: intended, or, where it names a
// template whose port the policy holds, intended with that port, and no
// template where the policy has none.
func readBackForm(intended map[string]string, ports map[string]map[string]string, actual map[string]string) map[string]string {
	p, ok := ports[intended["TemplateMatchCondition"]]
	if !ok {
		return intended
	}
	for k, v := range p {
		if !strings.EqualFold(actual[k], v) {
			return intended
		}
	}
	form := map[string]string{}
	for k, v := range intended {
		form[k] = v
	}
	for k, v := range p {
		form[k] = v
	}
	if actual["TemplateMatchCondition"] == "none" {
		form["TemplateMatchCondition"] = "none"
	}
	return form
}

// TestISCSIReadBack: -Check of the iSCSI policy, made with the built-in
// -iSCSI filter, finds no difference whether Get-NetQosPolicy gives it
// back as the template (Template iSCSI, as Microsoft shows the SMB and
// Default templates: New-NetQosPolicy Examples 1 and 5) or as the port
// the filter matches (IPProtocol TCP, IPPort 3260), with or without the
// template: no public capture shows which, and a form not compared would
// remove and re-create the policy on every run. Another port, protocol
// or priority, or no condition at all, is still a difference.
func TestISCSIReadBack(t *testing.T) {
	s := render(t, tcpStorageHost())
	assertLines(t, s, []string{
		"$script:TemplatePorts = @{",
		"iSCSI = [ordered]@{ IPProtocolMatchCondition = 'TCP'; IPPortMatchCondition = '3260' }",
		"function Get-ReadBackForm {",
		"$ports = $script:TemplatePorts[$Intended['TemplateMatchCondition']]",
		"if ((Get-PolicyValue $Policy $key) -ne $ports[$key]) {",
		"if ((Get-PolicyValue $Policy 'TemplateMatchCondition') -eq 'none') {",
		"$form['TemplateMatchCondition'] = 'none'",
		"function Compare-Policy {",
		"$Intended = Get-ReadBackForm $Policy $Intended",
		"foreach ($key in $script:PolicyProperties.Keys) {",
	})
	keys, defaults := policyDefaults(t, s)
	ports := templatePorts(t, s)
	m := regexp.MustCompile(`(?m)^if \(\(Compare-Policy 'QoS policy iSCSI' \$policy \(\[ordered\]@\{ (.*) \}\)\) -and -not \$Check\) \{$`).FindStringSubmatch(s)
	if m == nil {
		t.Fatal("no Compare-Policy of the iSCSI policy")
	}
	_, intended := orderedPairs(m[1])
	state := func(set map[string]string) map[string]string {
		out := map[string]string{}
		for k, v := range defaults {
			out[k] = v
		}
		out["PriorityValue8021Action"], out["DSCPAction"] = "3", "26"
		for k, v := range set {
			out[k] = v
		}
		return out
	}
	for _, c := range []struct {
		name  string
		set   map[string]string
		diffs int
	}{
		{"template alone", map[string]string{"TemplateMatchCondition": "iSCSI"}, 0},
		{"its port alone", map[string]string{"IPProtocolMatchCondition": "TCP", "IPPortMatchCondition": "3260"}, 0},
		{"template and port", map[string]string{"TemplateMatchCondition": "iSCSI", "IPProtocolMatchCondition": "TCP", "IPPortMatchCondition": "3260"}, 0},
		{"another port", map[string]string{"IPProtocolMatchCondition": "TCP", "IPPortMatchCondition": "3261"}, 3},
		{"UDP", map[string]string{"IPProtocolMatchCondition": "UDP", "IPPortMatchCondition": "3260"}, 3},
		{"no condition", nil, 1},
		{"template, another priority", map[string]string{"TemplateMatchCondition": "iSCSI", "PriorityValue8021Action": "6"}, 1},
		{"port, another priority", map[string]string{"IPProtocolMatchCondition": "TCP", "IPPortMatchCondition": "3260", "PriorityValue8021Action": "6"}, 1},
	} {
		actual := state(c.set)
		d := comparePolicy(keys, defaults, readBackForm(intended, ports, actual), actual)
		if len(d) != c.diffs {
			t.Errorf("%s: DIFF %v, want %d", c.name, d, c.diffs)
		}
	}
}
