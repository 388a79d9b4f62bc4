# Mistake: a FreeBSD mlx4en NIC (classifies received frames by PCP only)
# cabled back to back to a Windows NIC with no vlan on either: RoCE
# crosses the link untagged and lands in priority 0 at the FreeBSD NIC.
fabric "bad" {}

qos {
  profile = "nvidia-roce"
}

host "nas" {
  os = "freebsd"

  nic "mlxen0" {
    model     = "ConnectX-3 Pro"
    interface = "mlxen0"
    speed     = "40G"
    addresses = ["10.20.0.1/24"]
  }
}

host "workstation" {
  os = "windows"

  nic "qsfp1" {
    model     = "ConnectX-3 Pro"
    interface = "Ethernet 3"
    speed     = "40G"
    addresses = ["10.20.0.10/24"]
  }
}

link {
  a      = "nas:mlxen0"
  b      = "workstation:qsfp1"
  length = 3
}
