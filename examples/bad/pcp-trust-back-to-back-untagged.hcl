# Mistake: two NICs cabled back to back, both trust = "pcp" and neither has
# a vlan: their untagged frames carry no PCP, so RoCE lands in priority 0.
fabric "bad" {}

qos {
  profile = "nvidia-roce"
}

host "a" {
  os = "linux"

  nic "roce0" {
    model     = "ConnectX-5"
    interface = "ens1f0"
    speed     = "100G"
    trust     = "pcp"
    addresses = ["10.0.0.1/24"]
  }
}

host "b" {
  os = "linux"

  nic "roce0" {
    model     = "ConnectX-5"
    interface = "ens1f0"
    speed     = "100G"
    trust     = "pcp"
    addresses = ["10.0.0.2/24"]
  }
}

link {
  a      = "a:roce0"
  b      = "b:roce0"
  length = 3
}
