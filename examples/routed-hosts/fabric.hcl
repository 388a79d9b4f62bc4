# Routed hosts: a leaf-spine fabric routed down to the host. Each GPU
# server has two NICs, one per rail (rail1 on leaf1, rail2 on leaf2), each
# on a routed switch port with a /31 of its own (RFC 3021: the other
# address is the leaf's). The host scripts give each NIC a routing table
# of its own, and main-table routes to the other NICs cabled to its leaf
# (on a GPU server, rail2 also carries arch01 and smb01, on leaf2), merged
# into the fewest prefixes, for RDMA-CM initiators that bind no source.
# The storage server's NIC lists nvme-of and nfs-rdma; the archive
# server's NIC has a /32 only and reaches its leaf by the leaf's IPv6
# link-local address, as on a BGP-unnumbered link (RFC 5549). The backup
# server (FreeBSD) and the SMB server (Windows) have one NIC each, on a
# /31 of their own; their scripts add the same main-table routes.
fabric "routed-hosts" {
  description = "2 leaves, 1 spine, GPU servers with a /31 per rail"

  accept "windows-roce-dscp-not-settable" { reason = "smb01 is untagged on a routed port, so PCP cannot carry its priority; its DSCP is set by hand and checked in a captured packet" }
}

variable "servers" {
  type        = number
  default     = 4
  description = "GPU servers; server N takes port swpN of both leaves."
}

qos {
  profile = "nvidia-roce"
}

dynamic "switch" {
  for_each = range(1, 3)
  iterator = leaf
  labels   = [format("leaf%d", leaf.value)]
  content {
    platform = "cumulus"
    model    = "SN3700"

    # Server ports, then the backup or SMB server on swp29, the storage
    # or archive server on swp30 and the spine uplink on swp31.
    dynamic "port" {
      for_each = concat(range(1, var.servers + 1), [29, 30, 31])
      labels   = [format("swp%d", port.value)]
      content {
        speed = "100G"
        mode  = "routed"
      }
    }
  }
}

switch "spine1" {
  platform = "cumulus"
  model    = "SN3700"

  port "swp1-2" {
    speed = "100G"
    mode  = "routed"
  }
}

# NIC k of server N: 10.20.k.(2N-1)/31, leafk:swpN the other end
# 10.20.k.(2N-2): the rail of four servers is 10.20.k.0/29.
dynamic "host" {
  for_each = range(1, var.servers + 1)
  iterator = server
  labels   = [format("gpu%02d", server.value)]
  content {
    os = "linux"

    dynamic "nic" {
      for_each = range(1, 3)
      labels   = [format("rail%d", nic.value)]
      content {
        model     = "ConnectX-6 Dx"
        interface = format("ens%df0np0", nic.value)
        mtu       = 9216
        addresses = [format("10.20.%d.%d/31", nic.value, 2 * server.value - 1)]
      }
    }
  }
}

host "stor01" {
  os = "linux"

  nic "rail1" {
    model        = "ConnectX-6 Dx"
    interface    = "ens1f0np0"
    mtu          = 9216
    addresses    = ["10.20.1.61/31"]
    applications = ["nvme-of", "nfs-rdma"]
  }
}

host "arch01" {
  os = "linux"

  nic "roce0" {
    model     = "ConnectX-6 Dx"
    interface = "ens1f0np0"
    mtu       = 9216
    addresses = ["10.20.9.1/32"]
    gateway   = "fe80::1"
  }
}

host "bak01" {
  os         = "freebsd"
  os_version = "14.1"

  nic "rail1" {
    model     = "ConnectX-6 Dx"
    interface = "mce0"
    mtu       = 9216
    addresses = ["10.20.1.63/31"]
  }
}

host "smb01" {
  os         = "windows"
  os_version = "2022"

  nic "rail2" {
    model        = "ConnectX-6 Dx"
    interface    = "SLOT 2 Port 1"
    mtu          = 9216
    addresses    = ["10.20.2.63/31"]
    applications = ["smb-direct"]
  }
}

dynamic "link" {
  for_each = setproduct(range(1, var.servers + 1), range(1, 3))
  content {
    a      = format("leaf%d:swp%d", link.value[1], link.value[0])
    b      = format("gpu%02d:rail%d", link.value[0], link.value[1])
    length = 3
  }
}

link {
  a      = "leaf1:swp30"
  b      = "stor01:rail1"
  length = 3
}

link {
  a      = "leaf2:swp30"
  b      = "arch01:roce0"
  length = 3
}

link {
  a      = "leaf1:swp29"
  b      = "bak01:rail1"
  length = 3
}

link {
  a      = "leaf2:swp29"
  b      = "smb01:rail2"
  length = 3
}

dynamic "link" {
  for_each = range(1, 3)
  content {
    a      = format("leaf%d:swp31", link.value)
    b      = format("spine1:swp%d", link.value)
    length = 20
    cable  = "fibre"
  }
}
