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
  a      = "leaf1:swp31"
  b      = "stor01:roce0"
  length = 5
}

# Leaf uplinks: leaf N port 32 to spine1, leaves 1-3 port 31 to spine2.
link {
  a      = "spine1:Ethernet33/1"
  b      = "leaf1:swp32"
  length = 30
  cable  = "fibre"
}

link {
  a      = "spine1:Ethernet34/1"
  b      = "leaf2:swp32"
  length = 30
  cable  = "fibre"
}

link {
  a      = "spine1:Ethernet35/1"
  b      = "leaf3:1/32"
  length = 30
  cable  = "fibre"
}

link {
  a      = "spine1:Ethernet36/1"
  b      = "leaf4:1/32"
  length = 3000
  cable  = "fibre"
}

link {
  a      = "spine2:Ethernet33/1"
  b      = "leaf2:swp31"
  length = 30
  cable  = "fibre"
}

link {
  a      = "spine2:Ethernet34/1"
  b      = "leaf3:1/31"
  length = 30
  cable  = "fibre"
}

link {
  a      = "spine2:Ethernet35/1"
  b      = "leaf4:1/31"
  length = 3000
  cable  = "fibre"
}
