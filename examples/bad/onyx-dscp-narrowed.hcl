# Mistake: class "roce" narrows its DSCP to 26, so DSCP 24, 25 and 27-31
# fall to class "default"; an Onyx switch classifies DSCP with its default
# map (a block of eight per priority), which puts them in priority 3, the
# roce class. The error points at the dscp that was written.
fabric "onyx-dscp" {}

qos {
  profile = "nvidia-roce"
  headroom { lossless_mtu = 4096 } # the RoCE path MTU of MTU 9000 hosts
  class "roce" {
    dscp = [26]
  }
}

vlan "rdma" {
  id = 100
}

switch "leaf1" {
  platform = "onyx"
  model    = "SN2410"
  port "1/1" {
    speed = "25G"
    mode  = "access"
    vlans = [100]
  }
}

host "srv1" {
  os = "linux"
  nic "roce0" {
    model     = "ConnectX-5"
    interface = "ens1f0"
    addresses = ["10.0.0.1/24"]
  }
}

link {
  a      = "leaf1:1/1"
  b      = "srv1:roce0"
  length = 2
}
