# Host cables, lengths from local.host_cables.
dynamic "link" {
  for_each = local.hosts
  content {
    a      = format("%s:%s", link.value.leaf, link.value.port)
    b      = format("%s:roce0", link.key)
    length = link.value.length
    cable  = link.value.length <= 5 ? "dac" : "aoc"
  }
}

# Leaf-spine fibre: every leaf to both spines, longer runs for racks
# further from the spine row.
dynamic "link" {
  for_each = setproduct(keys(local.leaves), keys(local.spines))
  content {
    a      = format("%s:Ethernet%d/1", link.value[1], local.leaves[link.value[0]].rack)
    b      = format("%s:%s", link.value[0], format(local.leaves[link.value[0]].port, local.spines[link.value[1]].uplink))
    length = 10 + 5 * local.leaves[link.value[0]].rack
    cable  = "fibre"
  }
}

# Trunks: port 7 (tagged only) joins leaf1 to leaf3 and leaf2 to leaf4
# (Cumulus to Onyx); port 8 (with a native VLAN) joins leaf1 to leaf2 and
# leaf3 to leaf4; the spines (EOS to EOS) meet on Ethernet5/1 (tagged
# only) and Ethernet6/1 (native VLAN). Every rack VLAN crosses each.
locals {
  trunk_links = {
    "leaf1:swp7"         = "leaf3:1/7"
    "leaf2:swp7"         = "leaf4:1/7"
    "leaf1:swp8"         = "leaf2:swp8"
    "leaf3:1/8"          = "leaf4:1/8"
    "spine1:Ethernet5/1" = "spine2:Ethernet5/1"
    "spine1:Ethernet6/1" = "spine2:Ethernet6/1"
  }
}

dynamic "link" {
  for_each = local.trunk_links
  content {
    a      = link.key
    b      = link.value
    length = 3
    cable  = "dac"
  }
}
