# Mistake: VLAN 100 is stretched by EVPN-VXLAN (overlay = "vxlan") over
# a 3-tier underlay, leaf1 - spine1 - super1 - spine2 - leaf2. The
# leaves' uplinks take 9216, but the spines' links to the super-spine
# are at 9000: the hosts' 9000 B packets leave the VTEPs as 9050 B VXLAN
# packets (RFC 7348 §5), which super1 and the spines drop, two hops from
# either VTEP (VTEPs do not fragment, RFC 7348 §4.3).
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

  port "swp1" {
    speed = "100G"
    mtu   = 9216
    mode  = "routed"
  }
  port "swp32" {
    speed = "100G"
    mtu   = 9000
    mode  = "routed"
  }
}

switch "spine2" {
  platform   = "cumulus"
  model      = "SN3700"
  os_version = "5.9.2"

  port "swp1" {
    speed = "100G"
    mtu   = 9216
    mode  = "routed"
  }
  port "swp32" {
    speed = "100G"
    mtu   = 9000
    mode  = "routed"
  }
}

switch "super1" {
  platform   = "cumulus"
  model      = "SN3700"
  os_version = "5.9.2"

  port "swp1-2" {
    speed = "100G"
    mtu   = 9000
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
  b      = "spine2:swp1"
  length = 20
}

link {
  a      = "spine1:swp32"
  b      = "super1:swp1"
  length = 20
}

link {
  a      = "spine2:swp32"
  b      = "super1:swp2"
  length = 20
}
