# Mistake: a Linux NIC names RoCE LAG's bond0 as its interface; a bond has
# no PFC, trust or ETS of its own, and fabricc does not configure bonds (a
# warning: the host script stops at a bond master).
fabric "bad" {}

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

host "node1" {
  os = "linux"

  nic "p0" {
    model     = "ConnectX-6 Dx"
    driver    = "mlnx_ofed"
    interface = "bond0"
    addresses = ["10.0.100.11/24"]
  }
}

link {
  a      = "leaf1:swp1"
  b      = "node1:p0"
  length = 2
}
