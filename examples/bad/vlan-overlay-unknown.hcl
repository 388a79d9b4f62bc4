# Mistake: the overlay of VLAN 100 is written "evpn", the control plane,
# not "vxlan", the encapsulation fabricc checks the MTU of.
fabric "bad" {}

qos {
  profile = "nvidia-roce"
}

vlan "tenant" {
  id      = 100
  overlay = "evpn"
}

switch "leaf1" {
  platform   = "cumulus"
  model      = "SN3700"
  os_version = "5.9.2"

  port "swp1" {
    speed = "100G"
    mtu   = 9216
    mode  = "access"
    vlans = [100]
  }

  port "swp31" {
    speed = "100G"
    mtu   = 9216
    mode  = "routed"
  }
}

switch "leaf2" {
  platform   = "cumulus"
  model      = "SN3700"
  os_version = "5.9.2"

  port "swp1" {
    speed = "100G"
    mtu   = 9216
    mode  = "access"
    vlans = [100]
  }

  port "swp31" {
    speed = "100G"
    mtu   = 9216
    mode  = "routed"
  }
}

switch "spine1" {
  platform   = "cumulus"
  model      = "SN3700"
  os_version = "5.9.2"

  port "swp1-2" {
    speed = "100G"
    mtu   = 9216
    mode  = "routed"
  }
}

host "h1" {
  os = "linux"

  nic "roce0" {
    model     = "ConnectX-6 Dx"
    driver    = "mlnx_ofed"
    interface = "ens1f0np0"
    mtu       = 9000
    addresses = ["10.2.0.1/24"]
  }
}

host "h2" {
  os = "linux"

  nic "roce0" {
    model     = "ConnectX-6 Dx"
    driver    = "mlnx_ofed"
    interface = "ens1f0np0"
    mtu       = 9000
    addresses = ["10.2.0.2/24"]
  }
}

link {
  a      = "leaf1:swp1"
  b      = "h1:roce0"
  length = 2
}

link {
  a      = "leaf2:swp1"
  b      = "h2:roce0"
  length = 2
}

link {
  a      = "leaf1:swp31"
  b      = "spine1:swp1"
  length = 20
}

link {
  a      = "leaf2:swp31"
  b      = "spine1:swp2"
  length = 20
}
