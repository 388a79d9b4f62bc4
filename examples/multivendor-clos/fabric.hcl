# A two-tier RoCEv2 Clos from three vendors: two Arista EOS spines, two NVIDIA
# Cumulus leaves and two NVIDIA Onyx leaves, 24 Linux GPU and storage hosts at
# 100GbE. Hosts sit untagged in one access VLAN per rack; the fabric trusts
# DSCP, so RoCE keeps its class across the routed leaf-spine links.
fabric "multivendor-clos" {
  description = "EOS spines, Cumulus and Onyx leaves, 24 RoCEv2 hosts"
  # RoCE on priority 3 on every vendor: Arista's RoCEv2 design uses it too.
}

variable "hosts_per_leaf" {
  type        = number
  default     = 6
  description = "Hosts per leaf: the first four are GPU servers, the rest storage."
}

# RoCEv2 on DSCP 26 -> priority 3, lossless, ECN on; CNP on DSCP 48 ->
# priority 6, strict.
qos {
  profile = "nvidia-roce"
  headroom { lossless_mtu = 4096 } # the RoCE path MTU of the MTU 9000 hosts
}
locals {
  gpus_per_leaf = 4

  # Port naming differs per platform; ranges are written in each one's own
  # form (swp1-6 on Cumulus, 1/1-1/6 on Onyx, Ethernet1/1 on EOS).
  leaves = {
    leaf1 = { rack = 1, platform = "cumulus", model = "SN2700", os = "5.9.2", port = "swp%d", range = "swp%d-%d" }
    leaf2 = { rack = 2, platform = "cumulus", model = "SN2700", os = "5.9.2", port = "swp%d", range = "swp%d-%d" }
    leaf3 = { rack = 3, platform = "onyx", model = "SN2700", os = "3.10.4206", port = "1/%d", range = "1/%d-1/%d" }
    leaf4 = { rack = 4, platform = "onyx", model = "SN2700", os = "3.10.4206", port = "1/%d", range = "1/%d-1/%d" }
  }

  spines = {
    spine1 = { uplink = 31 }
    spine2 = { uplink = 32 }
  }

  # Every rack VLAN, for the trunks between leaves and between spines.
  rack_vlans = [for l in values(local.leaves) : 100 + l.rack]

  # The untagged VLAN of each leaf's port 8 trunk: both ends of a cable
  # agree on it (leaf1-leaf2 carry rack 1's VLAN, leaf3-leaf4 rack 3's).
  native_vlans = { leaf1 = 101, leaf2 = 101, leaf3 = 103, leaf4 = 103 }

  # Cable lengths of the host ports in rack order: DAC inside the rack,
  # AOC for the far end of the row.
  host_cables = [1, 2, 2, 3, 5, 7]

  # One entry per host: name => where it plugs in and what it runs.
  hosts = merge([
    for leaf, l in local.leaves : {
      for i in range(1, var.hosts_per_leaf + 1) :
      (i <= local.gpus_per_leaf
        ? format("gpu%02d", (l.rack - 1) * local.gpus_per_leaf + i)
        : format("stor%02d", (l.rack - 1) * (var.hosts_per_leaf - local.gpus_per_leaf) + i - local.gpus_per_leaf)
        ) => {
        leaf    = leaf
        port    = format(l.port, i)
        rack    = l.rack
        gpu     = i <= local.gpus_per_leaf
        address = format("%s/24", cidrhost(format("10.0.%d.0/24", l.rack), 10 + i))
        length  = local.host_cables[(i - 1) % length(local.host_cables)]
      }
    }
  ]...)
}

dynamic "vlan" {
  for_each = local.leaves
  labels   = [format("rack%d", vlan.value.rack)]
  content {
    id = 100 + vlan.value.rack
  }
}
