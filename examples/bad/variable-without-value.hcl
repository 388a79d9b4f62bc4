# Mistake: variable uplink_range has no default and no value is given.
fabric "bad" {}

qos {
  profile = "nvidia-roce"
}

variable "uplink_range" {
  type        = string
  description = "Uplink ports, e.g. swp1-2"
}

switch "leaf1" {
  platform = "cumulus"
  model    = "SN2410"

  dynamic "port" {
    for_each = ports(var.uplink_range)
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
