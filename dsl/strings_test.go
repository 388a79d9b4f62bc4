package dsl

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// base is a fabric whose strings tests replace one at a time.
const stringsBase = `fabric "f" {
  description = {{DESC}}
}
vlan "v10" {
  id = 10
}
switch "{{SW}}" {
  platform   = "eos"
  model      = "7050CX3-32S"
  os_version = {{SWVER}}
  port "Ethernet1" {
    description = {{PORTDESC}}
  }
}
host "{{HOST}}" {
  os         = {{OS}}
  os_version = {{HOSTVER}}
  nic "{{NIC}}" {
    model     = "ConnectX-4"
    interface = {{IFACE}}
  }
}
`

// stringsFabric fills stringsBase: names are replaced as written, the
// other values are HCL expressions.
func stringsFabric(repl map[string]string) string {
	vals := map[string]string{
		"SW": "s1", "HOST": "h1", "NIC": "n1",
		"DESC": `"lab"`, "SWVER": `"4.32.2F"`, "PORTDESC": `"to h1"`, "HOSTVER": `"rhel9"`, "IFACE": `"ens1f0"`, "OS": `"linux"`,
	}
	for k, v := range repl {
		vals[k] = v
	}
	out := stringsBase
	for k, v := range vals {
		out = strings.ReplaceAll(out, "{{"+k+"}}", v)
	}
	return out
}

func TestStringRules(t *testing.T) {
	tests := []struct {
		name string
		repl map[string]string
		vars map[string]string
		want string
	}{
		{"clean", nil, nil, ""},
		{"newline in os_version", map[string]string{"SWVER": `"4.32\nhostname x"`}, nil,
			`a.hcl:10:16: error: Invalid character: os_version of switch "s1" "4.32\nhostname x" holds U+000A (line feed) at character 5. Generated scripts and switch configurations are read line by line, so a string may hold only printable characters and spaces; remove it.`},
		{"CR in a port description", map[string]string{"PORTDESC": `"a\rb"`}, nil,
			`a.hcl:12:19: error: Invalid character: description of port "Ethernet1" of switch "s1" "a\rb" holds U+000D (carriage return) at character 2. Generated scripts and switch configurations are read line by line, so a string may hold only printable characters and spaces; remove it.`},
		{"ESC from a variable", map[string]string{"DESC": `var.d`}, map[string]string{"d": "red\x1b[31m"},
			`a.hcl:2:17: error: Invalid character: fabric description "red\x1b[31m" holds U+001B (escape) at character 4. Generated scripts and switch configurations are read line by line, so a string may hold only printable characters and spaces; remove it.`},
		{"NUL", map[string]string{"IFACE": `"ens\u0000"`}, nil,
			`a.hcl:20:17: error: Invalid character: interface of nic "n1" of host "h1" "ens\x00" holds U+0000 (NUL) at character 4. Generated scripts and switch configurations are read line by line, so a string may hold only printable characters and spaces; remove it.`},
		{"line separator", map[string]string{"HOSTVER": `"9\u2028x"`}, nil,
			`a.hcl:17:16: error: Invalid character: os_version of host "h1" "9\u2028x" holds U+2028 (line separator) at character 2. Generated scripts and switch configurations are read line by line, so a string may hold only printable characters and spaces; remove it.`},
		{"bidi override", map[string]string{"DESC": `"a\u202eb"`}, nil,
			`a.hcl:2:17: error: Invalid character: fabric description "a\u202eb" holds U+202E (right-to-left override) at character 2. Generated scripts and switch configurations are read line by line, so a string may hold only printable characters and spaces; remove it.`},
		{"too long", map[string]string{"DESC": `"` + strings.Repeat("x", 1025) + `"`}, nil,
			`a.hcl:2:17: error: String too long: fabric description is 1025 characters long; strings in a fabric hold at most 1024. Shorten it.`},
		{"quote in a port description", map[string]string{"PORTDESC": `"say \"hi\""`}, nil,
			`a.hcl:12:19: error: Invalid description: description of port "Ethernet1" of switch "s1" "say \"hi\"" holds '"' at character 5, which a switch CLI reads as syntax (quote, escape, help or pipe). A port description becomes a line of the switch configuration; change it.`},
		{"unicode quote in a port description", map[string]string{"PORTDESC": `"it\u2019s"`}, nil,
			`a.hcl:12:19: error: Invalid description: description of port "Ethernet1" of switch "s1" "it’s" holds '’' (U+2019) at character 3; switch CLIs take printable ASCII only. A port description becomes a line of the switch configuration; change it.`},
		{"dot-dot switch", map[string]string{"SW": ".."}, nil,
			`a.hcl:7:8: error: Invalid switch name: switch name ".." starts with '.'; start with a letter or digit. A device name is the name of its artifact folder and files and a word in generated scripts and switch configurations; rename it.`},
		{"slash in a host name", map[string]string{"HOST": "a/b"}, nil,
			`a.hcl:15:6: error: Invalid host name: host name "a/b" holds '/' (U+002F) at character 2; use letters, digits, '-', '_' and '.'. A device name is the name of its artifact folder and files and a word in generated scripts and switch configurations; rename it.`},
		{"model.json", map[string]string{"HOST": "model.json"}, nil,
			`a.hcl:15:6: error: Invalid host name: host name "model.json" is reserved: it names a file of the build folder, or a device on Windows. A device name is the name of its artifact folder and files and a word in generated scripts and switch configurations; rename it.`},
		{"fabric.md in another case", map[string]string{"HOST": "FABRIC.md"}, nil,
			`a.hcl:15:6: error: Invalid host name: host name "FABRIC.md" is reserved: it names a file of the build folder, or a device on Windows. A device name is the name of its artifact folder and files and a word in generated scripts and switch configurations; rename it.`},
		{"windows device name", map[string]string{"SW": "Nul.cfg"}, nil,
			`a.hcl:7:8: error: Invalid switch name: switch name "Nul.cfg" is reserved: it names a file of the build folder, or a device on Windows. A device name is the name of its artifact folder and files and a word in generated scripts and switch configurations; rename it.`},
		{"host name ending in a period", map[string]string{"HOST": "leaf1."}, nil,
			`a.hcl:15:6: error: Invalid host name: host name "leaf1." ends in a period, which Windows drops from a folder name, so it would share the folder of the device without it. A device name is the name of its artifact folder and files and a word in generated scripts and switch configurations; rename it.`},
		{"empty nic name", map[string]string{"NIC": ""}, nil,
			`a.hcl:18:7: error: Invalid nic name: nic name of host "h1" "" is empty. Names are words in generated scripts and switch configurations; rename it.`},
		{"space in os_version", map[string]string{"HOSTVER": `"rhel 9"`}, nil,
			`a.hcl:17:16: error: Invalid os_version: os_version of host "h1" "rhel 9" holds a space at character 5; use letters, digits, '-', '_' and '.'. Write the release as the OS prints it, such as "4.32.2F", "5.9.2" or "2016".`},
		// A Windows host's os_version is one of a closed list: the fix is
		// that list, and the release a spelling means.
		{"space in a Windows os_version", map[string]string{"OS": `"windows"`, "HOSTVER": `"2022 R2"`}, nil,
			`a.hcl:17:16: error: Invalid os_version: os_version of host "h1" "2022 R2" holds a space at character 5; use letters, digits, '-', '_' and '.'. Write one of "2012r2", "2016", "2019", "2022", "2025", "21h2", "22h2" or "23h2" (Windows Server, or Azure Stack HCI by its version), lower case as shown. Did you mean "2022"?`},
		{"Windows Server 2012 R2 spelt out", map[string]string{"OS": `"windows"`, "HOSTVER": `"Windows Server 2012 R2"`}, nil,
			`a.hcl:17:16: error: Invalid os_version: os_version of host "h1" "Windows Server 2012 R2" holds a space at character 8; use letters, digits, '-', '_' and '.'. Write one of "2012r2", "2016", "2019", "2022", "2025", "21h2", "22h2" or "23h2" (Windows Server, or Azure Stack HCI by its version), lower case as shown. Did you mean "2012r2"?`},
		{"space in an older Windows os_version", map[string]string{"OS": `"windows"`, "HOSTVER": `"Server 2008"`}, nil,
			`a.hcl:17:16: error: Invalid os_version: os_version of host "h1" "Server 2008" holds a space at character 7; use letters, digits, '-', '_' and '.'. Write one of "2012r2", "2016", "2019", "2022", "2025", "21h2", "22h2" or "23h2" (Windows Server, or Azure Stack HCI by its version), lower case as shown.`},
		{"case-only duplicate devices", map[string]string{"SW": "leaf1", "HOST": "LEAF1"}, nil,
			"a.hcl:15:6: error: Device names differ only in case: Devices \"leaf1\" and \"LEAF1\" differ only in letter case; their artifact folders would be one folder on a case-insensitive file system (Windows, macOS). Rename one.\n  a.hcl:7:8: note: device \"leaf1\" is declared here"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := stringsFabric(tc.repl)
			var decl string
			for name := range tc.vars {
				decl += `variable "` + name + "\" {}\n"
			}
			dir := writeFabric(t, map[string]string{"a.hcl": src + decl})
			cfg, _, diags := Load(dir, Options{Vars: tc.vars})
			got := strings.TrimSpace(compact(t, dir, diags))
			if got != tc.want {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, tc.want)
			}
			if (cfg == nil) != (tc.want != "") {
				t.Errorf("config returned: %v, want one only without errors", cfg != nil)
			}
		})
	}
}

