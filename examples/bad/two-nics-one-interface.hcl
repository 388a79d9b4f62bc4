# Mistake: gpu1's two NICs name the same OS interface, ens1f0.
fabric "bad" {}

vlan "rdma" {
  id = 100
}

switch "leaf1" {
  platform = "cumulus"
  model    = "SN2410"

  port "swp1-4" {
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
    interface = "ens1f0"
    vlan      = 100
    addresses = ["10.0.1.1/24"]
  }
}

link {
  a      = "leaf1:swp1"
  b      = "gpu1:roce0"
  length = 3
}

link {
  a      = "leaf1:swp2"
  b      = "gpu1:roce1"
  length = 3
}
