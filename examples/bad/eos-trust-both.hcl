# Mistake: trust = "both" on an Arista EOS port. EOS trusts DSCP or CoS
# (qos trust dscp | qos trust cos), never both at once, so the RoCE v1 NIC
# behind the port (no IP header, so no DSCP) would land in the port's
# default traffic class, which is lossy.
fabric "bad" {}

qos {
  profile = "nvidia-roce"
}

vlan "storage" {
  id = 100
}

switch "leaf" {
  platform = "eos"
  model    = "7050CX3-32S"

  port "Ethernet1/1" {
    speed = "100G"
    mode  = "trunk"
    vlans = [100]
    trust = "both"
  }
}

host "h1" {
  os = "linux"

  nic "roce0" {
    model     = "ConnectX-6 Dx"
    driver    = "mlnx_ofed"
    interface = "ens1f0np0"
    vlan      = 100
    roce_mode = "v1"
    trust     = "pcp"
    addresses = ["10.0.0.1/24"]
  }
}

link {
  a      = "leaf:Ethernet1/1"
  b      = "h1:roce0"
  length = 3
}
