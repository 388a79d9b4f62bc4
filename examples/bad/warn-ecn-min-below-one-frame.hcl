# Mistake (a warning): ECN thresholds written without a unit are bytes;
# min = "150" (150 B, below one 4096 B frame) was meant as 150 KB.
fabric "bad" {}

qos {
  profile = "nvidia-roce"
  headroom { lossless_mtu = 4096 } # the RoCE path MTU of MTU 9000 hosts

  class "roce" {
    ecn {
      min = "150"
      max = "1500"
    }
  }
}

vlan "rdma" {
  id = 100
}

switch "leaf1" {
  platform   = "cumulus"
  os_version = "5.9.1"
  model      = "SN2700"

  port "swp1-swp2" {
    speed = "100G"
    mtu   = 9216
    mode  = "trunk"
    vlans = [100]
    trust = "dscp"
  }
}

host "gpu1" {
  os = "linux"

  nic "roce0" {
    model     = "ConnectX-5"
    interface = "ens1f0"
    speed     = "100G"
    mtu       = 9000
    vlan      = 100
    addresses = ["10.0.0.1/24"]
  }
}

host "gpu2" {
  os = "linux"

  nic "roce0" {
    model     = "ConnectX-5"
    interface = "ens1f0"
    speed     = "100G"
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
