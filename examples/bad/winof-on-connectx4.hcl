# Mistake: driver "winof" on a ConnectX-4 (WinOF supports ConnectX-3 only).
fabric "bad" {}

vlan "rdma" {
  id = 100
}

switch "leaf1" {
  platform = "cumulus"
  model    = "SN2410"

  port "swp1-4" {
    speed = "25G"
    vlans = [100]
  }
}

host "gpu1" {
  os = "windows"

  nic "roce0" {
    model     = "ConnectX-4"
    driver    = "winof"
    interface = "Ethernet 4"
    vlan      = 100
    addresses = ["10.0.0.1/24"]
  }
}

link {
  a      = "leaf1:swp1"
  b      = "gpu1:roce0"
  length = 3
}
