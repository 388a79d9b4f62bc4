# Mistake: the VLAN interface ens1f0 names (interface.VID) is longer than
# Linux's 15 characters; vlan_interface would name it.
fabric "bad" {}

vlan "rdma" {
  id = 100
}

switch "leaf1" {
  platform = "cumulus"
  model    = "SN2410"

  port "swp1-4" {
    speed = "25G"
    vlans = [100]
  }
}

host "gpu1" {
  os = "linux"

  nic "roce0" {
    model     = "ConnectX-5"
    interface = "enp129s0f0np0"
    vlan      = 100
    addresses = ["10.0.0.3/24"]
  }
}

link {
  a      = "leaf1:swp1"
  b      = "gpu1:roce0"
  length = 3
}
