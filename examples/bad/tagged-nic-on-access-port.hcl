# Mistake: a NIC that tags VLAN 100 on an access port, which sends VLAN 100
# untagged.
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
  model    = "SN2410"

  port "swp1" {
    speed = "25G"
    mode  = "access"
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
}

link {
  a      = "leaf1:swp1"
  b      = "gpu1:roce0"
  length = 2
}
