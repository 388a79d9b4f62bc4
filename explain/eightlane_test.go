package explain

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// eightLaneFabric is an SN4700 whose 400G port runs 8 lanes of 50G, with
// a 100 m cable.
const eightLaneFabric = `fabric "t" {}
qos {
  profile = "nvidia-roce"
}
vlan "rdma" {
  id = 10
}
switch "sw" {
  platform   = "cumulus"
  model      = "SN4700"
  os_version = "5.9.2"
  port "swp1" {
    speed = "400G"
    mtu   = 9216
    mode  = "access"
    vlans = [10]
  }
}
host "node1" {
  os = "linux"
  nic "roce0" {
    model     = "ConnectX-7"
    driver    = "mlnx_ofed"
    interface = "ens1f0np0"
    speed     = "400G"
    mtu       = 9000
    addresses = ["10.0.10.11/24"]
  }
}
link {
  a      = "sw:swp1"
  b      = "node1:roce0"
  length = 100
}
`

// TestExplainEightLaneThreshold: on an 8-lane
// port the xoff-threshold line is SONiC's xon plus the 8-lane port MTU;
// explain shows that overhead as its own step with its source and ends
// with the number on the line, 38,912 + 9,216 = 48,128 B.
func TestExplainEightLaneThreshold(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "fabric.hcl"), []byte(eightLaneFabric), 0o644); err != nil {
		t.Fatal(err)
	}
	out := explainLineIn(t, dir, "sw/sw.nvue.sh", "xoff-threshold 48128")
	var steps []string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "SONiC xon") || strings.Contains(l, "8-lane overhead =") || strings.Contains(l, "SONiC size") || strings.Contains(l, "PAUSE threshold") {
			steps = append(steps, strings.Join(strings.Fields(l), " "))
		}
	}
	want := []string{
		"SONiC xon = 2 x pipeline latency (8 lanes), rounded up to 1 KiB 38,912 B",
		`8-lane overhead = port MTU (sonic-swss cfgmgr/buffer_headroom_mellanox.lua, speed_overhead on an 8-lane port; Linux mlxsw "spectrum: Adjust headroom buffers for 8x ports") 9,216 B`,
		"buffer (SONiC size) = in flight + SONiC xon + 8-lane overhead, rounded up to 1 KiB 408,576 B",
		"PAUSE threshold written = buffer - in flight = SONiC xon + 8-lane overhead 48,128 B",
	}
	if strings.Join(steps, "\n") != strings.Join(want, "\n") {
		t.Errorf("steps:\n%s\nwant:\n%s\nwhole:\n%s", strings.Join(steps, "\n"), strings.Join(want, "\n"), out)
	}
}
