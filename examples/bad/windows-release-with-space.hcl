# Mistake: os_version "2022 R2" on a Windows host: a space, and a Windows
# release is one of a closed list, which the error gives.
fabric "bad" {}

vlan "rdma" {
  id = 100
}

switch "leaf1" {
  platform = "cumulus"
  model    = "SN2410"

  port "swp1" {
    speed = "25G"
    vlans = [100]
    trust = "pcp"
  }
}

host "win1" {
  os         = "windows"
  os_version = "2022 R2"

  nic "roce0" {
    model     = "ConnectX-4 Lx"
    interface = "Ethernet 4"
    vlan      = 100
    trust     = "pcp"
    addresses = ["10.0.0.1/24"]
  }
}

link {
  a      = "leaf1:swp1"
  b      = "win1:roce0"
  length = 3
}
