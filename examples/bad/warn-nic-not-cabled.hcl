# Mistake: gpu1's second NIC has a speed but no link block (a warning: its
# speed, MTU, VLAN and PFC are checked against no switch port).
fabric "bad" {}

qos {
  headroom { lossless_mtu = 4096 } # the RoCE path MTU of MTU 9000 hosts
}

vlan "rdma" {
  id = 100
}

switch "leaf1" {
  platform = "cumulus"
  model    = "SN2410"

  port "swp1" {
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
    addresses = ["10.0.0.1/24"]
  }

  nic "roce1" {
    model     = "ConnectX-5"
    interface = "ens1f1"
    speed     = "25G"
    vlan      = 100
    addresses = ["10.0.1.1/24"]
  }
}

link {
  a      = "leaf1:swp1"
  b      = "gpu1:roce0"
  length = 3
}
