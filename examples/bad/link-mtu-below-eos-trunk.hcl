# Mistake: the Onyx end of a trunk to an EOS switch has mtu 9000, below
# the EOS end's 9214. EOS bridges frames whatever its mtu (its mtu is the
# Layer 3 MTU), so the Onyx port drops the larger packets; the two
# platforms' defaults (9214 and 9216) would be fine on a trunk.
fabric "bad" {
  accept "priority-3-may-be-taken-by-fcoe" {
    reason = "the 7050CX3 runs no FCoE here"
  }
}

qos {
  profile = "nvidia-roce"
  headroom { lossless_mtu = 4096 } # the RoCE path MTU of MTU 9000 hosts
}

vlan "rdma" {
  id = 100
}

switch "spine1" {
  platform   = "eos"
  os_version = "4.32.2F"
  model      = "7050CX3-32S"

  port "Ethernet1/1" {
    speed = "100G"
    mode  = "trunk"
    vlans = [100]
    trust = "dscp"
  }
}

switch "leaf1" {
  platform   = "onyx"
  os_version = "3.9.1014"
  model      = "SN2700"

  port "1/1" {
    speed = "100G"
    mtu   = 9216
    mode  = "access"
    vlans = [100]
    trust = "dscp"
  }

  port "1/32" {
    speed = "100G"
    mtu   = 9000
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
    addresses = ["10.0.0.1/24"]
  }
}

link {
  a      = "leaf1:1/1"
  b      = "gpu1:roce0"
  length = 3
}

link {
  a      = "leaf1:1/32"
  b      = "spine1:Ethernet1/1"
  length = 10
}
