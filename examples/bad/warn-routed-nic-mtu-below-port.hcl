# Mistake: gpu2 runs MTU 9000 on a routed port of 9216 (the default),
# while gpu1 runs 9216: leaf2 routes gpu1's packets of 9001-9216 B to
# gpu2, which drops them, and no ICMP "fragmentation needed" tells gpu1.
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
  }
}

switch "spine1" {
  platform = "cumulus"
  model    = "SN3700"

  port "swp1-2" {
    speed = "100G"
    mode  = "routed"
  }
}

host "gpu1" {
  os = "linux"

  nic "roce0" {
    model     = "ConnectX-6 Dx"
    interface = "ens1f0np0"
    mtu       = 9216
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
