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
