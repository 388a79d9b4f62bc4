# Mistake: gpu1's NIC is cabled to a routed switch port but has no
# addresses (a warning: a routed port bridges nothing, so nothing can reach
# the NIC over RoCE v2).
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
  }
}

link {
  a      = "leaf1:swp1"
  b      = "gpu1:roce0"
  length = 3
}
