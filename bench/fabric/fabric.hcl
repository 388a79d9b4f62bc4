# The benchmark fabric of `make bench` (bench/README.md): a three-tier
# RoCEv2 Clos sized by one variable. Every switch, host and cable comes
# out of the locals below through dynamic blocks; change `switches` and
# the rest follows.
#
#   pod          62 leaves + 2 spines (the last pod takes what is left)
#   leaf         32 hosts, every other one with a second NIC: 48 x 25G
#                host ports and 2 x 100G uplinks, one to each pod spine;
#                EOS, Onyx and Cumulus in turn
#   spine        SN4600C (64 x 100G): 62 leaves down, 2 up to its plane
#   super-spine  one plane per pod spine index, 64 pods per switch
fabric "bench" {
  description = "Generated three-tier RoCEv2 Clos for fabricc's benchmarks"

  # 48 lossless host ports share a 16-32 MB buffer; the benchmark keeps
  # the profile's ECN thresholds so every size renders the same classes.
  accept "ecn-minimum-above-dcqcn-bound" {
    reason = "benchmark fabric: the profile's ECN thresholds are kept on purpose"
  }

  # The Windows hosts share their leaves' DSCP-trusting ports with the
  # Linux ones; the benchmark measures rendering, not their RoCE DSCP.
  accept "windows-roce-dscp-not-settable" {
    reason = "benchmark fabric: the Windows hosts are there to render their scripts"
  }
}

variable "switches" {
  type        = number
  default     = 64
  description = "Switches in total: leaves, spines and super-spines."
}

variable "hosts_per_leaf" {
  type        = number
  default     = 32
  description = "Hosts per leaf; every other host has a second NIC (at most 32)."
}

variable "cable_overrides" {
  type        = map(number)
  default     = {}
  description = "Cable length in metres by host NIC (\"h0001-03:roce1\"), for one recabled port."
}

qos {
  profile = "nvidia-roce"
  # The hosts' MTU 9000 carries RoCE at a 4096 B path MTU.
  headroom { lossless_mtu = 4096 }
}

vlan "rack" {
  id = 100
}

locals {
  leaves_per_pod = 62
  spines_per_pod = 2
  pod_size       = local.leaves_per_pod + local.spines_per_pod

  # Super-spines: one plane per spine index; a 64-port super-spine takes
  # one uplink from each of 64 spines. A single pod needs none.
  pods_estimate = ceil(var.switches / local.pod_size)
  planes        = local.pods_estimate > 1 ? local.spines_per_pod : 0
  per_plane     = local.pods_estimate > 1 ? ceil(local.pods_estimate * 2 / 64) : 0
  superspines   = local.planes * local.per_plane
  pods          = ceil((var.switches - local.superspines) / local.pod_size)
  leaf_count    = var.switches - local.superspines - local.pods * local.spines_per_pod

  # Platforms take turns, so every pod and every size holds all three.
  platforms = [
    { platform = "eos", model = "7050SX3-48YC8", os = "4.32.2F", host_port = "Ethernet%d", uplink = "Ethernet%d/1", mtu = 9214 },
    { platform = "onyx", model = "SN2410", os = "3.10.4206", host_port = "1/%d", uplink = "1/%d", mtu = 9216 },
    { platform = "cumulus", model = "SN3420", os = "5.9.2", host_port = "swp%d", uplink = "swp%d", mtu = 9216 },
  ]

  leaves = merge([
    for p in range(local.pods) : {
      for slot in range(min(local.leaves_per_pod, local.leaf_count - p * local.leaves_per_pod)) :
      format("leaf%04d", p * local.leaves_per_pod + slot) => merge(local.platforms[(p * local.leaves_per_pod + slot) % 3], {
        index = p * local.leaves_per_pod + slot
        pod   = p
        slot  = slot
      })
    }
  ]...)

  # Spines alternate Onyx and Cumulus (EOS has no 64-port model here).
  spines = merge([
    for p in range(local.pods) : {
      for s in range(local.spines_per_pod) : format("spine%02d-%d", p, s) => {
        pod      = p
        plane    = s
        platform = (p + s) % 2 == 0 ? "onyx" : "cumulus"
        os       = (p + s) % 2 == 0 ? "3.10.4206" : "5.9.2"
        port     = (p + s) % 2 == 0 ? "1/%d" : "swp%d"
      }
    }
  ]...)

  superspine_names = {
    for i in range(local.superspines) : format("super%d-%d", floor(i / local.per_plane), i % local.per_plane) => {
      plane = floor(i / local.per_plane)
      index = i % local.per_plane
    }
  }

  # Hosts: host h of leaf i is "hLLLL-HH"; odd hosts carry a second NIC.
  # Host ports: the first NIC of host h on port h+1, second NICs from 33.
  hosts = merge([
    for name, l in local.leaves : {
      for h in range(var.hosts_per_leaf) : format("h%04d-%02d", l.index, h) => {
        leaf  = name
        leafi = l.index
        h     = h
        nics  = h % 2 == 1 ? 2 : 1
        os    = h % 16 == 15 ? "windows" : (h % 16 == 7 ? "freebsd" : "linux")
        ports = [format(l.host_port, h + 1), format(l.host_port, 33 + floor(h / 2))]
      }
    }
  ]...)

  # Host cable lengths: DAC 1-5 m inside the rack, AOC 7 m to the far
  # end of the row.
  host_cables = [1, 2, 3, 2, 1, 5, 3, 7]
}
