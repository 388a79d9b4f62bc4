# Mistake: gpu1's ConnectX-4 Lx (at most 50G) is linked to a 400G port and takes its speed.
fabric "bad" {}

qos {
  profile = "nvidia-roce"
}

vlan "rdma" {
  id = 100
}

switch "leaf1" {
  platform = "cumulus"
  model    = "SN5600"

  port "swp1-2" {
    speed = "400G"
    mtu   = 9216
    mode  = "trunk"
    vlans = [100]
    trust = "dscp"
  }
}

host "gpu1" {
  os = "linux"

  nic "roce0" {
    model     = "ConnectX-4 Lx"
    interface = "ens1f0"
    mtu       = 9000
    vlan      = 100
    addresses = ["10.0.0.1/24"]
  }
}

host "gpu2" {
  os = "linux"

  nic "roce0" {
    model     = "ConnectX-7"
    interface = "ens1f0"
    mtu       = 9000
    vlan      = 100
    addresses = ["10.0.0.2/24"]
  }
}

link {
  a      = "leaf1:swp1"
  b      = "gpu1:roce0"
  length = 3
}

link {
  a      = "leaf1:swp2"
  b      = "gpu2:roce0"
  length = 3
}
