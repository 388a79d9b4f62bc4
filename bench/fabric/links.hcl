# Host cables: lengths cycle through local.host_cables; cable_overrides
# recables single NICs (the incremental benchmark changes one).
dynamic "link" {
  for_each = merge([
    for name, h in local.hosts : {
      for n in range(h.nics) : format("%s:roce%d", name, n) => {
        port   = format("%s:%s", h.leaf, h.ports[n])
        length = lookup(var.cable_overrides, format("%s:roce%d", name, n), local.host_cables[(h.leafi + h.h + n) % 8])
      }
    }
  ]...)
  content {
    a      = link.value.port
    b      = link.key
    length = link.value.length
  }
}

# Leaf uplinks: leaf slot s of pod p to port s+1 of both pod spines;
# fibre, longer for leaves further down the row.
dynamic "link" {
  for_each = setproduct(keys(local.leaves), range(local.spines_per_pod))
  content {
    a      = format("%s:%s", link.value[0], format(local.leaves[link.value[0]].uplink, 49 + link.value[1]))
    b      = format("spine%02d-%d:%s", local.leaves[link.value[0]].pod, link.value[1], format(local.spines[format("spine%02d-%d", local.leaves[link.value[0]].pod, link.value[1])].port, local.leaves[link.value[0]].slot + 1))
    length = 10 + 5 * (local.leaves[link.value[0]].slot % 8)
    cable  = "fibre"
  }
}

# Spine uplinks: uplink u of spine (p, s) is uplink 2p+u of plane s:
# super-spine floor((2p+u)/64) of that plane, port (2p+u)%64 + 1.
dynamic "link" {
  for_each = local.planes > 0 ? setproduct(keys(local.spines), range(2)) : []
  content {
    a      = format("%s:%s", link.value[0], format(local.spines[link.value[0]].port, 63 + link.value[1]))
    b      = format("super%d-%d:swp%d", local.spines[link.value[0]].plane, floor((2 * local.spines[link.value[0]].pod + link.value[1]) / 64), (2 * local.spines[link.value[0]].pod + link.value[1]) % 64 + 1)
    length = 100
    cable  = "fibre"
  }
}
