# The AI-pod trial of issue 13: an AI pod written from the docs the way a
# network engineer would, with the mistakes the issue lists. It is kept
# broken on purpose; TestAIPodTrial pins what `fabricc validate` says.
#
# Mistakes (each one is a single root cause):
#  1. vlan "storage" reuses id 10 of vlan "rail0".
#  2. leaf3 runs Onyx on an SN5600 (Spectrum-4 runs Cumulus Linux only).
#  3. leaf4 (SN4700) uplinks at 800G, which an SN4700 port cannot run.
#  4. spine2 declares Ethernet40/1; a 7280CR3-32D4 has 36 ports.
#  5. spine1 names its 400G ports "Ethernet33-36"; EOS calls them Ethernet33/1.
#  6. gpu16 was written by hand: its nic0 repeats gpu15's address and its
#     nic1 sits in rail0's subnet instead of rail1's.
#  7. the storage host's ConnectX-6 Dx is linked at 400G (it stops at 200G).
#  8. the GPU NICs are set to MTU 9216 while the leaf host ports are 9000
#     (one line in a dynamic block, 30 NICs).
#  9. the leaf uplinks leave their MTU to the platform defaults, which
#     differ: EOS 9214, Onyx and Cumulus 9216.
# 10. leaf4's uplinks are 8 km of fibre (80 m was meant), too long for
#     the PFC headroom the spines can hold.
fabric "ai-pod" {
  description = "2 EOS spines, 2 Cumulus and 2 Onyx leaves, 16 GPU hosts with two rails"
}

variable "gpus" {
  type    = number
  default = 16
}

qos {
  profile = "nvidia-roce"
}

vlan "rail0" {
  id = 10
}

vlan "rail1" {
  id = 11
}

vlan "storage" {
  id = 10
}

locals {
  # Rails: nic0 of every GPU host goes to the rail0 leaf of its half of
  # the pod, nic1 to the rail1 leaf.
  leaves = {
    leaf1 = { platform = "cumulus", model = "SN5600", port = "swp%d", range = "swp%d-%d", rail = 0, half = 0, uplink = "400G" }
    leaf2 = { platform = "cumulus", model = "SN5600", port = "swp%d", range = "swp%d-%d", rail = 1, half = 0, uplink = "400G" }
    leaf3 = { platform = "onyx", model = "SN5600", port = "1/%d", range = "1/%d-1/%d", rail = 0, half = 1, uplink = "400G" }
    leaf4 = { platform = "onyx", model = "SN4700", port = "1/%d", range = "1/%d-1/%d", rail = 1, half = 1, uplink = "800G" }
  }

  # Every GPU host but the last (written by hand in hosts.hcl).
  gpu_hosts = { for i in range(1, var.gpus) : format("gpu%02d", i) => i }

  # Leaf uplinks: port 32 to spine1, port 31 to spine2.
  uplink_m = { leaf1 = 30, leaf2 = 30, leaf3 = 30, leaf4 = 8000 }
  uplinks = flatten([
    for i, leaf in ["leaf1", "leaf2", "leaf3", "leaf4"] : [
      { spine = "spine1", spine_port = format("Ethernet%d/1", 33 + i), leaf = leaf, leaf_port = format(local.leaves[leaf].port, 32) },
      { spine = "spine2", spine_port = format("Ethernet%d/1", 33 + i), leaf = leaf, leaf_port = format(local.leaves[leaf].port, 31) },
    ]
  ])
}
