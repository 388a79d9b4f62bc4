# Mistake: two locals defined through each other (a circle).
fabric "bad" {}

qos {
  profile = "nvidia-roce"
}

locals {
  first_port = local.uplinks[0]
  uplinks    = ports(format("%s-2", local.first_port))
}

switch "leaf1" {
  platform = "cumulus"
  model    = "SN2410"

  dynamic "port" {
    for_each = local.uplinks
    labels   = [port.value]
    content {
      speed = "25G"
      mtu   = 9216
    }
  }
}

host "gpu1" {
  os = "linux"

  nic "roce0" {
    model     = "ConnectX-5"
    interface = "ens1f0"
    speed     = "25G"
    mtu       = 9000
    addresses = ["10.0.0.1/24"]
  }
}

link {
  a      = "leaf1:swp1"
  b      = "gpu1:roce0"
  length = 3
}
