# Mistake: a Windows host's WinOF-2 NIC faces a port that trusts DSCP (the
# default), but the Windows script cannot set the DSCP of its RoCE packets.
fabric "bad" {}

qos {
  profile = "nvidia-roce"
  headroom { lossless_mtu = 4096 } # the RoCE path MTU of MTU 9000 hosts
}

vlan "rdma" {
  id = 100
}

switch "leaf1" {
  platform = "cumulus"
  model    = "SN2410"

  port "swp1" {
    speed = "25G"
    vlans = [100]
  }
}

host "win1" {
  os = "windows"

  nic "roce0" {
    model     = "ConnectX-4 Lx"
    interface = "Ethernet 4"
    vlan      = 100
    addresses = ["10.0.0.1/24"]
  }
}

link {
  a      = "leaf1:swp1"
  b      = "win1:roce0"
  length = 3
}
