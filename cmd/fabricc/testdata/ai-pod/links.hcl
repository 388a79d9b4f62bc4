# GPU host n (1-16): nic0 to its half's rail0 leaf, nic1 to the rail1
# leaf, on leaf port ((n - 1) % 8) + 1.
dynamic "link" {
  for_each = setproduct(range(1, var.gpus + 1), [0, 1])
  content {
    a      = format("%s:%s", [for k, l in local.leaves : k if l.rail == link.value[1] && l.half == floor((link.value[0] - 1) / 8)][0], format(local.leaves[[for k, l in local.leaves : k if l.rail == link.value[1] && l.half == floor((link.value[0] - 1) / 8)][0]].port, (link.value[0] - 1) % 8 + 1))
    b      = format("gpu%02d:nic%d", link.value[0], link.value[1])
    length = 3
  }
}

link {
  a      = "leaf1:swp9"
  b      = "stor01:roce0"
  length = 5
}

dynamic "link" {
  for_each = local.uplinks
  content {
    a      = format("%s:%s", link.value.spine, link.value.spine_port)
    b      = format("%s:%s", link.value.leaf, link.value.leaf_port)
    length = local.uplink_m[link.value.leaf]
    cable  = "fibre"
  }
}
