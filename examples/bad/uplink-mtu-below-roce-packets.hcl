# Mistake: the routed leaf-spine links have mtu = 4096 ("RoCE MTU 4096"),
# but the hosts' MTU of 9000 gives a RoCE path MTU of 4096 B, whose RoCE
# packets are up to 4192 B: the uplinks drop every full-size RoCE packet.
fabric "bad" {}

qos {
  profile = "nvidia-roce"
}

switch "leaf1" {
  platform = "cumulus"
  model    = "SN3700"

  port "swp1" {
    speed = "100G"
    mode  = "routed"
  }
  port "swp31" {
    speed = "100G"
    mode  = "routed"
    mtu   = 4096
  }
}

switch "leaf2" {
  platform = "cumulus"
  model    = "SN3700"

  port "swp1" {
    speed = "100G"
    mode  = "routed"
  }
  port "swp31" {
    speed = "100G"
    mode  = "routed"
    mtu   = 4096
  }
}

switch "spine1" {
  platform = "cumulus"
  model    = "SN3700"

  port "swp1-2" {
    speed = "100G"
    mode  = "routed"
    mtu   = 4096
  }
}

host "gpu1" {
  os = "linux"

  nic "roce0" {
    model     = "ConnectX-6 Dx"
    interface = "ens1f0np0"
    mtu       = 9000
    addresses = ["10.1.0.1/31"]
  }
}

host "gpu2" {
  os = "linux"

  nic "roce0" {
    model     = "ConnectX-6 Dx"
    interface = "ens1f0np0"
    mtu       = 9000
    addresses = ["10.1.0.3/31"]
  }
}

link {
  a      = "leaf1:swp1"
  b      = "gpu1:roce0"
  length = 2
}

link {
  a      = "leaf2:swp1"
  b      = "gpu2:roce0"
  length = 2
}

link {
  a      = "leaf1:swp31"
  b      = "spine1:swp1"
  length = 20
  cable  = "fibre"
}

link {
  a      = "leaf2:swp31"
  b      = "spine1:swp2"
  length = 20
  cable  = "fibre"
}