// TestStringErrorsInBlockOrder checks more hosts and links than one
// goroutine of checkPart takes, with bad strings in several chunks, and
// requires the errors in block order: the hosts' in host order, then
// the links'.
func TestStringErrorsInBlockOrder(t *testing.T) {
	at := func(line int) Range {
		return RangeOf(hcl.Range{Filename: "a.hcl", Start: hcl.Pos{Line: line, Column: 1, Byte: line}, End: hcl.Pos{Line: line, Column: 2, Byte: line + 1}})
	}
	n := 3*stringChunk + 7
	cfg := &Config{Hosts: make([]Host, n), Links: make([]Link, n)}
	var want []int
	for i := range cfg.Hosts {
		cfg.Hosts[i] = Host{Name: fmt.Sprintf("h%d", i), OS: "linux", LabelRange: at(1 + i)}
		if i%stringChunk == 5 || i == n-1 {
			cfg.Hosts[i].Name = fmt.Sprintf("h/%d", i)
			want = append(want, 1+i)
		}
	}
	for i := range cfg.Links {
		cfg.Links[i] = Link{A: "s:p", B: fmt.Sprintf("h%d:n", i), BRange: at(100000 + i)}
		if i%stringChunk == stringChunk-1 {
			cfg.Links[i].B = fmt.Sprintf("h%d:\n", i)
			want = append(want, 100000+i)
		}
	}
	diags := checkStrings(cfg, nil)
	var got []int
	for _, d := range diags {
		got = append(got, d.Subject.Start.Line)
	}
	if !slices.Equal(got, want) {
		t.Errorf("errors at lines %v, want %v", got, want)
	}
}
