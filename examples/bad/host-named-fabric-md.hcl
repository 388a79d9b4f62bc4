# Mistake: a host is named "FABRIC.md", which on macOS and Windows (whose
# file systems ignore letter case) is the build folder's fabric.md.
fabric "bad" {}

vlan "rdma" {
  id = 100
}

switch "leaf1" {
  platform = "cumulus"
  model    = "SN2410"

  port "swp1" {
    speed = "25G"
    mode  = "access"
    vlans = [100]
  }
}

host "FABRIC.md" {
  os = "linux"

  nic "roce0" {
    model     = "ConnectX-6 Dx"
    interface = "ens1f0np0"
  }
}

link {
  a      = "leaf1:swp1"
  b      = "FABRIC.md:roce0"
  length = 3
}
