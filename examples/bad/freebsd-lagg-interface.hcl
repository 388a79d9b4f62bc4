# Mistake: a FreeBSD NIC names a lagg(4) interface; PFC, trust and ETS are
# each port's, and fabricc does not configure lagg, so driver_interface is
# no way out.
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
  os = "freebsd"

  nic "p0" {
    model            = "ConnectX-6 Dx"
    interface        = "lagg0"
    driver_interface = "mce0"
    addresses        = ["10.0.100.11/24"]
  }
}

link {
  a      = "leaf1:swp1"
  b      = "node1:p0"
  length = 2
}
