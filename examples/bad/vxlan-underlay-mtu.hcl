# Mistake: VLAN 100 is stretched by EVPN-VXLAN (overlay = "vxlan") and
# its hosts run MTU 9216, but VXLAN adds 50 B to each packet (RFC 7348
# §5) and the routed uplinks take at most 9216: every packet above 9166 B
# that crosses the leaves is dropped at the VTEP.
fabric "bad" {}

qos {
  profile = "nvidia-roce"
}

vlan "tenant" {
  id      = 100
  overlay = "vxlan"
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
    mtu       = 9216
    addresses = ["10.2.0.1/24"]
  }
}

host "h2" {
  os = "linux"

  nic "roce0" {
    model     = "ConnectX-6 Dx"
    driver    = "mlnx_ofed"
    interface = "ens1f0np0"
    mtu       = 9216
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
