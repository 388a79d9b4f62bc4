# Mistake: gpu1's NIC on a routed port has a /24 and a gateway outside it
# (10.9.9.1 is in no subnet of the NIC, so it is no next hop on the link).
# The error alone says so: there is no "without a gateway" warning beside
# it, since a gateway is written.
fabric "bad" {}

qos {
  headroom { lossless_mtu = 4096 } # the RoCE path MTU of MTU 9000 hosts
}

switch "leaf1" {
  platform = "cumulus"
  model    = "SN2410"

  port "swp1" {
    speed = "25G"
    mode  = "routed"
  }
}

host "gpu1" {
  os = "linux"

  nic "roce0" {
    model     = "ConnectX-5"
    interface = "ens1f0"
    addresses = ["192.168.10.11/24"]
    gateway   = "10.9.9.1"
  }
}

link {
  a      = "leaf1:swp1"
  b      = "gpu1:roce0"
  length = 3
}
