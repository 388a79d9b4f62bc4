# The fabric of docs/tutorial.md: one NVIDIA Cumulus Linux leaf and two
# Linux servers with ConnectX-6 Dx NICs, RoCEv2 in one VLAN.
fabric "tutorial" {
  description = "One Cumulus leaf, two RoCEv2 servers"
}

# NVIDIA's RoCE settings in one line: RoCE on DSCP 26 and priority 3,
# lossless (PFC) with ECN; congestion notifications (CNP) on DSCP 48 and
# priority 6; everything else lossy. docs/language.md lists every value.
qos {
  profile = "nvidia-roce"
}

vlan "rdma" {
  id = 10
}

switch "leaf1" {
  platform   = "cumulus"
  model      = "SN2100" # NVIDIA Spectrum, 16 x 100GbE
  os_version = "5.9.2"

  port "swp1-2" {
    speed = "100G"
    mtu   = 9216
    mode  = "access"
    vlans = [10]
  }
}

host "node1" {
  os = "linux"

  nic "roce0" {
    model     = "ConnectX-6 Dx"
    driver    = "mlnx_ofed"
    interface = "ens1f0np0"
    mtu       = 9000
    addresses = ["10.0.10.11/24"]
  }
}

host "node2" {
  os = "linux"

  nic "roce0" {
    model     = "ConnectX-6 Dx"
    driver    = "mlnx_ofed"
    interface = "ens1f0np0"
    mtu       = 9000
    addresses = ["10.0.10.12/24"]
  }
}

# One block per cable. The length, in metres, sets the PFC headroom of
# both ends.
link {
  a      = "leaf1:swp1"
  b      = "node1:roce0"
  length = 2
}

link {
  a      = "leaf1:swp2"
  b      = "node2:roce0"
  length = 3
}
