package platforms

import (
	"regexp"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/fabricc/fabricc/model"
)

type def struct {
	Default struct {
		Levels map[string]struct {
			Pattern string `yaml:"pattern"`
		} `yaml:"privilege-levels"`
	} `yaml:"default"`
}

func patterns(t *testing.T, p model.Platform) map[string]*regexp.Regexp {
	t.Helper()
	raw, err := Definition(p)
	if err != nil {
		t.Fatal(err)
	}
	var d def
	if err := yaml.Unmarshal(raw.([]byte), &d); err != nil {
		t.Fatal(err)
	}
	out := map[string]*regexp.Regexp{}
	for name, l := range d.Default.Levels {
		out[name] = regexp.MustCompile(l.Pattern)
	}
	return out
}

// TestPrompts checks each level matches its real prompts and no other
// level's (prompts from the Ansible mellanox.onyx terminal plugin, the HPE
// Cray CSM documentation and scrapligo's cumulus_linux.yaml).
func TestPrompts(t *testing.T) {
	for _, tc := range []struct {
		p      model.Platform
		prompt string
		level  string
	}{
		{model.PlatformOnyx, "switch-f66e1c [standalone: master] > ", "exec"},
		{model.PlatformOnyx, "sw-spine-001 [standalone: master] # ", "privilege-exec"},
		{model.PlatformOnyx, "mellanox.lan [standalone: master] (config interface ethernet 1/1) # ", "configuration"},
		{model.PlatformOnyx, "sw1 [mlag-vip-1: master] (config) # ", "configuration"},
		{model.PlatformOnyx, "sw1 #", "privilege-exec"},
		{model.PlatformCumulus, "cumulus@leaf01:mgmt:~$ ", "exec"},
		{model.PlatformCumulus, "cumulus@leaf01:~$ ", "exec"},
		{model.PlatformCumulus, "root@leaf01:~# ", "configuration"},
		{model.PlatformCumulus, "root@leaf01:mgmt:/tmp# ", "configuration"},
	} {
		for name, re := range patterns(t, tc.p) {
			got := re.MatchString("some output\n" + tc.prompt)
			if got != (name == tc.level) {
				t.Errorf("%s %q: level %s matched=%v", tc.p, tc.prompt, name, got)
			}
		}
	}
}

func TestUnknownPlatform(t *testing.T) {
	if _, err := Definition("ios"); err == nil {
		t.Error("want an error for an unknown platform")
	}
}

// TestConfigListing: EOS's and Onyx's configuration listings, and only
// they, are not read for "%" refusals; Cumulus has none.
func TestConfigListing(t *testing.T) {
	for _, tc := range []struct {
		p    model.Platform
		cmd  string
		want bool
	}{
		{model.PlatformEOS, "show running-config", true},
		{model.PlatformEOS, "show startup-config", true},
		{model.PlatformOnyx, "show running-config", true},
		{model.PlatformOnyx, "show startup-config", true},
		{model.PlatformEOS, "show running-config | json", false},
		{model.PlatformEOS, "interface Ethernet1/1", false},
		{model.PlatformOnyx, "show roce", false},
		{model.PlatformCumulus, "show running-config", false},
		{"junos", "show running-config", false},
	} {
		if got := ConfigListing(tc.p, tc.cmd); got != tc.want {
			t.Errorf("ConfigListing(%s, %q) = %v, want %v", tc.p, tc.cmd, got, tc.want)
		}
	}
}
