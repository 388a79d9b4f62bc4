# The base revision of the plan tests: one SN2700 leaf on Cumulus Linux
# with two RoCE hosts. Each test edits a copy of this file.
fabric "plan-test" {}

qos {
  profile = "nvidia-roce"
}

vlan "compute" {
  id = 10
}

switch "leaf1" {
  platform   = "cumulus"
  model      = "SN2700"
  os_version = "5.9.2"

  port "swp1" {
    speed = "100G"
    mtu   = 9216
    mode  = "access"
    vlans = [10]
  }

  port "swp2" {
    speed = "100G"
    mtu   = 9216
    mode  = "trunk"
    vlans = [10]
  }
}

host "h1" {
  os         = "linux"
  os_version = "ubuntu22.04"

  nic "roce0" {
    model     = "ConnectX-6 Dx"
    interface = "ens1f0np0"
    speed     = "100G"
    mtu       = 9000
    addresses = ["10.0.10.11/24"]
  }
}

host "h2" {
  os         = "linux"
  os_version = "ubuntu22.04"

  nic "roce0" {
    model     = "ConnectX-6 Dx"
    interface = "ens1f0np0"
    speed     = "100G"
    mtu       = 9000
    vlan      = 10
    addresses = ["10.0.10.12/24"]
  }
}

link {
  a      = "leaf1:swp1"
  b      = "h1:roce0"
  length = 3
}

link {
  a      = "leaf1:swp2"
  b      = "h2:roce0"
  length = 2
}
