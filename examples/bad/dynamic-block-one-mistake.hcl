# Mistake: one line of a dynamic host block sets MTU 9500 on four NICs
# whose switch ports take 9216; it is one mistake, reported once.
fabric "bad" {}

qos {
  profile = "nvidia-roce"
  headroom { lossless_mtu = 4096 } # the RoCE path MTU of MTU 9000 hosts
}

vlan "rdma" {
  id = 100
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
  for_each = range(1, 5)
  labels   = [format("gpu%d", host.value)]
  content {
    os = "linux"

    nic "roce0" {
      model     = "ConnectX-5"
      interface = "ens1f0"
      mtu       = 9500
      vlan      = 100
      addresses = [format("10.0.0.%d/24", host.value)]
    }
  }
}

dynamic "link" {
  for_each = range(1, 5)
  content {
    a      = format("leaf1:swp%d", link.value)
    b      = format("gpu%d:roce0", link.value)
    length = 3
  }
}
