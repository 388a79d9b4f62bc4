# Mistake: a VLAN interface name (vlan_interface) with a space, which Linux
# does not allow in an interface name.
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
    interface = "ens1f0"
    vlan      = 100
    vlan_interface = "vl 100"
    addresses = ["10.0.0.3/24"]
  }
}

link {
  a      = "leaf1:swp1"
  b      = "gpu1:roce0"
  length = 3
}
