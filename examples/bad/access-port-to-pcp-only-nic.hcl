# Mistake: an access port (VLAN 100, untagged) cabled to a FreeBSD mlx4en
# NIC, whose driver classifies received frames by PCP only: the RoCE the
# switch sends it carries no PCP and lands in priority 0.
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

  port "swp49" {
    speed = "40G"
    mode  = "access"
    vlans = [100]
  }
}

host "nas" {
  os = "freebsd"

  nic "mlxen0" {
    model     = "ConnectX-3 Pro"
    interface = "mlxen0"
    addresses = ["10.0.0.1/24"]
  }
}

link {
  a      = "leaf1:swp49"
  b      = "nas:mlxen0"
  length = 2
}
