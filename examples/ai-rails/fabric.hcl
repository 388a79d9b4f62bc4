# A rail-optimised AI training pod: GPU servers with eight ConnectX-7
# NICs each, NIC k of every server cabled to rail leaf k, so the GPUs of
# one rank (GPU k of each server) reach each other through one switch, as
# in NVIDIA's DGX SuperPOD reference architectures. 400GbE on NVIDIA
# SN5600 (Spectrum-4) switches running Cumulus Linux; two spines join the
# rails over routed links.
fabric "ai-rails" {
  description = "8 rail leaves, 2 spines, GPU servers with 8 x 400GbE"
}

variable "servers" {
  type        = number
  default     = 4
  description = "GPU servers; server N takes port swpN of every rail leaf."
}

# RoCEv2 on DSCP 26 -> priority 3, lossless, ECN on; CNP on DSCP 48 ->
# priority 6, strict.
qos {
  profile = "nvidia-roce"
  # The hosts' MTU 9000 carries RoCE at a 4096 B path MTU: the headroom
  # of every lossless port counts a last frame that long.
  headroom { lossless_mtu = 4096 }

  # DCQCN on the senders' ConnectX-7 NICs (NVIDIA "DCQCN CC Parameters"):
  # one CNP cuts a flow's rate to no less than a quarter of it, and no flow
  # is held below 1 Gb/s. Parameters not written keep the firmware's values.
  dcqcn {
    rpg_min_dec_fac = 25
    rpg_min_rate    = 1000
  }
}

# Each rail is its own layer-2 segment on its leaf; the rails meet only
# through the routed spine links.
vlan "rail" {
  id = 10
}

locals {
  rails  = 8
  spines = 2
  # The spine uplinks of a rail leaf come after its 32 server ports.
  uplink = 33
}

dynamic "switch" {
  for_each = range(1, local.rails + 1)
  iterator = rail
  labels   = [format("rail%d", rail.value)]
  content {
    platform = "cumulus"
    model    = "SN5600"

    # Server ports: a block label cannot be computed, so the ports are a
    # dynamic block whose labels are.
    dynamic "port" {
      for_each = range(1, var.servers + 1)
      labels   = [format("swp%d", port.value)]
      content {
        speed = "400G"
        mode  = "access"
        vlans = [10]
      }
    }

    dynamic "port" {
      for_each = range(local.uplink, local.uplink + local.spines)
      labels   = [format("swp%d", port.value)]
      content {
        speed = "400G"
        mode  = "routed"
      }
    }
  }
}

dynamic "switch" {
  for_each = range(1, local.spines + 1)
  iterator = spine
  labels   = [format("spine%d", spine.value)]
  content {
    platform = "cumulus"
    model    = "SN5600"

    dynamic "port" {
      for_each = range(1, local.rails + 1)
      labels   = [format("swp%d", port.value)]
      content {
        speed = "400G"
        mode  = "routed"
      }
    }
  }
}

# NIC k of a server is on rail k, in a subnet of its own (10.10.k.0/24):
# a host routes a subnet out of one NIC only.
dynamic "host" {
  for_each = range(1, var.servers + 1)
  iterator = server
  labels   = [format("gpu%02d", server.value)]
  content {
    os = "linux"

    dynamic "nic" {
      for_each = range(1, local.rails + 1)
      labels   = [format("rail%d", nic.value)]
      content {
        model     = "ConnectX-7"
        interface = format("ens%dnp0", nic.value)
        mtu       = 9000
        addresses = [format("10.10.%d.%d/24", nic.value, server.value)]
      }
    }
  }
}

# Server cables: 3 m DAC inside the rack.
dynamic "link" {
  for_each = setproduct(range(1, var.servers + 1), range(1, local.rails + 1))
  content {
    a      = format("rail%d:swp%d", link.value[1], link.value[0])
    b      = format("gpu%02d:rail%d", link.value[0], link.value[1])
    length = 3
  }
}

# Rail-to-spine fibre across the row.
dynamic "link" {
  for_each = setproduct(range(1, local.rails + 1), range(1, local.spines + 1))
  content {
    a      = format("rail%d:swp%d", link.value[0], local.uplink + link.value[1] - 1)
    b      = format("spine%d:swp%d", link.value[1], link.value[0])
    length = 20
    cable  = "fibre"
  }
}
