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
#
# Both NICs tag VLAN 20 and trust pcp. FreeBSD's mlx4en has no DSCP trust:
# the ConnectX-3 Pro classifies what it receives by the 802.1Q PCP only,
# and an untagged frame carries no PCP, so without a VLAN the
# workstation's RoCE would land in priority 0 at the NAS, where PFC on
# priority 3 never pauses it (fabricc's rule "Untagged RoCE to a NIC that
# classifies by PCP", docs/language.md, "What fabricc checks"). In VLAN 20
# each frame's tag carries its priority, 3 for RoCE, which both NICs
# classify and pause by. The VLAN id itself is arbitrary; 20 matches the
# 10.20.0.0/24 subnet.
#
# Besides SMB Direct, the NAS exports an iSCSI volume (ctld) to the
# workstation. Listing "iscsi" on both NICs tags its TCP (port 3260) with
# the NICs' class: the workstation's script writes a NetQos policy for it,
# more specific than the policy that sends all other TCP to priority 0,
# and the NAS's document says how ctld marks it. That class is the
# lossless RoCE class, a warning (tcp-application-in-a-lossless-class),
# accepted here: the one link carries nothing else that PFC could hold up.
fabric "homelab-40g" {
  description = "Back-to-back 40GbE ConnectX-3 Pro link, FreeBSD 12 NAS and Windows Server 2016 workstation"
  accept "tcp-application-in-a-lossless-class" { reason = "iSCSI shares the lossless class on purpose: one back-to-back link between the two hosts, with no other senders for PFC to pause" }
}

qos {
  profile = "nvidia-roce"
}

vlan "rdma" {
  id = 20
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
    model        = "ConnectX-3 Pro"
    interface    = "mlxen0"
    speed        = "40G"
    mtu          = var.mtu
    vlan         = 20
    trust        = "pcp"
    addresses    = ["10.20.0.1/24"]
    applications = ["iscsi"]
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
    vlan         = 20
    trust        = "pcp"
    addresses    = ["10.20.0.10/24"]
    applications = ["smb-direct", "iscsi"]
  }
}

# The Finisar FCBG410QB1C50-FC 50 m AOC the home-lab write-up settled on.
link {
  a      = "nas:mlxen0"
  b      = "workstation:qsfp1"
  length = 50
  cable  = "aoc"
}
