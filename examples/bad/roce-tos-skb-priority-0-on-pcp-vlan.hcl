# Mistake: gpu1's NIC tags VLAN 100 on a port that trusts PCP and marks
# RoCE with DSCP 24 (ToS 98), which Linux gives skb priority 0, that of
# every ordinary socket: the VLAN egress map entry that gives RDMA-CM's
# RoCE the lossless PCP 3 gives it to all of the VLAN's TCP and ARP too.
fabric "bad" {}

qos {
  profile = "nvidia-roce"
}

vlan "rdma" {
  id = 100
}

switch "leaf1" {
  platform = "cumulus"
  model    = "SN2410"

  port "swp1" {
    speed = "25G"
    mode  = "trunk"
    vlans = [100]
    trust = "pcp"
  }
}

host "gpu1" {
  os = "linux"

  nic "roce0" {
    model     = "ConnectX-5"
    interface = "ens1f0"
    speed     = "25G"
    vlan      = 100
    trust     = "pcp"
    dscp      = 24
    addresses = ["10.0.0.1/24"]
  }
}

link {
  a      = "leaf1:swp1"
  b      = "gpu1:roce0"
  length = 3
}
