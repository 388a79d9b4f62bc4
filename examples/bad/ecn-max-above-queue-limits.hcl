# Mistake: an ECN maximum above the lossless queue limit of every switch;
# the SN2410 leaves and the SN3700 spine each have their own limit.
fabric "bad" {}

qos {
  profile = "nvidia-roce"
  headroom { lossless_mtu = 4096 } # the RoCE path MTU of MTU 9000 hosts

  class "roce" {
    ecn {
      max = "100MB"
    }
  }
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

  port "swp49" {
    speed = "100G"
    mode  = "trunk"
    vlans = [100]
  }
}

switch "leaf2" {
  platform = "cumulus"
  model    = "SN2410"

  port "swp49" {
    speed = "100G"
    mode  = "trunk"
    vlans = [100]
  }
}

switch "spine1" {
  platform = "cumulus"
  model    = "SN3700"

  port "swp1-2" {
    speed = "100G"
    mode  = "trunk"
    vlans = [100]
  }
}

host "gpu1" {
  os = "linux"

  nic "roce0" {
    model     = "ConnectX-5"
    interface = "ens1f0"
    addresses = ["10.0.0.1/24"]
  }
}

link {
  a      = "leaf1:swp1"
  b      = "gpu1:roce0"
  length = 2
}

link {
  a      = "leaf1:swp49"
  b      = "spine1:swp1"
  length = 3
}

link {
  a      = "leaf2:swp49"
  b      = "spine1:swp2"
  length = 3
}
