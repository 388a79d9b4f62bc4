# Mistake: the Windows node's mtu is 9014, the *JumboPacket frame size
# Windows guides give, but a nic's mtu is the IP MTU: the Linux target in
# the same subnet and VLAN runs 9000.
fabric "bad" {}

qos {
  profile = "nvidia-roce"
  headroom { lossless_mtu = 4096 } # the RoCE path MTU of MTU 9000 hosts
}

vlan "storage" {
  id = 10
}

switch "leaf1" {
  platform = "cumulus"
  model    = "SN2410"

  port "swp1-2" {
    speed = "25G"
    vlans = [10]
    trust = "pcp"
  }
}

host "s2d1" {
  os = "windows"

  nic "smb1" {
    model        = "ConnectX-5"
    interface    = "SLOT 3 Port 1"
    mtu          = 9014
    vlan         = 10
    trust        = "pcp"
    addresses    = ["10.10.0.11/24"]
    applications = ["smb-direct"]
  }
}

host "nvmet1" {
  os = "linux"

  nic "rdma0" {
    model        = "ConnectX-6 Dx"
    interface    = "ens1f0np0"
    mtu          = 9000
    vlan         = 10
    trust        = "pcp"
    addresses    = ["10.10.0.21/24"]
    applications = ["nvme-of"]
  }
}

link {
  a      = "leaf1:swp1"
  b      = "s2d1:smb1"
  length = 2
}

link {
  a      = "leaf1:swp2"
  b      = "nvmet1:rdma0"
  length = 2
}
