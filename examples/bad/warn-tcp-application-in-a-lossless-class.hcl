# Mistake (a warning): the NIC lists nvme-tcp, so the host tags NVMe/TCP
# with the NIC's class "roce", which is lossless: PFC pauses that TCP
# beside RoCE instead of dropping it, and TCP never slows down. Accept it
# only where the fabric is designed with TCP storage in the lossless class.
fabric "bad" {}

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

host "stor1" {
  os = "linux"

  nic "roce0" {
    model        = "ConnectX-5"
    interface    = "ens1f0"
    vlan         = 100
    addresses    = ["10.0.0.1/24"]
    applications = ["nvme-of", "nvme-tcp"]
  }
}

link {
  a      = "leaf1:swp1"
  b      = "stor1:roce0"
  length = 3
}
