# Mistake: a dynamic link block takes cable lengths from a map, and one
# entry is 0. The error is at the one line every cable shares, so it
# names the cable it is about: leaf1:swp2 - gpu2:roce0.
fabric "bad" {}

qos {
  profile = "nvidia-roce"
}

vlan "rdma" {
  id = 100
}

locals {
  lengths = { gpu1 = 3, gpu2 = 0, gpu3 = 3, gpu4 = 5 }
}

switch "leaf1" {
  platform = "cumulus"
  model    = "SN2700"

  port "swp1-4" {
    speed = "100G"
    mtu   = 9216
    vlans = [100]
  }
}

dynamic "host" {
  for_each = local.lengths
  labels   = [host.key]
  content {
    os = "linux"

    nic "roce0" {
      model     = "ConnectX-5"
      interface = "ens1f0"
      mtu       = 9000
      vlan      = 100
      addresses = [format("10.0.0.%s/24", substr(host.key, 3, 1))]
    }
  }
}

dynamic "link" {
  for_each = local.lengths
  content {
    a      = format("leaf1:swp%s", substr(link.key, 3, 1))
    b      = format("%s:roce0", link.key)
    length = link.value
  }
}
