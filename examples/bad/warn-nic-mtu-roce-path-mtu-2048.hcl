# Mistake: gpu1's NIC has MTU 4096 ("RoCE MTU is 4096"), but RoCE takes
# 96 B of headers off the MTU before picking its path MTU, so it runs at
# 2048 B (a warning); MTU 4192 or more gives 4096 B.
fabric "bad" {}

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
    mtu       = 4096
    vlan      = 100
    addresses = ["10.0.0.1/24"]
  }
}

link {
  a      = "leaf1:swp1"
  b      = "gpu1:roce0"
  length = 3
}
