# Mistake: "iSCSI" is not an application kind; storage over TCP is
# "iscsi" (port 3260) or "nvme-tcp" (port 4420), in lower case.
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
    applications = ["nvme-of", "iSCSI"]
  }
}

link {
  a      = "leaf1:swp1"
  b      = "stor1:roce0"
  length = 3
}
