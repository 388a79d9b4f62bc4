# Mistake: trust = "dscp" on a FreeBSD mlx4en NIC (ConnectX-3 Pro), whose
# driver classifies received frames by PCP only and has no DSCP trust.
fabric "bad" {}

qos {
  profile = "nvidia-roce"
}

vlan "rdma" {
  id = 20
}

host "nas" {
  os = "freebsd"

  nic "mlxen0" {
    model     = "ConnectX-3 Pro"
    interface = "mlxen0"
    speed     = "40G"
    vlan      = 20
    trust     = "dscp"
    addresses = ["10.20.0.1/24"]
  }
}

host "peer" {
  os = "freebsd"

  nic "mlxen0" {
    model     = "ConnectX-3 Pro"
    interface = "mlxen0"
    speed     = "40G"
    vlan      = 20
    addresses = ["10.20.0.2/24"]
  }
}

link {
  a      = "nas:mlxen0"
  b      = "peer:mlxen0"
  length = 3
}
