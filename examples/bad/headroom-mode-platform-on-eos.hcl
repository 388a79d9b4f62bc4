# Mistake: headroom mode "platform" on an EOS switch whose MMU queue
# profile fabricc writes with the headroom bytes (Trident3).
fabric "bad" {}

qos {
  headroom {
    mode = "platform"
  }
}

vlan "rdma" {
  id = 100
}

switch "leaf1" {
  platform = "eos"
  model    = "7050CX3-32S"

  port "Ethernet1/1" {
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
}

link {
  a      = "leaf1:Ethernet1/1"
  b      = "gpu1:roce0"
  length = 3
}
