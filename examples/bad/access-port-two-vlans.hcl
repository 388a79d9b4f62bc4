# Mistake: the access ports swp1-2 list two VLANs; an access port carries one.
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

  port "swp1-2" {
    speed = "25G"
    mode  = "access"
    vlans = [100, 200]
  }
}
