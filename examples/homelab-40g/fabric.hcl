# A home lab (ConnectX-3 Pro 40GbE home-lab write-up): two Mellanox
# ConnectX-3 Pro cards (MCX354A-FCCT,
# 40GbE) linked back to back with a 50 m QSFP+ active optical cable, no
# switch. A FreeBSD 12 NAS serves a Windows Server 2016 workstation; jumbo
# frames (MTU 9000) doubled iperf3 throughput in the write-up (12.0 -> 24.5
# Gbit/s).
#
# With no switch on the path, the lossless contract is between the two
# NICs alone: both must tag RoCE with the same priority and DSCP and run
# PFC on the same priorities. fabricc checks exactly that.
fabric "homelab-40g" {
  description = "Back-to-back 40GbE ConnectX-3 Pro link, FreeBSD 12 NAS and Windows Server 2016 workstation"
}

qos {
  profile = "nvidia-roce"
}

variable "mtu" {
  type        = number
  default     = 9000
  description = "Interface MTU on both ends; the home-lab write-up measured 1500 against 9000."
}

# The NAS: HPE DL380 Gen10 on FreeBSD 12; the mlx4en driver exposes the
# card's ports as mlxen0 and mlxen1 (ConnectX-3 Pro 40GbE home-lab write-up).
host "nas" {
  os         = "freebsd"
  os_version = "12.1"

  nic "mlxen0" {
    model     = "ConnectX-3 Pro"
    interface = "mlxen0"
    speed     = "40G"
    mtu       = var.mtu
    addresses = ["10.20.0.1/24"]
  }
}

# The workstation: Windows Server 2016 with MLNX WinOF (ConnectX-3 family).
host "workstation" {
  os         = "windows"
  os_version = "2016"

  nic "qsfp1" {
    model        = "ConnectX-3 Pro"
    interface    = "Ethernet 3"
    speed        = "40G"
    mtu          = var.mtu
    addresses    = ["10.20.0.10/24"]
    applications = ["smb-direct"]
  }
}

# The Finisar FCBG410QB1C50-FC 50 m AOC the home-lab write-up settled on.
link {
  a      = "nas:mlxen0"
  b      = "workstation:qsfp1"
  length = 50
  cable  = "aoc"
}
