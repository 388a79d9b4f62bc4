# Mistake: EOS names the 400G QSFP-DD ports of a 7280CR3-32D4 by their first lane, Ethernet33/1, not Ethernet33.
fabric "bad" {}

qos {
  profile = "nvidia-roce"
}

vlan "rdma" {
  id = 100
}

switch "leaf1" {
  platform = "eos"
  model    = "7280CR3-32D4"

  port "Ethernet33-34" {
    speed = "400G"
    mtu   = 9214
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
  a      = "leaf1:Ethernet33/1"
  b      = "gpu1:roce0"
  length = 3
}

link {
  a      = "leaf1:Ethernet34/1"
  b      = "gpu2:roce0"
  length = 3
}
