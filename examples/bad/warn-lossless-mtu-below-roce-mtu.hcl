# Mistake: gpu1's NIC has MTU 4200, so RoCE runs at a path MTU of 4096 B
# (the largest of 256-4096 not above 4200 less 96 B of RoCE headers), but
# the headroom is written for SONiC's lossless_mtu of 1024 B: every
# lossless port facing it gets about 3 KiB too little headroom (a
# warning). Without the headroom block each port would take its NIC's
# RoCE path MTU and nothing would warn.
fabric "bad" {}

qos {
  headroom { lossless_mtu = 1024 }
}

vlan "rdma" {
  id = 100
}

switch "leaf1" {
  platform = "cumulus"
  model    = "SN2410"

  port "swp1" {
    speed = "25G"
    mtu   = 9216
    vlans = [100]
  }
}

host "gpu1" {
  os = "linux"

  nic "roce0" {
    model     = "ConnectX-5"
    interface = "ens1f0"
    speed     = "25G"
    mtu       = 4200
    vlan      = 100
    addresses = ["10.0.0.1/24"]
  }
}

link {
  a      = "leaf1:swp1"
  b      = "gpu1:roce0"
  length = 3
}
