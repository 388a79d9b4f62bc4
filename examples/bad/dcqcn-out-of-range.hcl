# Mistake: a DCQCN parameter outside the range the NIC takes
# (rpg_min_dec_fac is a percentage, 1-100).
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
    driver    = "mlnx_ofed"
    interface = "ens1f0"
    vlan      = 100
    addresses = ["10.0.0.1/24"]
  }
}

link {
  a      = "leaf1:swp1"
  b      = "gpu1:roce0"
  length = 3
}

qos {
  profile = "nvidia-roce"

  dcqcn {
    rpg_min_dec_fac = 150
  }
}
