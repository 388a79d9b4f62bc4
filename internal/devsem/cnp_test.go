package devsem

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/fabricc/fabricc/compiler"
	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/targets/linux"
)

// ownCNPFabric has its own CNP class, DSCP 46 priority 5 (not the
// ConnectX default 48/6), and two Linux hosts cabled back to back: one
// with MLNX_OFED, one with the inbox mlx5 driver.
const ownCNPFabric = `
fabric "own-cnp" {}

qos {
  profile   = "none"
  cnp_class = "cnp"

  class "roce" {
    priority  = 3
    dscp      = [26]
    lossless  = true
    bandwidth = 50
    ecn {
      min = 150000
      max = 1500000
    }
  }

  class "cnp" {
    priority = 5
    dscp     = [46]
    strict   = true
  }

  class "rest" {
    priority  = 0
    default   = true
    bandwidth = 50
  }
}

host "ofed" {
  os = "linux"
  nic "roce0" {
    model     = "ConnectX-6 Dx"
    driver    = "mlnx_ofed"
    interface = "ens1f0np0"
    speed     = "100G"
    addresses = ["10.0.0.1/24"]
  }
}

host "inbox" {
  os = "linux"
  nic "roce0" {
    model     = "ConnectX-5"
    driver    = "inbox"
    interface = "ens2f0np0"
    speed     = "100G"
    addresses = ["10.0.0.2/24"]
  }
}

link {
  a      = "ofed:roce0"
  b      = "inbox:roce0"
  length = 1
}
`

// TestOwnCNPClass: with a CNP class of DSCP 46 priority 5, both NICs mark
// their CNPs 46/5 once their scripts have run; a script that writes
// nothing leaves them at the firmware's 48/6, in another class.
func TestOwnCNPClass(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not installed")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "fabric.hcl")
	if err := os.WriteFile(path, []byte(ownCNPFabric), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, _, diags := dsl.Load(path, dsl.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	f, diags := compiler.Compile(cfg)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	for _, tc := range []struct{ host, dev string }{
		{"ofed", "ens1f0np0"},
		{"inbox", "pci-device-of-ens2f0np0"}, // the dry run's stand-in for the PCI device
	} {
		t.Run(tc.host, func(t *testing.T) {
			h := f.Host(tc.host)
			files, err := linux.Render(f, h)
			if err != nil {
				t.Fatal(err)
			}
			script := filepath.Join(dir, tc.host+".sh")
			if err := os.WriteFile(script, files[0].Data, 0o755); err != nil {
				t.Fatal(err)
			}
			got := dryRunCNP(t, script).Of(tc.dev)
			if want := (CNP{DSCP: 46, Priority: 5}); got != want {
				t.Errorf("CNPs marked %+v; the fabric's CNP class is %+v", got, want)
			}
		})
	}
}
