# Mistake: the SN5600 (Spectrum-4) runs Cumulus Linux, not Onyx.
fabric "bad" {}

qos {
  profile = "nvidia-roce"
}

vlan "rdma" {
  id = 100
}

switch "leaf1" {
  platform   = "onyx"
  os_version = "3.9.1014"
  model      = "SN5600"

  port "1/1-1/2" {
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
    model     = "ConnectX-7"
    interface = "ens1f0"
    speed     = "400G"
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
    speed     = "400G"
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
