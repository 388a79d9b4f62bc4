# Mistake: a RoCE v1 NIC without a vlan, so its switch port (trust pcp, the
# default toward RoCE v1) finds no PCP in its untagged frames.
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
    roce_mode = "v1"
    addresses = ["10.0.0.1/24"]
  }
}

link {
  a      = "leaf1:swp1"
  b      = "gpu1:roce0"
  length = 2
}
