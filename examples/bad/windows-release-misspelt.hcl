# Mistake: os_version "2022r2" for Windows Server 2022 (there is no 2022
# R2); the suggestion is "2022", not the closer spelling "2012r2".
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
  os_version = "2022r2"

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
