# Mistake: ECN min 150000 B is below max 150500 B, but Onyx takes the
# thresholds in KB rounded up: 147 KB to 147 KB, an empty marking ramp.
fabric "bad" {}

qos {
  profile = "nvidia-roce"
  headroom { lossless_mtu = 4096 } # the RoCE path MTU of MTU 9000 hosts

  class "roce" {
    ecn {
      min = "150000"
      max = "150500"
    }
  }
}

vlan "rdma" {
  id = 100
}

switch "leaf1" {
  platform   = "onyx"
  os_version = "3.9.1014"
  model      = "SN2700"

  port "1/1-1/2" {
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
  a      = "leaf1:1/1"
  b      = "gpu1:roce0"
  length = 3
}

link {
  a      = "leaf1:1/2"
  b      = "gpu2:roce0"
  length = 3
}
