# Mistake: the Windows host's port and NIC trust PCP, as the warning
# windows-roce-dscp-not-settable advises, but the leaf-to-leaf link still
# trusts DSCP: leaf2 classifies the Windows NIC's RoCE by the DSCP its
# WinOF-2 driver chose, which the script cannot set.
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

  port "swp1" {
    speed = "25G"
    vlans = [10]
    trust = "pcp"
  }

  port "swp49" {
    speed = "100G"
    vlans = [10]
  }
}

switch "leaf2" {
  platform = "cumulus"
  model    = "SN2410"

  port "swp1" {
    speed = "25G"
    vlans = [10]
  }

  port "swp49" {
    speed = "100G"
    vlans = [10]
  }
}

host "s2d1" {
  os = "windows"

  nic "smb1" {
    model        = "ConnectX-5"
    interface    = "SLOT 3 Port 1"
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
  a      = "leaf2:swp1"
  b      = "nvmet1:rdma0"
  length = 2
}

link {
  a      = "leaf1:swp49"
  b      = "leaf2:swp49"
  length = 3
}
