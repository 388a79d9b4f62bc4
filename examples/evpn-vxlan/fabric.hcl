# Two NVIDIA Cumulus Linux leaves with routed uplinks to one spine, and a
# RoCEv2 VLAN that EVPN-VXLAN stretches between the leaves: the hosts of
# both racks share one subnet. The EVPN and BGP underlay configuration is
# the operator's; fabricc writes the lossless QoS, checks that the
# uplinks take the VXLAN packets, and makes the leaves copy the host's
# DSCP into the outer header.
fabric "evpn-vxlan" {
  description = "Two Cumulus leaves, one VLAN stretched by EVPN-VXLAN"
}

qos {
  profile = "nvidia-roce"
}

# overlay = "vxlan": the leaves are VTEPs for this VLAN. Its hosts are
# at MTU 9000, so the VXLAN packets are up to 9050 B on the uplinks.
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
