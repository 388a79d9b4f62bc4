# Mistake: the uplink trunk has native_vlan 100 on leaf1 only, so leaf1
# sends VLAN 100 untagged and leaf2 sends it tagged.
fabric "bad" {}

vlan "rdma" {
  id = 100
}

vlan "storage" {
  id = 200
}

switch "leaf1" {
  platform = "cumulus"
  model    = "SN2410"

  port "swp49" {
    speed       = "100G"
    mode        = "trunk"
    vlans       = [100, 200]
    native_vlan = 100
  }
}

switch "leaf2" {
  platform = "onyx"
  model    = "SN2410"

  port "1/49" {
    speed = "100G"
    mode  = "trunk"
    vlans = [100, 200]
  }
}

link {
  a      = "leaf1:swp49"
  b      = "leaf2:1/49"
  length = 3
}
