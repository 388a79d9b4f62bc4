# Mistake: the uplink carries VLAN 100 tagged on leaf1 (a trunk) but
# untagged on leaf2 (an access port).
fabric "bad" {}

vlan "rdma" {
  id = 100
}

switch "leaf1" {
  platform = "cumulus"
  model    = "SN2410"

  port "swp49" {
    speed = "100G"
    mode  = "trunk"
    vlans = [100]
  }
}

switch "leaf2" {
  platform = "onyx"
  model    = "SN2410"

  port "1/49" {
    speed = "100G"
    mode  = "access"
    vlans = [100]
  }
}

link {
  a      = "leaf1:swp49"
  b      = "leaf2:1/49"
  length = 3
}
