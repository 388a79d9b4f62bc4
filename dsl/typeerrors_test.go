package dsl

import (
	"os"
	"path/filepath"
	"testing"
)

// TestTypeErrorsNameTheAttribute pins the words of a wrong-typed value:
// the attribute, what it takes, and the advice for a quoted word where a
// number or a bool belongs. gohcl's own words named neither
// ("Unsuitable value: a number is required").
func TestTypeErrorsNameTheAttribute(t *testing.T) {
	const head = "fabric \"f\" {}\nqos {\n  profile = \"nvidia-roce\"\n}\n"
	for _, tc := range []struct {
		name, src, want string
		line, col       int
	}{
		{"quoted word for a number", `switch "s" {
  platform = "cumulus"
  model    = "SN2410"
  port "swp1" {
    speed = "25G"
    mtu   = "jumbo"
  }
}
`, `Inappropriate value for attribute "mtu": a number is required. "jumbo" is a quoted string; mtu is a number of bytes, written without quotes.`, 10, 14},
		{"quoted word for a bool", `switch "s" {
  platform = "cumulus"
  model    = "SN2410"
  port "swp1" {
    speed = "25G"
    pfc   = "yes"
  }
}
`, `Inappropriate value for attribute "pfc": a bool is required. "yes" is a quoted string; write true or false without quotes.`, 10, 14},
		{"variable of the wrong type", `variable "m" {
  default = "jumbo"
}
switch "s" {
  platform = "cumulus"
  model    = "SN2410"
  port "swp1" {
    speed = "25G"
    mtu   = var.m
  }
}
`, `Inappropriate value for attribute "mtu": a number is required.`, 13, 13},
		{"inside a dynamic block", `dynamic "link" {
  for_each = ["s:swp1"]
  content {
    a      = link.value
    b      = "h:n"
    length = "3m"
  }
}
`, `Inappropriate value for attribute "length": a number is required. "3m" is a quoted string; length is a number of metres, written without quotes: length = 3.`, 10, 15},
		{"a length in another unit", `link {
  a      = "s:swp1"
  b      = "h:n"
  length = "2 km"
}
`, `Inappropriate value for attribute "length": a number is required. "2 km" is a quoted string; length is a number of metres, written without quotes (e.g. length = 3).`, 8, 13},
		// Feet are converted: a cable sold as 6 ft is 1.83 m.
		{"a length in feet", `link {
  a      = "s:swp1"
  b      = "h:n"
  length = "6ft"
}
`, `Inappropriate value for attribute "length": a number is required. "6ft" is a quoted string; length is a number of metres, never feet (1 ft = 0.3048 m), written without quotes: length = 1.83 (6 ft).`, 8, 13},
		{"a length in feet with a space", `link {
  a      = "s:swp1"
  b      = "h:n"
  length = "6 ft"
}
`, `Inappropriate value for attribute "length": a number is required. "6 ft" is a quoted string; length is a number of metres, never feet (1 ft = 0.3048 m), written without quotes: length = 1.83 (6 ft).`, 8, 13},
		{"a length in feet spelt out", `link {
  a      = "s:swp1"
  b      = "h:n"
  length = "10 feet"
}
`, `Inappropriate value for attribute "length": a number is required. "10 feet" is a quoted string; length is a number of metres, never feet (1 ft = 0.3048 m), written without quotes: length = 3.05 (10 ft).`, 8, 13},
		{"a length beyond a float", `link {
  a      = "s:swp1"
  b      = "h:n"
  length = 1e400
}
`, `Inappropriate value for attribute "length": value must be between -1.8e+308 and 1.8e+308. length is a number of metres (e.g. length = 3).`, 8, 12},
		{"an MTU with its unit", `switch "s" {
  platform = "cumulus"
  model    = "SN2410"
  port "swp1" {
    speed = "25G"
    mtu   = "9000 B"
  }
}
`, `Inappropriate value for attribute "mtu": a number is required. "9000 B" is a quoted string; mtu is a number of bytes, written without quotes: mtu = 9000.`, 10, 14},
		{"an MTU that is not whole", `switch "s" {
  platform = "cumulus"
  model    = "SN2410"
  port "swp1" {
    speed = "25G"
    mtu   = 9000.5
  }
}
`, `Inappropriate value for attribute "mtu": value must be a whole number, between -9.2e+18 and 9.2e+18. mtu is a number of bytes.`, 10, 13},
		{"a quoted word for a number without a unit", `vlan "v" {
  id = "ten"
}
`, `Inappropriate value for attribute "id": a number is required. "ten" is a quoted string; write a number without quotes.`, 6, 9},
		{"one value for a list", `switch "s" {
  platform = "cumulus"
  model    = "SN2410"
  port "swp1" {
    speed = "25G"
    vlans = 100
  }
}
`, `Inappropriate value for attribute "vlans": list of number required, but have number. Write it in brackets, as a list of one: vlans = [100].`, 10, 13},
		{"a list for one value", `switch "s" {
  platform = "cumulus"
  model    = "SN2410"
  port "swp1" {
    speed       = "25G"
    description = ["a"]
  }
}
`, `Inappropriate value for attribute "description": string required, but have tuple.`, 10, 19},
	} {
		// The place is HCL's own: a quoted string starts inside its quotes.
		path := filepath.Join(t.TempDir(), "f.hcl")
		if err := os.WriteFile(path, []byte(head+tc.src), 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, diags := Load(path, Options{})
		if len(diags) != 1 {
			t.Errorf("%s: got %v, want one diagnostic", tc.name, diags)
			continue
		}
		d := diags[0]
		if d.Summary != "Incorrect attribute value type" || d.Detail != tc.want {
			t.Errorf("%s:\n got %q: %q\nwant %q: %q", tc.name, d.Summary, d.Detail, "Incorrect attribute value type", tc.want)
		}
		if d.Subject.Start.Line != tc.line || d.Subject.Start.Column != tc.col {
			t.Errorf("%s: at %d:%d, want %d:%d", tc.name, d.Subject.Start.Line, d.Subject.Start.Column, tc.line, tc.col)
		}
	}
}

// TestMissingLabelSaysWhatToWrite: a block without its label gets the
// line to write, not HCL's "All nic blocks must have 1 labels (name).".
func TestMissingLabelSaysWhatToWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.hcl")
	src := "fabric \"f\" {}\nhost \"h\" {\n  os = \"linux\"\n  nic {\n    model = \"ConnectX-5\"\n  }\n}\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, diags := Load(path, Options{})
	want := `A nic block takes its name as a label: nic "<name>" { ... }.`
	if len(diags) != 1 || diags[0].Summary != "Missing name for nic" || diags[0].Detail != want {
		t.Fatalf("got %v, want one diagnostic %q", diags, want)
	}
}
