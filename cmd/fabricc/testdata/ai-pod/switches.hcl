# Spines: Arista 7280CR3-32D4, four 400G QSFP-DD ports (33-36) facing the leaves.
switch "spine1" {
  platform = "eos"
  model    = "7280CR3-32D4"

  port "Ethernet33-36" {
    speed = "400G"
    mode  = "routed"
  }
}

switch "spine2" {
  platform = "eos"
  model    = "7280CR3-32D4"

  port "Ethernet33/1,Ethernet34/1,Ethernet35/1,Ethernet40/1" {
    speed = "400G"
    mode  = "routed"
  }
}

dynamic "switch" {
  for_each = local.leaves
  iterator = leaf
  labels   = [leaf.key]
  content {
    platform = leaf.value.platform
    model    = leaf.value.model

    dynamic "port" {
      for_each = [format(leaf.value.range, 1, 9)]
      labels   = [port.value]
      content {
        speed = "400G"
        mtu   = 9000
        mode  = "access"
        vlans = [10 + leaf.value.rail]
      }
    }

    dynamic "port" {
      for_each = [format(leaf.value.range, 31, 32)]
      labels   = [port.value]
      content {
        speed = leaf.value.uplink
        mode  = "routed"
      }
    }
  }
}
