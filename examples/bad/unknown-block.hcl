# Mistake: a misspelt block type (swtich for switch).
fabric "bad" {}

qos {
  profile = "nvidia-roce"
}

swtich "leaf1" {
  platform = "cumulus"
  model    = "SN2410"

  port "swp1-2" {
    speed = "25G"
    mtu   = 9216
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
