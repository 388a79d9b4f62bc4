# Mistake (a warning): a 100 m cable written as "dac"; no passive copper
# Ethernet PHY reaches past 7 m, so it is an AOC or fibre, or a wrong length.
fabric "r" {}
qos {
  profile = "nvidia-roce"
  headroom { lossless_mtu = 4096 } # the RoCE path MTU of MTU 9000 hosts
}
vlan "s" { id = 100 }
switch "leaf1" {
  platform = "cumulus"
  model    = "SN2410"
  port "swp1" {
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
  a      = "leaf1:swp1"
  b      = "srv1:roce0"
  length = 100
  cable  = "dac"
}
